import {
  GoogleWalletSyncJobOptions,
  GoogleWalletSyncJobSchema,
  QueueName,
  googleWalletSyncJobId,
  type GoogleWalletSyncJob,
} from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { openQueueProducer, type QueueProducer, type ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import type { GoogleWalletObjectsRepository } from './google-wallet-objects.repository.js';

/**
 * The producer side of the `google-wallet-sync` queue: the write an object's version owes Google (one job per object
 * and version), then the object is marked as queued for that version. Called after the commit that changed it; when
 * Redis refuses, the sweeper queues what is still owed.
 */
export class GoogleWalletWrites {
  constructor(
    private readonly producer: QueueProducer<GoogleWalletSyncJob>,
    private readonly db: Database,
    private readonly objects: GoogleWalletObjectsRepository,
  ) {}

  async queueOwed(objectSuffix: string): Promise<boolean> {
    const row = await this.objects.bySuffix(this.db, objectSuffix);
    if (!row || row.writesQueuedFor >= row.version) return false;
    const job = GoogleWalletSyncJobSchema.parse({ objectSuffix, version: row.version });
    await this.producer.add('google-wallet-sync', job, { jobId: googleWalletSyncJobId(job) });
    await this.objects.writesQueued(this.db, objectSuffix, row.version);
    return true;
  }
}

/** Opens the queue's producer on the service's Redis (reported as an alert, never readiness); it closes at shutdown. */
export function openGoogleWalletWrites(ctx: ServiceContext<Config>, objects: GoogleWalletObjectsRepository): GoogleWalletWrites {
  const producer = openQueueProducer<GoogleWalletSyncJob>(
    ctx as ServiceContext<Config & { REDIS_URL: string }>,
    QueueName.GoogleWalletSync,
    {
      prefix: ctx.config.QUEUE_PREFIX,
      timeoutMs: ctx.config.QUEUE_ADD_TIMEOUT_MS,
      defaultJobOptions: {
        ...GoogleWalletSyncJobOptions,
        backoff: { type: 'exponential', delay: ctx.config.GOOGLE_WALLET_SYNC_BACKOFF_MS },
      },
      redisHealth: 'alert',
    },
  );
  return new GoogleWalletWrites(producer, ctx.db, objects);
}
