import {
  bigserial,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { Materials, OrderActors, OrderStatuses, ProofStatuses } from '@digicard/contracts';
import { messagingTables } from '@digicard/messaging';

/** The orders service's schema: catalogue, orders, proofs and the sales enquiries from the marketing site. */
export const schema = pgSchema('orders');
export const { outbox, processedMessages } = messagingTables(schema);

export const enquiryKind = schema.enum('enquiry_kind', ['call-back', 'message', 'quote']);

export const enquiries = schema.table(
  'enquiries',
  {
    id: uuid('id').primaryKey(),
    kind: enquiryKind('kind').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    message: text('message'),
    /** Quote requests (DigiPlatinum): the company and how many people would use it. */
    company: text('company'),
    teamSize: integer('team_size'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The browser's key of the form submission: a retry of it is answered with this enquiry, not stored again. */
    idempotencyKey: text('idempotency_key'),
  },
  (t) => [index('enquiries_created_at_idx').on(t.createdAt), uniqueIndex('enquiries_idempotency_key_idx').on(t.idempotencyKey)],
);

export const catalogueKind = schema.enum('catalogue_kind', ['accessory', 'special']);

/** The shop's cards and specials. Prices in cents; the seed is a migration, so every environment has the same shop. */
export const catalogueItems = schema.table('catalogue_items', {
  id: text('id').primaryKey(),
  kind: catalogueKind('kind').notNull(),
  path: text('path').notNull(),
  name: text('name').notNull(),
  normalPrice: integer('normal_price').notNull(),
  specialPrice: integer('special_price'),
  catImage: text('cat_image').notNull(),
  images: jsonb('images').$type<Array<{ image: string; alt: string }>>().notNull(),
  heading: text('heading').notNull(),
  benefits: jsonb('benefits').$type<string[]>().notNull(),
  cta: text('cta').notNull(),
  dimensions: text('dimensions').notNull(),
  temp: text('temp').notNull(),
  storeTemp: text('store_temp').notNull(),
  years: text('years').notNull(),
  weight: text('weight').notNull(),
  printing: text('printing').notNull(),
  readRange: text('read_range').notNull(),
  material: text('material').notNull(),
  colors: jsonb('colors').$type<string[]>().notNull(),
  moreInfo: text('more_info').notNull(),
  includedGoldMonths: integer('included_gold_months').notNull().default(0),
  sortOrder: integer('sort_order').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const orderStatus = schema.enum('order_status', OrderStatuses);

/**
 * Orders from the basket, priced from `catalogue_items` when placed (never from the browser). `reference` is the
 * short code the buyer sees (receipt, PayFast's m_payment_id): unique, from an alphabet without look-alikes.
 */
export const orders = schema.table(
  'orders',
  {
    id: uuid('id').primaryKey(),
    reference: text('reference').notNull().unique('orders_reference_key'),
    accountId: uuid('account_id').notNull(),
    status: orderStatus('status').notNull().default('awaiting-payment'),
    totalCents: integer('total_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    /** Set when the print team ships the order. */
    courier: text('courier'),
    trackingNumber: text('tracking_number'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_account_created_idx').on(t.accountId, t.createdAt),
    index('orders_status_idx').on(t.status),
    check('orders_total_cents_check', sql`${t.totalCents} >= 0`),
    // Every state after payment keeps when it was paid; an unpaid order has no paid_at (a cancelled one may have either).
    // Written with ::text: the states added by a migration cannot be used as enum values in that same transaction.
    check(
      'orders_paid_at_check',
      sql`CASE WHEN ${t.status}::text = 'awaiting-payment' THEN ${t.paidAt} IS NULL WHEN ${t.status}::text = 'cancelled' THEN true ELSE ${t.paidAt} IS NOT NULL END`,
    ),
    check('orders_shipment_check', sql`(${t.courier} IS NULL) = (${t.trackingNumber} IS NULL)`),
  ],
);

/** One line per item of an order, as priced when it was placed (a later price change leaves it as it was). */
export const orderLines = schema.table(
  'order_lines',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    itemId: text('item_id').notNull(),
    /** The item's catalogue kind when the order was placed: a special is paid as the special offer. */
    kind: catalogueKind('kind').notNull().default('accessory'),
    name: text('name').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    lineTotalCents: integer('line_total_cents').notNull(),
    includedGoldMonths: integer('included_gold_months').notNull().default(0),
    /** The colour the buyer chose, one of the item's `colors` (lines from before colours: the item's first). */
    colour: text('colour').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.position], name: 'order_lines_pkey' }),
    check('order_lines_quantity_check', sql`${t.quantity} >= 1`),
    check('order_lines_total_check', sql`${t.lineTotalCents} = ${t.quantity} * ${t.unitPriceCents}`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const orderActor = schema.enum('order_actor', OrderActors);

/** Every move of an order: from, to, who (the account, null for the system), when, and the note. */
export const orderHistory = schema.table(
  'order_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: orderStatus('from_status'),
    toStatus: orderStatus('to_status').notNull(),
    actor: orderActor('actor').notNull(),
    actorAccountId: uuid('actor_account_id'),
    note: text('note'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('order_history_order_idx').on(t.orderId, t.id)],
);

export const proofStatus = schema.enum('proof_status', ProofStatuses);

/**
 * The order's current print proof: the PDF for the printer and a PNG preview for the browser, kept here (small:
 * tens of kB) so every replica reads the same bytes. A render again replaces them and raises `version`.
 */
export const proofs = schema.table('proofs', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  status: proofStatus('status').notNull().default('rendering'),
  version: integer('version').notNull().default(0),
  attempts: integer('attempts').notNull().default(0),
  error: text('error'),
  pdf: bytea('pdf'),
  png: bytea('png'),
  renderedAt: timestamp('rendered_at', { withTimezone: true, mode: 'date' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const material = schema.enum('material', Materials);

/** One row per physical card of a paid order: its serial (for `/c/{serial}`), what it is made of, its NFC chip. */
export const cards = schema.table(
  'cards',
  {
    serial: text('serial').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    position: integer('position').notNull(),
    itemId: text('item_id').notNull(),
    material: material('material').notNull(),
    colour: text('colour').notNull(),
    nfcUid: text('nfc_uid'),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    /** The team rep the card points at instead of its buyer (`account_id`); null: the buyer's own page. */
    assignedAccountId: uuid('assigned_account_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cards_order_position_key').on(t.orderId, t.position),
    uniqueIndex('cards_nfc_uid_key').on(t.nfcUid),
    index('cards_account_idx').on(t.accountId),
  ],
);

/**
 * What orders knows of a buyer's profile (from profiles, over NATS when a proof renders, and from
 * `profiles.profile.updated`): the username `/c/{serial}` redirects to and the name on the packing slip.
 */
export const customers = schema.table('customers', {
  accountId: uuid('account_id').primaryKey(),
  username: text('username').notNull(),
  name: text('name').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Every reassignment of a card (issue 10 "Card lifecycle"): who it pointed at before and after (null: the buyer), who
 * moved it (null: the service, when the rep it pointed at left the team), and when. Kept as the card's history.
 */
export const cardAssignments = schema.table(
  'card_assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serial: text('serial')
      .notNull()
      .references(() => cards.serial, { onDelete: 'cascade' }),
    fromAccountId: uuid('from_account_id'),
    toAccountId: uuid('to_account_id'),
    byAccountId: uuid('by_account_id'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('card_assignments_serial_idx').on(t.serial, t.at)],
);

/**
 * Who leads whom, as the teams service says (`teams.member.added` / `.removed`): a card can only be pointed at the
 * leader's current reps, and only the leader of a card's buyer may move it. A removed rep's row stays, marked.
 */
export const teamMembers = schema.table(
  'team_members',
  {
    memberAccountId: uuid('member_account_id').primaryKey(),
    leaderAccountId: uuid('leader_account_id').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('team_members_leader_idx').on(t.leaderAccountId)],
);
