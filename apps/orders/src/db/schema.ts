import { index, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The orders service's schema: catalogue, orders, proofs and the sales enquiries from the marketing site. */
export const schema = pgSchema('orders');
export const { outbox, processedMessages } = messagingTables(schema);

export const enquiryKind = schema.enum('enquiry_kind', ['call-back', 'message']);

export const enquiries = schema.table(
  'enquiries',
  {
    id: uuid('id').primaryKey(),
    kind: enquiryKind('kind').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    message: text('message'),
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
