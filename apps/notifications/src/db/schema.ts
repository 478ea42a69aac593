import { pgSchema, text, timestamp, uuid, integer, uniqueIndex } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The notifications service's schema: every email it sent or tried to send. */
export const schema = pgSchema('notifications');
export const { outbox, processedMessages } = messagingTables(schema);

export const mailStatus = schema.enum('mail_status', ['sent', 'failed']);

export const mailLog = schema.table(
  'mail_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: text('job_id').notNull(),
    template: text('template').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    status: mailStatus('status').notNull(),
    attempts: integer('attempts').notNull().default(1),
    smtpMessageId: text('smtp_message_id'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mail_log_job_id_idx').on(t.jobId)],
);
