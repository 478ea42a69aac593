import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { redisConnectionOptions } from '@digicard/config';
import nodemailer from 'nodemailer';
import { eq } from 'drizzle-orm';
import { errorCodeOf, isConnectionError } from '@digicard/db';
import { DefaultJobOptions, EmailJobSchema, QueueName, SECRET_TEMPLATES, jobIdFor, type EmailJob } from '@digicard/contracts';
import { openQueueProducer, retry, type EventContext, type QueueProducer, type ServiceContext } from '@digicard/server';
import { smtpOptions, type Config } from '../config.js';
import { mailLog } from '../db/schema.js';
import { renderEmail, type Brand } from './templates.js';

export type EmailJobResult = { status: 'sent'; messageId: string } | { status: 'already-sent' };

export { QueueUnavailableError } from '@digicard/server';

/**
 * The `email` queue's producer: one job per email, its id derived from the cause. An add fails within the producer's
 * time-out when Redis is away (see `QueueProducer`); a late add is harmless (same job id). An event handler queues
 * after its transaction commits (`queueAfterCommit`), never inside it.
 */
export class EmailQueue {
  constructor(private readonly producer: QueueProducer<EmailJob>) {}

  async enqueue(job: EmailJob): Promise<void> {
    const data = EmailJobSchema.parse(job);
    const secret = SECRET_TEMPLATES.has(data.template);
    await this.producer.add(data.template, data, {
      jobId: jobIdFor(data.template, data.sourceEventId),
      // A job whose link is a key to the account leaves Redis as soon as it is done; the mail log remembers it.
      ...(secret ? { removeOnComplete: true, removeOnFail: true } : {}),
    });
  }

  /** From an event handler: the job is checked now and queued once the handler's transaction has committed. */
  queueAfterCommit(afterCommit: EventContext['afterCommit'], job: EmailJob): void {
    const data = EmailJobSchema.parse(job);
    afterCommit(() => this.enqueue(data));
  }
}

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

/** Opens the queue and its worker on the service's Redis; both close at shutdown. */
export function openEmailQueue(ctx: ServiceContext<Config>): { queue: EmailQueue; start(): Worker } {
  const { config, logger, db } = ctx;
  const connection = () => new Redis({ ...redisConnectionOptions(config), maxRetriesPerRequest: null, enableReadyCheck: true });
  // The producer fails fast while Redis is away (the worker's connection waits for it instead).
  const producer = openQueueProducer<EmailJob>(ctx, QueueName.Email, {
    prefix: config.QUEUE_PREFIX,
    timeoutMs: config.QUEUE_ADD_TIMEOUT_MS,
    defaultJobOptions: DefaultJobOptions,
  });
  const transport = nodemailer.createTransport(smtpOptions(config));
  const brand: Brand = {
    name: config.BRAND_NAME,
    publicUrl: config.PUBLIC_URL,
    salesInbox: config.SALES_INBOX,
    vatNumber: config.VAT_NUMBER ?? null,
  };

  const process = async (job: Job): Promise<EmailJobResult> => {
    const data = EmailJobSchema.parse(job.data);
    const jobId = job.id ?? jobIdFor(data.template, data.sourceEventId);
    const [logged] = await db.select().from(mailLog).where(eq(mailLog.jobId, jobId)).limit(1);
    if (logged?.status === 'sent') return { status: 'already-sent' };
    const email = renderEmail(data, brand);
    try {
      const info = (await transport.sendMail({ from: config.MAIL_FROM, ...email })) as { messageId: string };
      const values = {
        jobId,
        template: data.template,
        recipient: email.to,
        subject: email.subject,
        status: 'sent' as const,
        attempts: job.attemptsMade + 1,
        smtpMessageId: info.messageId,
        error: null,
        updatedAt: new Date(),
      };
      // The email is out: its record must be written even if the database is away for a while, or a retry of the
      // job would send it a second time.
      await untilWritten(() => db.insert(mailLog).values(values).onConflictDoUpdate({ target: mailLog.jobId, set: values }), logger, jobId);
      logger.info({ jobId, template: data.template }, 'email sent');
      return { status: 'sent', messageId: info.messageId };
    } catch (error) {
      const values = {
        jobId,
        template: data.template,
        recipient: email.to,
        subject: email.subject,
        status: 'failed' as const,
        attempts: job.attemptsMade + 1,
        error: String((error as Error)?.message ?? error),
        updatedAt: new Date(),
      };
      await db.insert(mailLog).values(values).onConflictDoUpdate({ target: mailLog.jobId, set: values });
      throw error;
    }
  };

  ctx.onShutdown(() => {
    transport.close();
    return Promise.resolve();
  });

  return {
    queue: new EmailQueue(producer),
    start() {
      const workerConnection = connection();
      const worker = new Worker(QueueName.Email, process, {
        connection: workerConnection,
        prefix: config.QUEUE_PREFIX,
        concurrency: config.EMAIL_CONCURRENCY,
      });
      worker.on('failed', (job, error) =>
        logger.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'email job failed; BullMQ retries it'),
      );
      worker.on('error', (error) => logger.error({ err: error }, 'email worker error'));
      ctx.onShutdown(async () => {
        await worker.close();
        // BullMQ closes only the connections it opened itself.
        await workerConnection.quit().catch(() => undefined);
      });
      return worker;
    },
  };
}
