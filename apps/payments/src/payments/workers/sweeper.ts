import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import { CONFIG, IntervalTask, LOGGER } from '@digicard/server';
import type { Config } from '../../config.js';
import { ItnProcessor } from './itn.processor.js';
import { ItnPurge } from './itn-purge.js';
import { LapseJob } from './lapse.job.js';

/** How often old ITNs are purged (at most; checked on each sweep). */
const PURGE_EVERY_MS = 3_600_000;

/**
 * On start and then on a timer: decides ITNs left undecided (a crash, a failed validate call), lapses memberships,
 * and (hourly) deletes old ITNs that moved no money.
 */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: IntervalTask;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(LOGGER) logger: Logger,
    @Inject(ItnProcessor) private readonly itns: ItnProcessor,
    @Inject(LapseJob) lapse: LapseJob,
    @Inject(ItnPurge) purge: ItnPurge,
  ) {
    let purgedAt = 0;
    const sweep = async () => {
      this.itns.kick();
      await lapse.run();
      if (Date.now() - purgedAt < PURGE_EVERY_MS) return;
      purgedAt = Date.now();
      await purge.run();
    };
    // A lapse that fails is an error for an operator (memberships stay paid past their end).
    this.task = new IntervalTask('payments sweep', config.PAYMENTS_SWEEP_INTERVAL_MS, sweep, {
      warn: (obj, msg) => logger.error(obj, msg),
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
    await this.itns.idle();
  }
}
