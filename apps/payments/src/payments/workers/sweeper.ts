import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import { CONFIG, IntervalTask, LOGGER } from '@digicard/server';
import type { Config } from '../../config.js';
import { ItnProcessor } from './itn.processor.js';
import { LapseJob } from './lapse.job.js';

/** On start and then on a timer: decides ITNs left undecided (a crash, a failed validate call) and lapses memberships. */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: IntervalTask;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(LOGGER) logger: Logger,
    @Inject(ItnProcessor) private readonly itns: ItnProcessor,
    @Inject(LapseJob) lapse: LapseJob,
  ) {
    const sweep = () => {
      this.itns.kick();
      return lapse.run();
    };
    // A lapse that fails is an error for an operator (memberships stay paid past their end).
    this.task = new IntervalTask('lapse job', config.PAYMENTS_SWEEP_INTERVAL_MS, sweep, { warn: (obj, msg) => logger.error(obj, msg) });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
    await this.itns.idle();
  }
}
