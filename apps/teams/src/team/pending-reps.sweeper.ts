import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import { CONFIG, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { CompleteRepAdditions } from './use-cases/complete-rep-additions.use-case.js';

/** On start and then on a timer: completes additions of reps that were cut short (CompleteRepAdditions.sweep). */
@Injectable()
export class PendingRepsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CompleteRepAdditions) private readonly complete: CompleteRepAdditions,
  ) {}

  onApplicationBootstrap(): void {
    this.sweep();
    this.timer = setInterval(() => this.sweep(), this.config.PENDING_REPS_SWEEP_MS);
    this.timer.unref();
  }

  private sweep(): void {
    this.running ??= this.complete
      .sweep()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'pending reps not swept; will retry'))
      .finally(() => (this.running = null));
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
