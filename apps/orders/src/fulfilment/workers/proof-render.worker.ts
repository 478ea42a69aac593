import { Worker, type Job } from 'bullmq';
import { ProofRenderJobOptions, QueueName, type ProofRenderJob } from '@digicard/contracts';
import { continueJobTrace, workerConnection, type ServiceContext } from '@digicard/server';
import type { Config } from '../../config.js';
import type { ProofQueue } from '../proof.producer.js';
import type { ProofJobResult, RenderProof } from '../use-cases/render-proof.use-case.js';

/**
 * The `proof-render` worker: each job renders one order's proof. A failed attempt is written on the proof at once
 * (the error, the attempts so far) and BullMQ retries it with backoff; after the last attempt the proof is `failed`,
 * which both consoles show (the print team can render it again). Never silent. A render asked for again while
 * one ran (`superseded`) is queued again once that job is done.
 */
export function startProofWorker(ctx: ServiceContext<Config>, render: RenderProof, queue: ProofQueue): Worker {
  const connection = workerConnection(ctx.config);
  const maxAttempts = ProofRenderJobOptions.attempts;
  const worker = new Worker<ProofRenderJob, ProofJobResult>(
    QueueName.ProofRender,
    async (job: Job<ProofRenderJob>) => continueJobTrace(job, () => render.execute(job.data, job.attemptsMade + 1)),
    { connection, prefix: ctx.config.QUEUE_PREFIX, concurrency: ctx.config.PROOF_RENDER_CONCURRENCY },
  );
  worker.on('failed', (job, error) => {
    if (!job) return;
    const attempts = job.attemptsMade;
    const final = attempts >= (job.opts.attempts ?? maxAttempts);
    ctx.logger.warn(
      { jobId: job.id, orderId: job.data.orderId, attempts, final, err: error },
      final ? 'proof render failed for good' : 'proof render failed; BullMQ retries it',
    );
    render
      .recordFailure(job.data.orderId, String(error?.message ?? error), attempts, final)
      .catch((err: unknown) => ctx.logger.error({ err }, 'could not record a failed proof render'));
  });
  // Asked for again while it ran: this job is gone now, so the order's next one can be queued (ProofRequeue
  // queues it later should Redis refuse now).
  worker.on('completed', (job, result) => {
    if (result.status !== 'superseded') return;
    queue
      .enqueue({ orderId: job.data.orderId, reason: 'requeued', sourceId: `superseded-${Date.now()}` })
      .catch((err: unknown) => ctx.logger.warn({ err, orderId: job.data.orderId }, 'superseded proof render not queued again yet'));
  });
  worker.on('error', (error) => ctx.logger.error({ err: error }, 'proof worker error'));
  ctx.onShutdown(async () => {
    await worker.close();
    await connection.quit().catch(() => undefined);
  });
  return worker;
}
