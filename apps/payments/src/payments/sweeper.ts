import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import { CONFIG, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { ItnProcessor } from './itn.processor.js';
import { LapseJob } from './lapse.job.js';

/** On start and then on a timer: decides ITNs left undecided (a crash, a failed validate call) and lapses memberships. */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private lapsing: Promise<unknown> | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ItnProcessor) private readonly itns: ItnProcessor,
    @Inject(LapseJob) private readonly lapse: LapseJob,
  ) {}

  onApplicationBootstrap(): void {
    this.sweep();
    this.timer = setInterval(() => this.sweep(), this.config.PAYMENTS_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  private sweep(): void {
    this.itns.kick();
    this.lapsing ??= this.lapse
      .run()
      .catch((error: unknown) => this.logger.error({ err: error }, 'lapse job failed'))
      .finally(() => (this.lapsing = null));
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.itns.idle();
    await this.lapsing;
  }
}
