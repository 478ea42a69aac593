import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Logger } from '@digicard/config';
import { GoogleWalletSyncJobOptions, GoogleWalletSyncJobSchema, QueueName, type GoogleWalletSyncJob } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { continueJobTrace, workerConnection, type ServiceContext } from '@digicard/server';
import type { Config } from '../../config.js';
import type { ApplePassContent } from '../apple-pass-content.js';
import type { GoogleWallet } from '../google-config.js';
import { GoogleWalletClient, GoogleWalletRefusal } from '../google-wallet-client.js';
import { genericObjectOf } from '../google-wallet-object.js';
import type { GoogleWalletObjectsRepository } from '../google-wallet-objects.repository.js';

/** What one write job came to. */
export type GoogleWalletSyncResult = { status: 'written' | 'not-saved' | 'superseded' | 'gone' };

/**
 * One write: the object as it is now (the profile read when the job runs, so a late retry never writes an older
 * card), or its expiry when its account is gone. A later version's job makes this one moot.
 */
export async function writeOne(
  job: GoogleWalletSyncJob,
  deps: {
    db: Database;
    wallet: GoogleWallet;
    objects: GoogleWalletObjectsRepository;
    contentOf: (accountId: string) => Promise<ApplePassContent | null>;
    client: Pick<GoogleWalletClient, 'putObject'>;
    brand: string;
    logger: Logger;
  },
): Promise<GoogleWalletSyncResult> {
  const row = await deps.objects.bySuffix(deps.db, job.objectSuffix);
  if (!row) return { status: 'gone' };
  if (row.version > job.version) return { status: 'superseded' };
  const content = row.accountId && !row.voidedAt ? await deps.contentOf(row.accountId) : null;
  const outcome = await deps.client.putObject(
    genericObjectOf(deps.wallet, row.objectSuffix, content, deps.brand) as Record<string, unknown> & { id: string },
  );
  if (outcome.status === 'not-saved')
    deps.logger.debug({ objectSuffix: row.objectSuffix }, 'Google Wallet: object not saved by its owner yet; the save link carries it');
  return outcome;
}

/**
 * The `google-wallet-sync` worker: each job writes one object through the Wallet REST API. Google busy, unreachable or
 * refusing the token fails the attempt and BullMQ retries it with backoff (GoogleWalletSyncJobOptions); an object
 * Google refuses as such (400, 403) fails for good, logged.
 */
export function startGoogleWalletSyncWorker(
  ctx: ServiceContext<Config>,
  wallet: GoogleWallet,
  objects: GoogleWalletObjectsRepository,
  contentOf: (accountId: string) => Promise<ApplePassContent | null>,
  client: GoogleWalletClient = new GoogleWalletClient(wallet),
): Worker {
  const connection = workerConnection(ctx.config as Config & { REDIS_URL: string });
  const deps = { db: ctx.db, wallet, objects, contentOf, client, brand: ctx.config.BRAND_NAME, logger: ctx.logger };
  const worker = new Worker<GoogleWalletSyncJob, GoogleWalletSyncResult>(
    QueueName.GoogleWalletSync,
    async (job: Job<GoogleWalletSyncJob>) =>
      continueJobTrace(job, async () => {
        try {
          return await writeOne(GoogleWalletSyncJobSchema.parse(job.data), deps);
        } catch (error) {
          if (error instanceof GoogleWalletRefusal) throw new UnrecoverableError(error.message);
          throw error;
        }
      }),
    { connection, prefix: ctx.config.QUEUE_PREFIX, concurrency: ctx.config.GOOGLE_WALLET_SYNC_CONCURRENCY },
  );
  worker.on('failed', (job, error) => {
    if (!job) return;
    const final = error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? GoogleWalletSyncJobOptions.attempts);
    ctx.logger.warn(
      { jobId: job.id, objectSuffix: job.data.objectSuffix, attempts: job.attemptsMade, final, err: error },
      final ? 'Google Wallet write failed for good' : 'Google Wallet write failed; BullMQ retries it',
    );
  });
  worker.on('error', (error) => ctx.logger.warn({ err: error }, 'Google Wallet write worker error'));
  ctx.onShutdown(async () => {
    await worker.close();
    await connection.quit().catch(() => undefined);
  });
  return worker;
}
