import { check, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { OrderStatuses } from '@digicard/contracts';
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
  },
  (t) => [index('enquiries_created_at_idx').on(t.createdAt)],
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
  },
  (t) => [
    index('orders_account_created_idx').on(t.accountId, t.createdAt),
    check('orders_total_cents_check', sql`${t.totalCents} >= 0`),
    check('orders_paid_at_check', sql`(${t.status} = 'paid') = (${t.paidAt} IS NOT NULL)`),
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
    name: text('name').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    lineTotalCents: integer('line_total_cents').notNull(),
    includedGoldMonths: integer('included_gold_months').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.position], name: 'order_lines_pkey' }),
    check('order_lines_quantity_check', sql`${t.quantity} >= 1`),
    check('order_lines_total_check', sql`${t.lineTotalCents} = ${t.quantity} * ${t.unitPriceCents}`),
  ],
);
