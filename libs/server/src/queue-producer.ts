import { Queue, type DefaultJobOptions, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { contextFrom, currentTraceparent, redisConnectionOptions, SpanKind, withSpan, type RedisEnv } from '@digicard/config';
import { currentTransaction } from '@digicard/db';
import { queueJobs } from './metrics.js';
import type { ServiceContext } from './context.js';

/** Adding a job failed or took too long (Redis is away): nothing was queued for sure; the caller tries again later. */
export class QueueUnavailableError extends Error {
  override name = 'QueueUnavailableError';
}

/** A job was to be queued inside a database transaction: a programming error (queue it after the commit). */
export class EnqueueInTransactionError extends Error {
  override name = 'EnqueueInTransactionError';
}

/** Marks work as inside a database transaction (`@digicard/db`: every transaction of `createDatabase` is marked so). */
export { insideTransaction } from '@digicard/db';

export interface QueueProducerOptions {
  /** BullMQ key prefix (the service's `QUEUE_PREFIX`). */
  prefix: string;
  /** How long an add may take before it is given up as `QueueUnavailableError`. */
  timeoutMs: number;
  defaultJobOptions?: DefaultJobOptions;
  /**
   * How health reports Redis for this queue: a readiness check (`readiness`, the default: the service cannot do its
   * work without it), or an alert only (`alert`: the queue serves an optional feature, and Redis being away must not
   * take the service's replicas out of rotation).
   */
  redisHealth?: 'readiness' | 'alert';
}

/**
 * The one producer side of a BullMQ queue. Its Redis connection queues nothing while disconnected and retries a
 * command once, and every add is bounded by `timeoutMs`: while Redis is away an add fails fast with
 * `QueueUnavailableError`, it never waits for Redis to come back. It refuses to be called inside a database
 * transaction (any transaction of `createDatabase`, or work marked `insideTransaction`): a transaction, or a row lock, held while Redis is slow holds up everyone else,
 * and a job queued before its rows are committed runs against rows that may roll back. Queue after the commit
 * (`EventContext.afterCommit` in an event handler) with a job id derived from the cause, so a second add is harmless.
 */
export class QueueProducer<Data = unknown> {
  constructor(
    readonly queue: Queue,
    private readonly timeoutMs: number,
  ) {}

  get name(): string {
    return this.queue.name;
  }

  async add(name: string, data: Data, options: JobsOptions = {}): Promise<void> {
    const scope = currentTransaction();
    if (scope)
      throw new EnqueueInTransactionError(
        `a ${this.queue.name} job was queued inside a database transaction (${scope.what}): queue it after the commit`,
      );
    // The job carries the trace it was queued in (BullMQ keeps `telemetry.metadata` with the job's options).
    const traceparent = currentTraceparent();
    const added = this.queue.add(name, data, traceparent ? { ...options, telemetry: { metadata: traceparent } } : options);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        added,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new QueueUnavailableError(`the ${this.queue.name} queue did not take the job within ${this.timeoutMs} ms`)),
            this.timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      // A late add is harmless (same job id); its failure after the time-out is not an unhandled rejection.
      added.catch(() => undefined);
      if (error instanceof QueueUnavailableError) throw error;
      throw new QueueUnavailableError(`the ${this.queue.name} queue is unavailable`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Removes a job that is waiting or delayed (not one being worked on); false when there was none to remove. */
  async remove(jobId: string): Promise<boolean> {
    return (await this.queue.remove(jobId)) === 1;
  }
}

/** The Redis connection a queue producer uses: fails fast while Redis is away (a worker's connection waits instead). */
export function producerRedis(target: string | RedisEnv): Redis {
  const where = redisConnectionOptions(typeof target === 'string' ? { REDIS_URL: target } : target);
  const connection = new Redis({ ...where, maxRetriesPerRequest: 1, enableReadyCheck: true, enableOfflineQueue: false });
  // Redis being away is reported by health and by the failing adds; the connection's own errors add nothing.
  connection.on('error', () => undefined);
  return connection;
}

/**
 * Opens the producer of queue `name` on the service's Redis: its connection is checked by health (`redis`), and
 * both close at shutdown.
 */
export function openQueueProducer<Data = unknown>(
  ctx: ServiceContext<RedisEnv>,
  name: string,
  options: QueueProducerOptions,
): QueueProducer<Data> {
  const connection = producerRedis(ctx.config);
  const queue = new Queue(name, {
    connection,
    prefix: options.prefix,
    ...(options.defaultJobOptions ? { defaultJobOptions: options.defaultJobOptions } : {}),
  });
  queue.on('error', (error: Error) => ctx.logger.debug({ errorName: error.name, queue: name }, 'queue producer: Redis error'));
  if (options.redisHealth === 'alert')
    ctx.health.alert(`redis (${name} queue)`, () =>
      connection.ping().then(
        () => null,
        (error: unknown) => `Redis does not answer: ${error instanceof Error ? error.message : 'no answer'}`,
      ),
    );
  else
    ctx.health.add('redis', async () => {
      await connection.ping();
    });
  const removeProbe = queueJobs.add(async (set) => {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    for (const [state, count] of Object.entries(counts)) set({ queue: name, state }, count);
  });
  ctx.onShutdown(async () => {
    removeProbe();
    await queue.close();
    // While Redis is away QUIT cannot be sent (no offline queue): drop the connection, or it keeps reconnecting.
    await connection.quit().catch(() => connection.disconnect());
  });
  return new QueueProducer<Data>(queue, options.timeoutMs);
}

/**
 * Runs a job's work in the trace that queued it (`QueueProducer.add` stored the `traceparent` in the job's options):
 * one span per attempt, named after the queue.
 */
export function continueJobTrace<T>(
  job: { id?: string | undefined; name: string; queueName: string; attemptsMade: number; opts: { telemetry?: { metadata?: string } } },
  work: () => Promise<T>,
): Promise<T> {
  const metadata = job.opts.telemetry?.metadata;
  const attributes = {
    'messaging.system': 'bullmq',
    'messaging.destination.name': job.queueName,
    'messaging.message.id': job.id ?? '',
    'bullmq.job.name': job.name,
    'bullmq.job.attempt': job.attemptsMade + 1,
  };
  return withSpan(
    `${job.queueName} process`,
    { kind: SpanKind.CONSUMER, attributes, parent: contextFrom(metadata ? { traceparent: metadata } : null) },
    work,
  );
}

/**
 * The Redis connection a BullMQ worker runs on: it waits for Redis however long it is away (no time-out per command,
 * as BullMQ's blocking reads need; the producer side fails fast instead, `openQueueProducer`), and says nothing of
 * its own while it does (health's Redis alert and the failing jobs report the outage).
 */
export function workerConnection(config: RedisEnv): Redis {
  const connection = new Redis({ ...redisConnectionOptions(config), maxRetriesPerRequest: null, enableReadyCheck: true });
  connection.on('error', () => undefined);
  return connection;
}
