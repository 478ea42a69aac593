import { sql } from 'drizzle-orm';
import { index, jsonb, primaryKey, text, timestamp, uuid, integer, type pgSchema } from 'drizzle-orm/pg-core';

type PgSchema = ReturnType<typeof pgSchema>;

/**
 * The two tables every service keeps in its own schema: the transactional outbox (events written in the same
 * transaction as the state change) and the ids of the messages its consumers have handled.
 */
export function messagingTables(schema: PgSchema) {
  const outbox = schema.table(
    'outbox',
    {
      id: uuid('id').primaryKey(),
      subject: text('subject').notNull(),
      payload: jsonb('payload').notNull(),
      createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
      sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
      attempts: integer('attempts').notNull().default(0),
      lastError: text('last_error'),
      /** The W3C `traceparent` of the span that recorded the event: the relay publishes it as a header. */
      traceParent: text('trace_parent'),
    },
    (t) => [
      index('outbox_unsent_idx')
        .on(t.createdAt)
        .where(sql`sent_at IS NULL`),
    ],
  );
  const processedMessages = schema.table(
    'processed_messages',
    {
      consumer: text('consumer').notNull(),
      messageId: text('message_id').notNull(),
      processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    },
    (t) => [primaryKey({ columns: [t.consumer, t.messageId] })],
  );
  return { outbox, processedMessages };
}

export type MessagingTables = ReturnType<typeof messagingTables>;
export type OutboxTable = MessagingTables['outbox'];
export type ProcessedMessagesTable = MessagingTables['processedMessages'];
