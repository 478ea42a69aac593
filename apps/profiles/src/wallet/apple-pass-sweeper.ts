import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, IntervalTask, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { APPLE_PASS_PUSHES } from './apple-pass-lifecycle.js';
import type { ApplePassPushes } from './apple-pass-push.js';
import { ApplePassesRepository } from './apple-passes.repository.js';

/**
 * Every minute: queues the pushes still owed a minute after a pass changed (Redis refused the add, and the event
 * gave up), and deletes voided passes, with their device registrations, once APPLE_VOIDED_PASS_KEEP_HOURS have
 * passed (until then a device holding one is told, and shown the card as void).
 */
@Injectable()
export class ApplePassSweeper {
  private readonly task: IntervalTask;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) logger: Logger,
    @Inject(ApplePassesRepository) private readonly passes: ApplePassesRepository,
    @Optional() @Inject(APPLE_PASS_PUSHES) private readonly pushes: ApplePassPushes | null = null,
  ) {
    this.task = new IntervalTask('apple-pass-sweeper', 60_000, () => this.sweep(), logger);
  }

  start(): void {
    this.task.start();
  }

  async stop(): Promise<void> {
    await this.task.stop();
  }

  async sweep(now = new Date()): Promise<{ queued: number; deleted: number }> {
    let queued = 0;
    if (this.pushes) {
      for (const serial of await this.passes.owingPushes(this.db, Math.floor(now.getTime() / 1000) - 60)) {
        queued += await this.pushes.queueOwed(serial);
      }
    }
    const cutoff = new Date(now.getTime() - this.config.APPLE_VOIDED_PASS_KEEP_HOURS * 3_600_000);
    const deleted = await this.passes.deleteVoidedBefore(this.db, cutoff);
    return { queued, deleted };
  }
}
