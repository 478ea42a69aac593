import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { ProofRenderJobOptions, ProofRenderJobSchema, QueueName, type ProofRenderJob } from '@digicard/contracts';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';

/** BullMQ ids may not contain ':'; one job per cause and order, so a redelivered event renders once. */
export const proofJobId = (job: ProofRenderJob): string => `${job.reason}-${job.sourceId}-${job.orderId}`;

/** The producer side of the `proof-render` queue (the worker is `ProofRenderWorker`). */
export class ProofQueue {
  constructor(readonly queue: Queue) {}

  async enqueue(job: ProofRenderJob): Promise<void> {
    const data = ProofRenderJobSchema.parse(job);
    await this.queue.add('render-proof', data, { jobId: proofJobId(data) });
  }
}

export const redisConnection = (config: Config): Redis => new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, enableReadyCheck: true });

/** Opens the queue on the service's Redis; it closes at shutdown. */
export function openProofQueue(ctx: ServiceContext<Config>): ProofQueue {
  const connection = redisConnection(ctx.config);
  const queue = new Queue(QueueName.ProofRender, {
    connection,
    prefix: ctx.config.QUEUE_PREFIX,
    defaultJobOptions: { ...ProofRenderJobOptions, backoff: { type: 'exponential', delay: ctx.config.PROOF_RENDER_BACKOFF_MS } },
  });
  ctx.health.add('redis', async () => {
    await connection.ping();
  });
  ctx.onShutdown(async () => {
    await queue.close();
    await connection.quit().catch(() => undefined);
  });
  return new ProofQueue(queue);
}
