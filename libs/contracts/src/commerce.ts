import { z } from 'zod';
import { RegisterRequestSchema } from './accounts.js';
import { Cents, MAX_QUANTITY } from './catalogue.js';
import { MembershipSchema } from './profiles.js';

// Orders, payments and memberships (spec sections 1, 3, 4, 7, 9; decisions.md). Money is whole cents everywhere;
// prices come from the catalogue and the plans on the server, never from the browser.

/** The tiers paid by the month through PayFast. DigiShare is free; DigiPlatinum is priced on request. */
export const PaidTiers = ['DigiSilver', 'DigiGold'] as const;
export const PaidTierSchema = z.enum(PaidTiers, { error: 'Please choose DigiSilver or DigiGold.' });
export type PaidTier = z.infer<typeof PaidTierSchema>;

export const PlanSchema = z
  .object({
    tier: MembershipSchema,
    /** Per month, in cents; null for "price on request" (DigiPlatinum). */
    monthlyPriceCents: Cents.nullable(),
  })
  .meta({ id: 'Plan' });
export const PlanListSchema = z.object({ plans: z.array(PlanSchema) }).meta({ id: 'PlanList' });
export type Plan = z.infer<typeof PlanSchema>;
export type PlanList = z.infer<typeof PlanListSchema>;

// ---------------------------------------------------------------------------------------------------- orders

/** What the basket sends at checkout: ids and quantities only (the server prices them). */
export const CheckoutRequestSchema = z
  .object({
    items: z
      .array(
        z.object({
          id: z.string().regex(/^[a-z0-9-]{1,64}$/, 'That item is not in the shop.'),
          quantity: z
            .number({ error: 'Please choose a quantity.' })
            .int('Please choose a whole number.')
            .min(1, 'At least one, please.')
            .max(MAX_QUANTITY, `At most ${MAX_QUANTITY} of one card per order; for more, please contact us.`),
        }),
      )
      .min(1, 'No Accessories selected.')
      .max(10, 'At most 10 different items per order.')
      .refine((items) => new Set(items.map((i) => i.id)).size === items.length, 'Each item once, with its quantity.'),
  })
  .meta({ id: 'CheckoutRequest' });
export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;

export const OrderStatuses = ['awaiting-payment', 'paid', 'cancelled'] as const;
export const OrderStatusSchema = z.enum(OrderStatuses);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

export const OrderLineSchema = z.object({
  itemId: z.string(),
  name: z.string(),
  quantity: z.number().int().min(1),
  unitPriceCents: Cents,
  lineTotalCents: Cents,
  /** Months of DigiGold the item includes (specials), per item. */
  includedGoldMonths: z.number().int().min(0),
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

export const OrderSchema = z
  .object({
    id: z.uuid(),
    /** Ours, short and readable (on the receipt, and PayFast's m_payment_id): e.g. DC-7K3M9Q. */
    reference: z.string(),
    status: OrderStatusSchema,
    lines: z.array(OrderLineSchema),
    totalCents: Cents,
    createdAt: z.iso.datetime(),
    paidAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof OrderSchema>;
export const OrderListSchema = z.object({ orders: z.array(OrderSchema) }).meta({ id: 'OrderList' });

/** Where the browser goes to pay: PayFast's process page with the signed request in its query string. */
export const PaymentRedirectSchema = z.object({ redirectUrl: z.url() }).meta({ id: 'PaymentRedirect' });
export type PaymentRedirect = z.infer<typeof PaymentRedirectSchema>;

export const CheckoutResponseSchema = z.object({ order: OrderSchema, redirectUrl: z.url() }).meta({ id: 'CheckoutResponse' });
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/**
 * The special offer's sign-up (/registration): a new account (null when the caller is signed in already) and the
 * specials it buys. Only specials belong here (a card plus months of DigiGold); accessories are bought from the basket.
 */
export const SpecialRegistrationRequestSchema = z
  .object({
    account: RegisterRequestSchema.nullable(),
    items: CheckoutRequestSchema.shape.items,
  })
  .meta({ id: 'SpecialRegistrationRequest' });
export type SpecialRegistrationRequest = z.infer<typeof SpecialRegistrationRequestSchema>;

// -------------------------------------------------------------------------------------------------- payments

export const SubscriptionStatuses = [
  /** Requested; PayFast has not confirmed the first payment yet. */
  'pending',
  'active',
  /** Cancelled by the owner: the tier stays until the end of the paid period. */
  'cancelling',
  /** A recurring payment failed: the tier stays for the grace period. */
  'past-due',
  /** Ended: the tier is DigiShare again. */
  'ended',
] as const;
export const SubscriptionStatusSchema = z.enum(SubscriptionStatuses);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatusSchema>;

export const SubscriptionSchema = z
  .object({
    id: z.uuid(),
    tier: MembershipSchema,
    status: SubscriptionStatusSchema,
    monthlyPriceCents: Cents,
    /** The tier is paid until this moment. */
    paidUntil: z.iso.datetime().nullable(),
    nextBillingDate: z.iso.date().nullable(),
    /** After a failed charge (`past-due`): the tier stays until then. */
    graceUntil: z.iso.datetime().nullable(),
    /** A change of tier asked for: the tier (and its price) from the next billing date on; null when none. */
    nextTier: MembershipSchema.nullable(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const PaymentRecordSchema = z
  .object({
    id: z.uuid(),
    description: z.string(),
    amountCents: Cents,
    status: z.enum(['complete', 'failed']),
    at: z.iso.datetime(),
  })
  .meta({ id: 'PaymentRecord' });

export const BillingSchema = z
  .object({
    membership: MembershipSchema,
    subscription: SubscriptionSchema.nullable(),
    payments: z.array(PaymentRecordSchema),
  })
  .meta({ id: 'Billing' });
export type Billing = z.infer<typeof BillingSchema>;

export const StartMembershipSchema = z.object({ tier: PaidTierSchema }).meta({ id: 'StartMembership' });
export type StartMembership = z.infer<typeof StartMembershipSchema>;

/**
 * An Instant Transaction Notification as PayFast posts it (application/x-www-form-urlencoded), kept as the raw body:
 * its signature is over the fields in the order they were posted, so nothing may re-order or re-encode them.
 */
export const ItnReceiptSchema = z.object({
  rawBody: z.string().max(20_000),
  /** The address the notification came from, as the gateway sees it behind its configured proxies. */
  sourceIp: z.string().max(64).nullable(),
});
