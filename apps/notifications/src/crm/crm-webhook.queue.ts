import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { CrmWebhookJobSchema, CrmWebhookRetryDelaysMs, QueueName, WebhookHeaders, crmWebhookJobId } from '@digicard/contracts';
import type { ServiceContext } from '@digicard/server';
import { allowsLocalWebhooks, type Config } from '../config.js';
import { QueueUnavailableError } from '../email/email.queue.js';
import { checkWebhookTarget, WebhookAddressRefused } from './address-policy.js';
import { signatureHeader } from './signature.js';
import { postWebhook, type PostOutcome } from './webhook-post.js';
import { WebhooksRepository } from './webhooks.repository.js';

export type CrmWebhookResult = { status: 'delivered'; statusCode: number } | { status: 'already-done' } | { status: 'endpoint-off' };

/** The `crm-webhook` queue's producer: one job per delivery, its id derived from the lead's event (or the test's id). */
export class CrmWebhookQueue {
  constructor(
    private readonly queue: Queue,
    private readonly attempts: number,
    private readonly timeoutMs = 5000,
  ) {}

  async enqueue(eventId: string, deliveryId: string): Promise<void> {
    const data = CrmWebhookJobSchema.parse({ deliveryId });
    const added = this.queue.add('deliver', data, { jobId: crmWebhookJobId(eventId), attempts: this.attempts, backoff: { type: 'crm-schedule' } });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        added,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new QueueUnavailableError(`the crm-webhook queue did not take the job within ${this.timeoutMs} ms`)), this.timeoutMs);
        }),
      ]);
    } catch (error) {
      added.catch(() => undefined);
      if (error instanceof QueueUnavailableError) throw error;
      throw new QueueUnavailableError('the crm-webhook queue is unavailable', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}

const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * Opens the `crm-webhook` queue and its worker. Each attempt: the endpoint's current address is checked again (https,
 * public addresses only, unless CRM_WEBHOOK_ALLOW_LOCAL) and the check's address is the one connected to; the stored
 * body is signed with a fresh timestamp; the attempt is logged. A 2xx ends it; 410 Gone turns the endpoint off and
 * ends it; anything else is retried on the schedule (about 24 h), then the delivery is failed.
 */
export function openCrmWebhookQueue(ctx: ServiceContext<Config>): { queue: CrmWebhookQueue; start(): Worker } {
  const { config, logger, db } = ctx;
  const delays = config.CRM_WEBHOOK_RETRY_DELAYS_MS ?? [...CrmWebhookRetryDelaysMs];
  const attempts = delays.length + 1;
  const allowLocal = allowsLocalWebhooks(config);
  const repository = new WebhooksRepository();
  const producerConnection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableReadyCheck: true, enableOfflineQueue: false });
  producerConnection.on('error', () => undefined);
  const queue = new Queue(QueueName.CrmWebhook, {
    connection: producerConnection,
    prefix: config.QUEUE_PREFIX,
    defaultJobOptions: { removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 }, removeOnFail: { age: 30 * 24 * 3600 } },
  });
  queue.on('error', (error: Error) => logger.debug({ errorName: error.name }, 'crm-webhook queue: Redis error'));

  const process = async (job: Job): Promise<CrmWebhookResult> => {
    const { deliveryId } = CrmWebhookJobSchema.parse(job.data);
    // The job is queued inside the transaction that records the delivery, so it may run a moment before that commits.
    let delivery = await repository.deliveryById(db, deliveryId);
    for (let wait = 0; !delivery && wait < 50; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      delivery = await repository.deliveryById(db, deliveryId);
    }
    // Rolled back, or slower than that: BullMQ tries again later (a redelivered event queues the same job id).
    if (!delivery) throw new Error('the delivery is not recorded (yet)');
    if (delivery.status !== 'pending') return { status: 'already-done' };
    const endpoint = await repository.endpointOf(db, delivery.accountId);
    if (!endpoint || !endpoint.enabled) {
      await repository.endDelivery(db, delivery.id, 'The webhook was turned off before this was sent.', new Date());
      return { status: 'endpoint-off' };
    }
    // Attempts are numbered by what was logged (a run that found no delivery yet is no attempt).
    const attempt = (await repository.attemptCount(db, delivery.id)) + 1;
    const last = attempt >= attempts || job.attemptsMade + 1 >= (job.opts.attempts ?? attempts);
    const at = new Date();
    let outcome: PostOutcome;
    try {
      const target = await checkWebhookTarget(endpoint.url, allowLocal);
      const timestamp = Math.floor(Date.now() / 1000);
      outcome = await postWebhook(
        target,
        {
          [WebhookHeaders.signature]: signatureHeader(endpoint.secret, timestamp, delivery.body),
          [WebhookHeaders.eventId]: delivery.eventId,
          [WebhookHeaders.eventType]: delivery.type,
        },
        delivery.body,
        config.CRM_WEBHOOK_TIMEOUT_MS,
      );
    } catch (error) {
      if (!(error instanceof WebhookAddressRefused)) throw error;
      outcome = { statusCode: null, error: `Not sent: ${error.message}`, durationMs: 0, excerpt: null };
    }
    const ok = is2xx(outcome.statusCode);
    const gone = outcome.statusCode === 410;
    const status = ok ? 'succeeded' : gone || last ? 'failed' : 'pending';
    const wait = delays[Math.min(attempt - 1, delays.length - 1)] ?? 0;
    await repository.recordAttempt(
      db,
      { deliveryId: delivery.id, attempt, at, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs, responseExcerpt: outcome.excerpt },
      { status, nextAttemptAt: status === 'pending' ? new Date(Date.now() + wait) : null },
    );
    logger.info({ jobId: job.id, deliveryId: delivery.id, attempt, statusCode: outcome.statusCode, status }, 'crm webhook attempt');
    if (ok) return { status: 'delivered', statusCode: outcome.statusCode! };
    if (gone) {
      await repository.disableEndpoint(db, delivery.accountId, 'Your CRM answered 410 Gone, so we turned the webhook off. Save it again to turn it back on.', new Date());
      throw new UnrecoverableError('the endpoint answered 410 Gone: turned off');
    }
    throw new Error(outcome.error ?? `the endpoint answered HTTP ${outcome.statusCode}`);
  };

  ctx.onShutdown(async () => {
    await queue.close();
    await producerConnection.quit().catch(() => undefined);
  });

  return {
    queue: new CrmWebhookQueue(queue, attempts, config.QUEUE_ADD_TIMEOUT_MS),
    start() {
      const workerConnection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, enableReadyCheck: true });
      const worker = new Worker(QueueName.CrmWebhook, process, {
        connection: workerConnection,
        prefix: config.QUEUE_PREFIX,
        concurrency: config.CRM_WEBHOOK_CONCURRENCY,
        settings: { backoffStrategy: (attemptsMade: number) => delays[Math.min(Math.max(attemptsMade, 1) - 1, delays.length - 1)] ?? 0 },
      });
      worker.on('failed', (job, error) => logger.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'crm webhook attempt failed'));
      worker.on('error', (error) => logger.error({ err: error }, 'crm-webhook worker error'));
      ctx.onShutdown(async () => {
        await worker.close();
        await workerConnection.quit().catch(() => undefined);
      });
      return worker;
    },
  };
}
