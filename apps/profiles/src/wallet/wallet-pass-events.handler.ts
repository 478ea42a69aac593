import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import type { Transaction } from '@digicard/messaging';
import { OnEvent, type EventContext } from '@digicard/server';
import { ApplePassLifecycle } from './apple-pass-lifecycle.js';
import { GoogleWalletLifecycle } from './google-wallet-lifecycle.js';

/**
 * The wallets' side of a profile's life: every change of a profile (`profiles.profile.updated`: a Save, an upload, a
 * rename, a leader's Save for each rep) is compared with what each wallet's pass shows, and an account that is gone
 * (deleted, or a rep removed) has its passes voided in the transaction that removes it.
 */
@Injectable()
export class WalletPassEvents {
  constructor(
    @Inject(ApplePassLifecycle) private readonly apple: ApplePassLifecycle,
    @Inject(GoogleWalletLifecycle) private readonly google: GoogleWalletLifecycle,
  ) {}

  @OnEvent(Events.profileUpdated)
  async profileChanged(data: { accountId: string }, context: EventContext): Promise<void> {
    await this.apple.profileChanged(data, context);
    await this.google.profileChanged(data, context);
  }

  async voidPassesOf(tx: Transaction, accountId: string, afterCommit: EventContext['afterCommit']): Promise<void> {
    await this.apple.voidPassesOf(tx, accountId, afterCommit);
    await this.google.voidObjectsOf(tx, accountId, afterCommit);
  }
}
