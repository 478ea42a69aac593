import { ProofRenderJobOptions, ProofRenderJobSchema, QueueName, type ProofRenderJob } from '@digicard/contracts';
import { openQueueProducer, type QueueProducer, type ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';

/**
 * One render job per order: its id is the order's (BullMQ ids may not contain ':'), so a render that waits absorbs
 * every later ask (payment, profile saves, the print team) until it starts. A job leaves Redis once done or failed
 * for good (the proof row says how it went), so the next ask queues a new one.
 */
export const proofJobId = (job: Pick<ProofRenderJob, 'orderId'>): string => job.orderId;

/**
 * The producer side of the `proof-render` queue (the worker is `startProofWorker`, in workers/proof-render.worker.ts).
 * Call it after the commit that marked the proof `rendering`: that row is what a render owes, so an add lost to a
 * Redis outage is made again by `requeueOwed` (see `ProofRequeue`).
 */
export class ProofQueue {
  constructor(
    readonly producer: QueueProducer<ProofRenderJob>,
    private readonly debounceMs = 0,
  ) {}

  /** Queues a render; a profile save waits `debounceMs` first, so a burst of saves is rendered once. */
  async enqueue(job: ProofRenderJob): Promise<void> {
    const data = ProofRenderJobSchema.parse(job);
    await this.producer.add('render-proof', data, {
      jobId: proofJobId(data),
      ...(data.reason === 'profile-updated' && this.debounceMs > 0 ? { delay: this.debounceMs } : {}),
    });
  }
}

/** Opens the queue's producer on the service's Redis; it closes at shutdown. */
export function openProofQueue(ctx: ServiceContext<Config>): ProofQueue {
  const producer = openQueueProducer<ProofRenderJob>(ctx, QueueName.ProofRender, {
    prefix: ctx.config.QUEUE_PREFIX,
    timeoutMs: ctx.config.QUEUE_ADD_TIMEOUT_MS,
    defaultJobOptions: { ...ProofRenderJobOptions, backoff: { type: 'exponential', delay: ctx.config.PROOF_RENDER_BACKOFF_MS } },
  });
  return new ProofQueue(producer, ctx.config.PROOF_RERENDER_DEBOUNCE_MS);
}
