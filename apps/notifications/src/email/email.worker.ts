import { DelayedError, Worker, type Job } from 'bullmq';
import { errorCodeOf, isConnectionError } from '@digicard/db';
import { DefaultJobOptions, EmailJobSchema, QueueName, SECRET_TEMPLATES, jobIdFor, type EmailJob } from '@digicard/contracts';
import { SpanKind, withSpan } from '@digicard/config';
import { IntervalTask, continueJobTrace, openQueueProducer, retry, workerConnection, type ServiceContext } from '@digicard/server';
import { messageIdFor, type Config } from '../config.js';
import { EmailQueue } from './email.producer.js';
import { MailLogRepository } from './mail-log.repository.js';
import { openSmtpTransport } from './smtp-transport.js';
import { renderEmail, type Brand } from './templates.js';

export type EmailJobResult = { status: 'sent'; messageId: string } | { status: 'already-sent' };

/**
 * Runs a write again while the database cannot be reached (a restart, a failover), for up to `forMs`: for what
 * must be recorded because it already happened outside (an email sent).
 */
function untilWritten(
  write: () => Promise<unknown>,
  logger: ServiceContext<Config>['logger'],
  jobId: string,
  forMs = 120_000,
): Promise<unknown> {
  return retry(write, {
    forMs,
    retryOn: isConnectionError,
    onRetry: (error, attempt) => {
      if (attempt === 1) logger.warn({ jobId, code: errorCodeOf(error) }, 'email sent but its record waits for the database');
    },
  });
}

/**
 * Opens the `email` queue's producer (email.producer.ts) and its worker on the service's Redis; both close at shutdown.
 * The worker renders each job, sends it over SMTP and records it in the mail log (through its repository).
 */
export function openEmailQueue(ctx: ServiceContext<Config>): { queue: EmailQueue; start(): Worker } {
  const { config, logger, db } = ctx;
  // The producer fails fast while Redis is away (the worker's connection waits for it instead).
  const producer = openQueueProducer<EmailJob>(ctx, QueueName.Email, {
    prefix: config.QUEUE_PREFIX,
    timeoutMs: config.QUEUE_ADD_TIMEOUT_MS,
    defaultJobOptions: DefaultJobOptions,
  });
  const transport = openSmtpTransport(ctx);
  const log = new MailLogRepository();
  const brand: Brand = {
    name: config.BRAND_NAME,
    publicUrl: config.PUBLIC_URL,
    salesInbox: config.SALES_INBOX,
    vatNumber: config.VAT_NUMBER ?? null,
  };

  const leaseMs = config.EMAIL_SEND_LEASE_MS;
  /** Puts the job back for later without spending one of its attempts (another attempt holds the email's lease). */
  const postpone = async (job: Job, token: string | undefined, until: number): Promise<never> => {
    await job.moveToDelayed(Math.max(until, Date.now() + 200), token);
    throw new DelayedError();
  };

  /**
   * One email, sent at most once per lease: the attempt first claims its mail-log row (`sending`, leased), sends with
   * the job's own Message-ID, then records `sent`. A retry finds `sent` and stops; finds a live lease and waits for
   * it; finds a lease run out (an attempt cut short between claim and record, which may have reached SMTP) and sends
   * again, with the same Message-ID. A copy can therefore reach the mailbox only if the worker dies (or loses its
   * database for longer than `untilWritten` waits) after SMTP accepted the email and before `sent` is written.
   */
  const process = async (job: Job, token?: string): Promise<EmailJobResult> => {
    const data = EmailJobSchema.parse(job.data);
    const jobId = job.id ?? jobIdFor(data.template, data.sourceEventId);
    const messageId = messageIdFor(jobId, config.MAIL_FROM);
    const logged = await log.byJobId(db, jobId);
    if (logged?.status === 'sent') return { status: 'already-sent' };
    if (logged?.status === 'sending' && logged.leaseUntil && logged.leaseUntil.getTime() > Date.now()) {
      return postpone(job, token, logged.leaseUntil.getTime() + 100);
    }
    const email = renderEmail(data, brand);
    // The claim: a new row, or a failed one, or one whose lease ran out; never one another attempt holds or sent.
    const claimed = await log.claim(
      db,
      {
        jobId,
        template: data.template,
        recipient: email.to,
        subject: email.subject,
        smtpMessageId: messageId,
        job: SECRET_TEMPLATES.has(data.template) ? null : data,
      },
      leaseMs,
    );
    if (!claimed) return postpone(job, token, Date.now() + Math.min(leaseMs, 1000)); // taken meanwhile: look again
    if (logged?.status === 'sending') {
      logger.warn({ jobId, messageId }, 'an attempt cut short may have reached SMTP; sending again with the same Message-ID');
    }
    try {
      await withSpan('smtp send', { kind: SpanKind.CLIENT, attributes: { 'digicard.email.template': data.template } }, () =>
        transport.sendMail({ from: config.MAIL_FROM, ...email, messageId }),
      );
    } catch (error) {
      await log.markFailed(db, jobId, String((error as Error)?.message ?? error), new Date());
      throw error;
    }
    // The email is out: its record must be written even if the database is away for a while, or the next attempt
    // (once the lease is over) would send it a second time.
    const sentAt = new Date();
    await untilWritten(() => log.markSent(db, jobId, sentAt), logger, jobId);
    logger.info({ jobId, template: data.template, attempts: claimed.attempts }, 'email sent');
    return { status: 'sent', messageId };
  };

  const queue = new EmailQueue(producer, db, log, (job) => renderEmail(job, brand));
  // Emails owed whose job Redis no longer has (it was lost or flushed) are queued again from the mail log.
  const requeue = new IntervalTask(
    'email requeue',
    config.EMAIL_REQUEUE_INTERVAL_MS,
    async () => {
      const queued = await queue.requeueOwed(new Date(Date.now() - config.QUEUE_ADD_TIMEOUT_MS));
      if (queued > 0) logger.info({ queued }, 'emails owed queued again from the mail log');
    },
    logger,
  );
  ctx.onShutdown(() => requeue.stop());

  return {
    queue,
    start() {
      requeue.start();
      const connection = workerConnection(config);
      const worker = new Worker(QueueName.Email, (job: Job, token?: string) => continueJobTrace(job, () => process(job, token)), {
        connection,
        prefix: config.QUEUE_PREFIX,
        concurrency: config.EMAIL_CONCURRENCY,
        lockDuration: config.EMAIL_JOB_LOCK_MS,
        stalledInterval: config.EMAIL_JOB_LOCK_MS,
      });
      worker.on('failed', (job, error) =>
        logger.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'email job failed; BullMQ retries it'),
      );
      worker.on('error', (error) => logger.error({ err: error }, 'email worker error'));
      ctx.onShutdown(async () => {
        await worker.close();
        // BullMQ closes only the connections it opened itself.
        await connection.quit().catch(() => undefined);
      });
      return worker;
    },
  };
}
