import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The notifications service's schema: every email it sent or tried to send. */
export const schema = pgSchema('notifications');
export const { outbox, processedMessages } = messagingTables(schema);

/**
 * `queued`: its event was handled and its job added (the job's payload is kept in `job` until it is sent);
 * `sending`: an attempt claimed the email (until `lease_until`) and may be talking to SMTP; `sent`: SMTP accepted it;
 * `failed`: the last attempt got an error (BullMQ tries again).
 */
export const mailStatus = schema.enum('mail_status', ['queued', 'sending', 'sent', 'failed']);

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
    /** The Message-ID header, derived from the job id: every attempt of one email carries the same one. */
    smtpMessageId: text('smtp_message_id'),
    /** While `sending`: no other attempt may send before this time (see `EMAIL_SEND_LEASE_MS`). */
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    /**
     * The job (its payload) until the email is sent, so that it can be queued again from here when Redis lost it.
     * Null for emails that carry a secret link (never stored here) and once sent.
     */
    job: jsonb('job'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mail_log_job_id_idx').on(t.jobId),
    index('mail_log_owed_idx')
      .on(t.updatedAt)
      .where(sql`status <> 'sent' AND job IS NOT NULL`),
  ],
);

/** CRM hand-off: one webhook endpoint per owner (DigiGold and up), its secret made here and shown to the owner. */
export const webhookEndpoints = schema.table('webhook_endpoints', {
  accountId: uuid('account_id').primaryKey(),
  url: text('url').notNull(),
  /** HMAC-SHA256 key of the signatures (`whsec_` + 32 random bytes in base64url). */
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** Set when we turned it off (the endpoint answered 410 Gone); cleared by the owner's next save. */
  disabledReason: text('disabled_reason'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const webhookDeliveryStatus = schema.enum('webhook_delivery_status', ['pending', 'succeeded', 'failed']);

/** One lead (or test) to post: the exact body is kept so every retry sends the same bytes. */
export const webhookDeliveries = schema.table(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    /** The `profiles.lead.captured` event's id (or a test's own id): one delivery per event. */
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    url: text('url').notNull(),
    body: text('body').notNull(),
    summary: text('summary').notNull(),
    status: webhookDeliveryStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_id_idx').on(t.eventId),
    index('webhook_deliveries_account_idx').on(t.accountId, t.createdAt),
    // The requeue sweep (`WebhookDeliveriesRepository.owedDeliveries`, every minute on every replica) reads only the pending
    // rows, oldest due first: a partial index keeps that read small however many deliveries are done.
    index('webhook_deliveries_owed_idx')
      .on(sql`coalesce(${t.nextAttemptAt}, ${t.updatedAt})`)
      .where(sql`status = 'pending'`),
  ],
);

/** Every attempt of a delivery: when, the HTTP status or the network error, how long, a short excerpt of the answer. */
export const webhookAttempts = schema.table(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    responseExcerpt: text('response_excerpt'),
  },
  (t) => [uniqueIndex('webhook_attempts_delivery_attempt_idx').on(t.deliveryId, t.attempt)],
);
