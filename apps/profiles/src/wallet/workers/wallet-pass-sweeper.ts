import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, IntervalTask, LOGGER } from '@digicard/server';
import type { Config } from '../../config.js';
import { APPLE_PASS_PUSHES } from '../apple-pass-lifecycle.js';
import type { ApplePassPushes } from '../apple-pass-push.producer.js';
import { ApplePassesRepository } from '../apple-passes.repository.js';
import { GOOGLE_WALLET_WRITES } from '../google-wallet-lifecycle.js';
import { GoogleWalletObjectsRepository } from '../google-wallet-objects.repository.js';
import type { GoogleWalletWrites } from '../google-wallet-sync.producer.js';

/**
 * Every minute, for both wallets. Apple: queues the pushes still owed a minute after a pass changed (Redis refused the
 * add, and the event gave up), and deletes voided passes, with their device registrations, once
 * APPLE_VOIDED_PASS_KEEP_HOURS have passed (until then a device holding one is told, and shown the card as void).
 * Google: queues the writes still owed, and deletes voided objects whose expiry is queued once
 * GOOGLE_WALLET_VOIDED_OBJECT_KEEP_HOURS have passed (until then a retry of the expiry still finds its row).
 */
@Injectable()
export class WalletPassSweeper {
  private readonly task: IntervalTask;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) logger: Logger,
    @Inject(ApplePassesRepository) private readonly passes: ApplePassesRepository,
    @Inject(GoogleWalletObjectsRepository) private readonly googleObjects: GoogleWalletObjectsRepository,
    @Optional() @Inject(APPLE_PASS_PUSHES) private readonly pushes: ApplePassPushes | null = null,
    @Optional() @Inject(GOOGLE_WALLET_WRITES) private readonly googleWrites: GoogleWalletWrites | null = null,
  ) {
    this.task = new IntervalTask('wallet-pass-sweeper', 60_000, () => this.sweep(), logger);
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
    if (this.googleWrites) {
      for (const suffix of await this.googleObjects.owingWrites(this.db)) {
        if (await this.googleWrites.queueOwed(suffix)) queued += 1;
      }
    }
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
    const deleted =
      (await this.passes.deleteVoidedBefore(this.db, hoursAgo(this.config.APPLE_VOIDED_PASS_KEEP_HOURS))) +
      (await this.googleObjects.deleteVoidedBefore(this.db, hoursAgo(this.config.GOOGLE_WALLET_VOIDED_OBJECT_KEEP_HOURS)));
    return { queued, deleted };
  }
}
