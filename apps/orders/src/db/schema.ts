import { index, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
