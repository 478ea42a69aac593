import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Transaction } from '@digicard/messaging';
import type { EventContext } from '@digicard/server';
import { ProfilesRepository } from '../profiles/profiles.repository.js';
import type { AppleWallet } from './apple-config.js';
import { contentHashOf } from './apple-pass-content.js';
import { APPLE_WALLET, ApplePassMaker } from './apple-pass-maker.js';
import type { ApplePassPushes } from './apple-pass-push.producer.js';
import { ApplePassesRepository } from './apple-passes.repository.js';

/** Where the wallet module finds the `apple-pass-push` producer (only while Apple Wallet is configured). */
export const APPLE_PASS_PUSHES = Symbol('APPLE_PASS_PUSHES');

/**
 * Keeps the devices' passes current. Every change of a profile (`profiles.profile.updated`: a Save, an upload, a
 * rename, a leader's Save for each rep) is compared with what the pass shows; only a change of that moves the pass
 * on and queues a push for each device holding it, after the commit. A deleted account's passes are voided.
 */
@Injectable()
export class ApplePassLifecycle {
  constructor(
    @Inject(APPLE_WALLET) private readonly wallet: AppleWallet | null,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(ApplePassesRepository) private readonly passes: ApplePassesRepository,
    @Inject(ApplePassMaker) private readonly maker: ApplePassMaker,
    @Optional() @Inject(APPLE_PASS_PUSHES) private readonly pushes: ApplePassPushes | null = null,
  ) {}

  /** A profile changed (`profiles.profile.updated`, through WalletPassEvents). */
  async profileChanged(data: { accountId: string }, { tx, afterCommit }: EventContext): Promise<void> {
    if (!this.wallet) return;
    await this.profiles.lockAccount(tx, data.accountId);
    const pass = await this.passes.liveOf(tx, data.accountId, this.wallet.passTypeIdentifier);
    if (!pass) return;
    const content = await this.maker.contentOf(tx, this.wallet, data.accountId);
    // No profile any more: the deletion voids the pass (its own event).
    if (!content) return;
    const hash = contentHashOf(content);
    const version = hash === pass.contentHash ? pass.updatedAt : await this.passes.changed(tx, pass.serialNumber, hash, nowSeconds());
    // Also when this event changed nothing: a push owed from an earlier delivery whose queueing failed is queued now.
    if (version > pass.pushesQueuedFor) this.queueAfter(afterCommit, pass.serialNumber);
  }

  /**
   * The account is gone (deleted, or a rep removed from the team): its passes are voided in the same transaction (no
   * account on them any more) and their devices pushed, so that Wallet shows the card as void.
   */
  async voidPassesOf(tx: Transaction, accountId: string, afterCommit: EventContext['afterCommit']): Promise<void> {
    if (!this.wallet) return;
    const serials = await this.passes.voidAllOf(tx, accountId, contentHashOf(null), new Date());
    for (const serial of serials) this.queueAfter(afterCommit, serial);
  }

  private queueAfter(afterCommit: EventContext['afterCommit'], serialNumber: string): void {
    const pushes = this.pushes;
    if (!pushes) return;
    afterCommit(async () => {
      await pushes.queueOwed(serialNumber);
    });
  }
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);
