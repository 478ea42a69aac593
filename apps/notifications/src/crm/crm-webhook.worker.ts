import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { CrmWebhookJobSchema, CrmWebhookRetryDelaysMs, QueueName, WebhookHeaders } from '@digicard/contracts';
import { IntervalTask, continueJobTrace, openQueueProducer, retry, workerConnection, type ServiceContext } from '@digicard/server';
import { allowsLocalWebhooks, type Config } from '../config.js';
import { checkWebhookTarget, WebhookAddressRefused } from './address-policy.js';
import { signatureHeader } from './signature.js';
import { postWebhook, type PostOutcome } from './webhook-post.js';
import { CrmWebhookQueue, type CrmWebhookJob } from './crm-webhook.producer.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

export type CrmWebhookResult = { status: 'delivered'; statusCode: number } | { status: 'already-done' } | { status: 'endpoint-off' };

class DeliveryNotRecorded extends Error {}

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
  const deliveries = new WebhookDeliveriesRepository();
  const endpoints = new WebhookEndpointsRepository();
  const producer = openQueueProducer<CrmWebhookJob>(ctx, QueueName.CrmWebhook, {
    prefix: config.QUEUE_PREFIX,
    timeoutMs: config.QUEUE_ADD_TIMEOUT_MS,
    defaultJobOptions: { removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 }, removeOnFail: { age: 30 * 24 * 3600 } },
  });

  const process = async (job: Job): Promise<CrmWebhookResult> => {
    const { deliveryId } = CrmWebhookJobSchema.parse(job.data);
    // The job is queued once the transaction that records the delivery has committed; a moment's wait covers a race.
    const delivery = await retry(
      async () => {
        const found = await deliveries.deliveryById(db, deliveryId);
        if (!found) throw new DeliveryNotRecorded('the delivery is not recorded (yet)');
        return found;
      },
      // Rolled back, or slower than that: BullMQ tries again later (a redelivered event queues the same job id).
      { attempts: 51, delayMs: () => 100, retryOn: (error) => error instanceof DeliveryNotRecorded },
    );
    if (delivery.status !== 'pending') return { status: 'already-done' };
    const endpoint = await endpoints.endpointOf(db, delivery.accountId);
    if (!endpoint || !endpoint.enabled) {
      await deliveries.endDelivery(db, delivery.id, 'The webhook was turned off before this was sent.', new Date());
      return { status: 'endpoint-off' };
    }
    // Attempts are numbered by what was logged (a run that found no delivery yet is no attempt).
    const attempt = (await deliveries.attemptCount(db, delivery.id)) + 1;
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
    await deliveries.recordAttempt(
      db,
      {
        deliveryId: delivery.id,
        attempt,
        at,
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs: outcome.durationMs,
        responseExcerpt: outcome.excerpt,
      },
      { status, nextAttemptAt: status === 'pending' ? new Date(Date.now() + wait) : null },
    );
    logger.info({ jobId: job.id, deliveryId: delivery.id, attempt, statusCode: outcome.statusCode, status }, 'crm webhook attempt');
    if (ok) return { status: 'delivered', statusCode: outcome.statusCode! };
    if (gone) {
      await endpoints.disableEndpoint(
        db,
        delivery.accountId,
        'Your CRM answered 410 Gone, so we turned the webhook off. Save it again to turn it back on.',
        new Date(),
      );
      throw new UnrecoverableError('the endpoint answered 410 Gone: turned off');
    }
    throw new Error(outcome.error ?? `the endpoint answered HTTP ${outcome.statusCode}`);
  };

  const queue = new CrmWebhookQueue(producer, attempts, db, deliveries);
  // Deliveries owed whose job Redis no longer has (lost or flushed) are queued again from PostgreSQL.
  const requeue = new IntervalTask(
    'crm webhook requeue',
    config.CRM_WEBHOOK_REQUEUE_INTERVAL_MS,
    async () => {
      const queued = await queue.requeueOwed(new Date(Date.now() - config.CRM_WEBHOOK_TIMEOUT_MS - config.QUEUE_ADD_TIMEOUT_MS));
      if (queued > 0) logger.info({ queued }, 'crm webhook deliveries owed queued again');
    },
    logger,
  );
  ctx.onShutdown(() => requeue.stop());

  return {
    queue,
    start() {
      requeue.start();
      const connection = workerConnection(config);
      const worker = new Worker(QueueName.CrmWebhook, (job: Job) => continueJobTrace(job, () => process(job)), {
        connection,
        prefix: config.QUEUE_PREFIX,
        concurrency: config.CRM_WEBHOOK_CONCURRENCY,
        settings: { backoffStrategy: (attemptsMade: number) => delays[Math.min(Math.max(attemptsMade, 1) - 1, delays.length - 1)] ?? 0 },
      });
      worker.on('failed', (job, error) =>
        logger.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'crm webhook attempt failed'),
      );
      worker.on('error', (error) => logger.error({ err: error }, 'crm-webhook worker error'));
      ctx.onShutdown(async () => {
        await worker.close();
        await connection.quit().catch(() => undefined);
      });
      return worker;
    },
  };
}
