import { Worker, type Job } from 'bullmq';
import type { Logger } from '@digicard/config';
import { ApplePassPushJobOptions, ApplePassPushJobSchema, QueueName, type ApplePassPushJob } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { continueJobTrace, workerConnection, type ServiceContext } from '@digicard/server';
import type { Config } from '../../config.js';
import type { AppleWallet } from '../apple-config.js';
import type { ApplePassRegistrationsRepository } from '../apple-pass-registrations.repository.js';
import type { ApplePassesRepository } from '../apple-passes.repository.js';
import { ApnsClient } from '../apns-client.js';

/** What one push job came to. */
export type ApplePassPushResult = { status: 'sent' | 'gone' | 'superseded' | 'unregistered' };

/** One push: to the device still registered with that token, unless a later version of the pass supersedes it. */
export async function pushOne(
  job: ApplePassPushJob,
  deps: {
    db: Database;
    passes: ApplePassesRepository;
    registrations: ApplePassRegistrationsRepository;
    apns: Pick<ApnsClient, 'push'>;
    logger: Logger;
  },
): Promise<ApplePassPushResult> {
  const registration = await deps.registrations.registrationById(deps.db, job.registrationId);
  if (!registration || registration.pushToken !== job.pushToken) return { status: 'unregistered' };
  const pass = await deps.passes.bySerialAnyType(deps.db, job.serialNumber);
  if (!pass) return { status: 'unregistered' };
  if (pass.updatedAt > job.version) return { status: 'superseded' };
  const outcome = await deps.apns.push(job.pushToken);
  if (outcome.status === 'sent') return { status: 'sent' };
  if (outcome.status === 'gone') {
    await deps.registrations.removeRegistration(deps.db, job.registrationId, job.pushToken);
    deps.logger.info({ serialNumber: job.serialNumber, reason: outcome.reason }, 'APNs: device no longer registered; registration removed');
    return { status: 'gone' };
  }
  throw new Error(`APNs: ${outcome.reason}`);
}

/**
 * The `apple-pass-push` worker: each job sends one APNs push (HTTP/2, token-based auth). APNs busy, unreachable or
 * refusing our token fails the attempt and BullMQ retries it with backoff (ApplePassPushJobOptions); a device APNs
 * says is gone loses its registration.
 */
export function startApplePassPushWorker(
  ctx: ServiceContext<Config>,
  wallet: AppleWallet,
  passes: ApplePassesRepository,
  registrations: ApplePassRegistrationsRepository,
  apns: ApnsClient = new ApnsClient(wallet),
): Worker {
  const connection = workerConnection(ctx.config as Config & { REDIS_URL: string });
  const worker = new Worker<ApplePassPushJob, ApplePassPushResult>(
    QueueName.ApplePassPush,
    async (job: Job<ApplePassPushJob>) =>
      continueJobTrace(job, () =>
        pushOne(ApplePassPushJobSchema.parse(job.data), { db: ctx.db, passes, registrations, apns, logger: ctx.logger }),
      ),
    { connection, prefix: ctx.config.QUEUE_PREFIX, concurrency: ctx.config.APPLE_PASS_PUSH_CONCURRENCY },
  );
  worker.on('failed', (job, error) => {
    if (!job) return;
    const final = job.attemptsMade >= (job.opts.attempts ?? ApplePassPushJobOptions.attempts);
    ctx.logger.warn(
      { jobId: job.id, serialNumber: job.data.serialNumber, attempts: job.attemptsMade, final, err: error },
      final ? 'Apple Wallet push failed for good' : 'Apple Wallet push failed; BullMQ retries it',
    );
  });
  worker.on('error', (error) => ctx.logger.warn({ err: error }, 'Apple Wallet push worker error'));
  ctx.onShutdown(async () => {
    await worker.close();
    apns.close();
    await connection.quit().catch(() => undefined);
  });
  return worker;
}
