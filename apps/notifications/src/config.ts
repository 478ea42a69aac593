import { z } from 'zod';
import { env, redisEnvShape, serviceEnvShape } from '@digicard/config';

export const ConfigSchema = z.object({
  ...serviceEnvShape,
  HEALTH_PORT: env.port(8106),
  ...redisEnvShape,
  QUEUE_PREFIX: env.queuePrefix,
  SMTP_URL: env.smtpUrl,
  /**
   * STARTTLS required on `smtp://` (nodemailer's `requireTLS`: no mail, with its links and tokens, in clear text).
   * Unset: required when NODE_ENV is production, not in development and tests (the mail catcher speaks plain SMTP).
   * `false` in production only for a mail catcher inside the same network (docker-compose, the k8s dev overlay).
   */
  SMTP_REQUIRE_TLS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  MAIL_FROM: z.string({ error: 'required, e.g. "DigiCard <no-reply@digicard.co.za>"' }).min(3),
  SALES_INBOX: env.email,
  BRAND_NAME: z.string().min(1).default('DigiCard'),
  PUBLIC_URL: env.httpUrl,
  /** The business's VAT number (10 digits, starting with 4): receipts then show the VAT their amounts include. */
  VAT_NUMBER: z
    .string()
    .regex(/^4\d{9}$/, 'must be a South African VAT number: 10 digits starting with 4')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(5),
  /**
   * How long an attempt owns an email it is sending (its `sending` row in the mail log): no other attempt sends it
   * before then. Longer than one SMTP exchange can take (the transport's time-outs are a quarter of it each); an
   * attempt cut short (the worker killed) is followed by the next only once the lease is over.
   */
  EMAIL_SEND_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** How often emails owed are queued again from the mail log (a no-op for jobs Redis still has; after Redis lost them). */
  EMAIL_REQUEUE_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /**
   * How often CRM webhook deliveries still owed and overdue are queued again from PostgreSQL (a no-op for jobs Redis
   * still has; after Redis lost them).
   */
  CRM_WEBHOOK_REQUEUE_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** BullMQ's lock on a running email job (renewed while it runs); a killed worker's jobs run again this long after. */
  EMAIL_JOB_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** How long adding a job may take before it fails: an event handler must not hold its transaction open while Redis is away. */
  QUEUE_ADD_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /**
   * CRM webhooks may use http:// and private or loopback addresses (a CRM on this machine). Unset: allowed when
   * NODE_ENV is development (npm start), refused otherwise; tests that post to a local server set it to true.
   */
  CRM_WEBHOOK_ALLOW_LOCAL: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  /** How long one delivery attempt may take (connect, send, answer) before it counts as failed. */
  CRM_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** The waits between attempts, in ms, comma-separated (tests shorten them); the default spans about 24 hours. */
  CRM_WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'must be a comma-separated list of milliseconds')
    .transform((v) => v.split(',').map(Number))
    .optional(),
  CRM_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(5),
});
export type Config = z.infer<typeof ConfigSchema>;

/**
 * nodemailer's SMTP options from the config: TLS required outside development and tests unless said otherwise, and
 * a pool of open connections, one per job the worker runs at once (`EMAIL_CONCURRENCY`), each carrying up to 100
 * emails before it is replaced. A connection per email cost a TCP connection, the greeting and EHLO (and in
 * production a TLS handshake) each time: about 110 ms of waiting an email per slot against the mail catcher, so
 * 5 slots sent at most some 45 emails a second, and 2.0 ms of the sender's CPU an email against 1.2 pooled
 * (docs/benchmarks.md, "Sending email").
 */
export function smtpOptions(
  config: Pick<Config, 'SMTP_URL' | 'SMTP_REQUIRE_TLS' | 'NODE_ENV' | 'EMAIL_SEND_LEASE_MS' | 'EMAIL_CONCURRENCY'>,
): {
  url: string;
  requireTLS: boolean;
  tls: { minVersion: 'TLSv1.2' };
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
  pool: true;
  maxConnections: number;
  maxMessages: number;
} {
  // Each wait of an SMTP exchange ends well within the send's lease (nodemailer's own defaults run to minutes).
  const step = Math.floor(config.EMAIL_SEND_LEASE_MS / 4);
  return {
    url: config.SMTP_URL,
    requireTLS: config.SMTP_REQUIRE_TLS ?? config.NODE_ENV === 'production',
    tls: { minVersion: 'TLSv1.2' },
    connectionTimeout: step,
    greetingTimeout: step,
    socketTimeout: step,
    pool: true,
    maxConnections: config.EMAIL_CONCURRENCY,
    maxMessages: 100,
  };
}

/** The Message-ID of an email: one per job, the same for every attempt, so copies of one email are recognisably one. */
export function messageIdFor(jobId: string, mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'digicard.invalid';
  return `<${jobId.replace(/[^A-Za-z0-9._-]/g, '-')}@${domain}>`;
}

/** Whether CRM webhooks may point at http:// and private addresses (see CRM_WEBHOOK_ALLOW_LOCAL). */
export const allowsLocalWebhooks = (config: Pick<Config, 'CRM_WEBHOOK_ALLOW_LOCAL' | 'NODE_ENV'>): boolean =>
  config.CRM_WEBHOOK_ALLOW_LOCAL ?? config.NODE_ENV === 'development';
