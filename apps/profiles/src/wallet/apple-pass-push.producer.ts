import { ApplePassPushJobOptions, ApplePassPushJobSchema, QueueName, applePassPushJobId, type ApplePassPushJob } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { openQueueProducer, type QueueProducer, type ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import type { ApplePassRegistrationsRepository } from './apple-pass-registrations.repository.js';
import type { ApplePassesRepository } from './apple-passes.repository.js';

/**
 * The producer side of the `apple-pass-push` queue: the pushes a pass's version owes its devices, one job per
 * registration (`applePassPushJobId`: the same version is never queued twice for a device), then the pass is marked
 * as queued for that version. Called after the commit that changed the pass; when Redis refuses, the event is
 * handled again and the sweeper (`WalletPassSweeper`) queues what is still owed.
 */
export class ApplePassPushes {
  constructor(
    private readonly producer: QueueProducer<ApplePassPushJob>,
    private readonly db: Database,
    private readonly passes: ApplePassesRepository,
    private readonly registrations: ApplePassRegistrationsRepository,
  ) {}

  async queueOwed(serialNumber: string): Promise<number> {
    const pass = await this.passes.bySerialAnyType(this.db, serialNumber);
    if (!pass || pass.pushesQueuedFor >= pass.updatedAt) return 0;
    const version = pass.updatedAt;
    const registrations = await this.registrations.registrationsOf(this.db, serialNumber);
    for (const registration of registrations) {
      const job = ApplePassPushJobSchema.parse({
        serialNumber,
        version,
        registrationId: registration.id,
        pushToken: registration.pushToken,
      });
      await this.producer.add('apple-pass-push', job, { jobId: applePassPushJobId(job) });
    }
    await this.passes.pushesQueued(this.db, serialNumber, version);
    return registrations.length;
  }
}

/** Opens the queue's producer on the service's Redis (reported as an alert, never readiness); it closes at shutdown. */
export function openApplePassPushes(
  ctx: ServiceContext<Config>,
  passes: ApplePassesRepository,
  registrations: ApplePassRegistrationsRepository,
): ApplePassPushes {
  const producer = openQueueProducer<ApplePassPushJob>(ctx as ServiceContext<Config & { REDIS_URL: string }>, QueueName.ApplePassPush, {
    prefix: ctx.config.QUEUE_PREFIX,
    timeoutMs: ctx.config.QUEUE_ADD_TIMEOUT_MS,
    defaultJobOptions: { ...ApplePassPushJobOptions, backoff: { type: 'exponential', delay: ctx.config.APPLE_PASS_PUSH_BACKOFF_MS } },
    redisHealth: 'alert',
  });
  return new ApplePassPushes(producer, ctx.db, passes, registrations);
}
