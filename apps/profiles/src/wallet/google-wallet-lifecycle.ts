import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Transaction } from '@digicard/messaging';
import type { EventContext } from '@digicard/server';
import { ProfilesRepository } from '../profiles/profiles.repository.js';
import { contentHashOf } from './apple-pass-content.js';
import { ApplePassMaker } from './apple-pass-maker.js';
import type { GoogleWallet } from './google-config.js';
import type { GoogleWalletWrites } from './google-wallet-sync.producer.js';
import { GoogleWalletObjectsRepository } from './google-wallet-objects.repository.js';

/** Where the wallet module finds Google Wallet's settings: null while the feature is off. */
export const GOOGLE_WALLET = Symbol('GOOGLE_WALLET');
/** Where it finds the `google-wallet-sync` producer (only while Google Wallet is configured). */
export const GOOGLE_WALLET_WRITES = Symbol('GOOGLE_WALLET_WRITES');

/**
 * Keeps the owners' Google Wallet objects current: a change of a profile that changes what its object shows moves
 * the object's version on and queues its write through the Wallet REST API, after the commit; a deleted account's
 * (or removed rep's) object is voided and its expiry written.
 */
@Injectable()
export class GoogleWalletLifecycle {
  constructor(
    @Inject(GOOGLE_WALLET) private readonly wallet: GoogleWallet | null,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(GoogleWalletObjectsRepository) private readonly objects: GoogleWalletObjectsRepository,
    @Inject(ApplePassMaker) private readonly maker: ApplePassMaker,
    @Optional() @Inject(GOOGLE_WALLET_WRITES) private readonly writes: GoogleWalletWrites | null = null,
  ) {}

  async profileChanged(data: { accountId: string }, { tx, afterCommit }: EventContext): Promise<void> {
    if (!this.wallet) return;
    await this.profiles.lockAccount(tx, data.accountId);
    const object = await this.objects.liveOf(tx, data.accountId, this.wallet.classId);
    if (!object) return;
    const content = await this.maker.contentOf(tx, this.wallet, data.accountId);
    if (!content) return;
    const hash = contentHashOf(content);
    const version = hash === object.contentHash ? object.version : await this.objects.changed(tx, object.objectSuffix, hash);
    // Also when this event changed nothing: a write owed from an earlier delivery whose queueing failed is queued now.
    if (version > object.writesQueuedFor) this.queueAfter(afterCommit, object.objectSuffix);
  }

  /** The account is gone: its objects are voided in the same transaction, and their expiry written to Google. */
  async voidObjectsOf(tx: Transaction, accountId: string, afterCommit: EventContext['afterCommit']): Promise<void> {
    if (!this.wallet) return;
    const suffixes = await this.objects.voidAllOf(tx, accountId, contentHashOf(null), new Date());
    for (const suffix of suffixes) this.queueAfter(afterCommit, suffix);
  }

  private queueAfter(afterCommit: EventContext['afterCommit'], objectSuffix: string): void {
    const writes = this.writes;
    if (!writes) return;
    afterCommit(async () => {
      await writes.queueOwed(objectSuffix);
    });
  }
}
