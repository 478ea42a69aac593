import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, IntervalTask, LOGGER, QueueUnavailableError } from '@digicard/server';
import type { Config } from '../../config.js';
import { ProofsRepository } from '../proofs.repository.js';
import { ProofQueue } from '../proof.producer.js';

const BATCH = 500;

/**
 * A proof marked `rendering` is a render owed. Its job is queued after the commit that marked it; should that add
 * have failed (Redis away) this task queues it again, on start and then every PROOF_REQUEUE_INTERVAL_MS, once the
 * ask is older than an add's time-out. A job still queued or running for the order makes the add a no-op (its id
 * is the order's).
 */
@Injectable()
export class ProofRequeue implements BeforeApplicationShutdown {
  readonly task: IntervalTask;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ProofsRepository) private readonly proofRows: ProofsRepository,
    @Inject(ProofQueue) private readonly proofs: ProofQueue,
  ) {
    this.task = new IntervalTask('proof requeue', config.PROOF_REQUEUE_INTERVAL_MS, () => this.requeue(), logger);
  }

  start(): void {
    this.task.start();
  }

  /** Queues every render owed; returns how many adds were made. Stops at the first that Redis refuses. */
  async requeue(now = new Date()): Promise<number> {
    const askedBefore = new Date(now.getTime() - this.config.QUEUE_ADD_TIMEOUT_MS);
    const owed = await this.proofRows.rendersOwed(this.db, askedBefore, BATCH);
    let queued = 0;
    for (const orderId of owed) {
      try {
        await this.proofs.enqueue({ orderId, reason: 'requeued', sourceId: `requeue-${now.getTime()}` });
        queued += 1;
      } catch (error) {
        if (!(error instanceof QueueUnavailableError)) throw error;
        this.logger.warn({ owed: owed.length, queued }, 'proof renders owed; Redis is away, will try again');
        break;
      }
    }
    return queued;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
