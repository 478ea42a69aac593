import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import { CONFIG, IntervalTask, LOGGER } from '@digicard/server';
import type { Config } from '../../config.js';
import { CompleteRepAdditions } from '../use-cases/complete-rep-additions.use-case.js';

/** On start and then on a timer: completes additions of reps that were cut short (CompleteRepAdditions.sweep). */
@Injectable()
export class PendingRepsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: IntervalTask;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(LOGGER) logger: Logger,
    @Inject(CompleteRepAdditions) complete: CompleteRepAdditions,
  ) {
    this.task = new IntervalTask('pending reps sweep', config.PENDING_REPS_SWEEP_MS, () => complete.sweep(), logger);
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
