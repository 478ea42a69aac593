import { sql } from 'drizzle-orm';
import { date, index, integer, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The payments service's schema: nobody else reads it. */
export const schema = pgSchema('payments');
export const { outbox, processedMessages } = messagingTables(schema);

const at = (name: string) => timestamp(name, { withTimezone: true });

/** What we asked PayFast to charge: its id is PayFast's `m_payment_id`, so every ITN names the request it pays. */
export const paymentRequests = schema.table(
  'payment_requests',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    /** `special`: an order of specials paid now, and the DigiGold subscription it includes (recurring from `billing_date`). */
    kind: text('kind', { enum: ['order', 'subscription', 'special'] }).notNull(),
    orderId: uuid('order_id'),
    subscriptionId: uuid('subscription_id'),
    amountCents: integer('amount_cents').notNull(),
    itemName: text('item_name').notNull(),
    /** A subscription request's first recurring charge (PayFast's billing_date): a special's is a year out. */
    billingDate: date('billing_date', { mode: 'string' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('payment_requests_account_idx').on(t.accountId)],
);

/**
 * Every notification PayFast (or anybody) posted, kept raw with where it came from and what we decided: an audit
 * trail, never deleted. `processed_at` null means not decided yet (kept across a crash and picked up on start).
 */
export const itns = schema.table(
  'itns',
  {
    id: uuid('id').primaryKey(),
    rawBody: text('raw_body').notNull(),
    sourceIp: text('source_ip'),
    receivedAt: at('received_at').notNull().defaultNow(),
    /** applied | duplicate | ignored | rejected | retrying (validate call failed, tried again later) */
    verdict: text('verdict'),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    processedAt: at('processed_at'),
  },
  (t) => [
    index('itns_unprocessed_idx')
      .on(t.nextAttemptAt)
      .where(sql`processed_at IS NULL`),
  ],
);

/** Money that moved (or failed to): one row per PayFast payment, whatever number of ITNs told us about it. */
export const payments = schema.table(
  'payments',
  {
    id: uuid('id').primaryKey(),
    pfPaymentId: text('pf_payment_id').notNull(),
    paymentRequestId: uuid('payment_request_id').notNull(),
    accountId: uuid('account_id').notNull(),
    kind: text('kind', { enum: ['order', 'subscription', 'special'] }).notNull(),
    orderId: uuid('order_id'),
    subscriptionId: uuid('subscription_id'),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['complete', 'failed'] }).notNull(),
    description: text('description').notNull(),
    billingDate: date('billing_date', { mode: 'string' }),
    itnId: uuid('itn_id').notNull(),
    /**
     * Why this payment must be paid back by hand (the staff console lists these): a checkout given up before it was
     * paid, or a second PayFast subscription opened from one checkout. Null for every payment that stands.
     */
    refundDue: text('refund_due'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_pf_payment_id_idx').on(t.pfPaymentId),
    index('payments_account_idx').on(t.accountId),
    index('payments_refund_due_idx')
      .on(t.createdAt)
      .where(sql`refund_due IS NOT NULL`),
  ],
);

/** A monthly membership at PayFast. */
export const subscriptions = schema.table(
  'subscriptions',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    tier: text('tier', { enum: ['DigiSilver', 'DigiGold'] }).notNull(),
    status: text('status', { enum: ['pending', 'active', 'cancelling', 'past-due', 'ended'] }).notNull(),
    /** PayFast's subscription token, from the first ITN. */
    token: text('token'),
    monthlyPriceCents: integer('monthly_price_cents').notNull(),
    /** A change of tier asked for at PayFast: the tier of the charges from next_billing_date on (then it becomes `tier`). */
    nextTier: text('next_tier', { enum: ['DigiSilver', 'DigiGold'] }),
    /**
     * The tier and price before the last change took effect, and the billing date it took effect from: a charge for
     * an earlier billing date (a late ITN) is of that tier at that price.
     */
    previousTier: text('previous_tier', { enum: ['DigiSilver', 'DigiGold'] }),
    previousPriceCents: integer('previous_price_cents'),
    tierFrom: date('tier_from', { mode: 'string' }),
    paidUntil: at('paid_until'),
    nextBillingDate: date('next_billing_date', { mode: 'string' }),
    graceUntil: at('grace_until'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('subscriptions_account_idx').on(t.accountId, t.status)],
);

/** Grows with every change of an account's membership, so consumers can ignore an older event. */
export const membershipVersions = schema.table('membership_versions', {
  accountId: uuid('account_id').primaryKey(),
  version: integer('version').notNull(),
});
