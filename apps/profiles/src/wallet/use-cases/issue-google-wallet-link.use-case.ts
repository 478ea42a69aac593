import { Inject, Injectable } from '@nestjs/common';
import { WalletMessages, type GoogleWalletLink } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, ServiceError } from '@digicard/server';
import type { Config } from '../../config.js';
import { ProfilesRepository } from '../../profiles/profiles.repository.js';
import { contentHashOf } from '../apple-pass-content.js';
import { ApplePassMaker } from '../apple-pass-maker.js';
import type { GoogleWallet } from '../google-config.js';
import { GOOGLE_WALLET } from '../google-wallet-lifecycle.js';
import { genericObjectOf, saveUrlOf } from '../google-wallet-object.js';
import { GoogleWalletObjectsRepository } from '../google-wallet-objects.repository.js';
import { newSerial } from './issue-apple-pass.use-case.js';

/** Google Wallet is configured, or the owner's ask is 404 (the dashboard does not offer it then). */
export function requireGoogleWallet(wallet: GoogleWallet | null): GoogleWallet {
  if (!wallet) throw ServiceError.notFound(WalletMessages.googleNotConfigured);
  return wallet;
}

/**
 * The owner's Save to Google Wallet: their one live object (a random id, made on the first ask, the same after that,
 * so a second save does not add another card), in a link signed with the service account's key. The link carries
 * the object as it is now; Google keeps the object saved first, and later changes reach it through the REST API.
 */
@Injectable()
export class IssueGoogleWalletLink {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(GOOGLE_WALLET) private readonly wallet: GoogleWallet | null,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(GoogleWalletObjectsRepository) private readonly objects: GoogleWalletObjectsRepository,
    @Inject(ApplePassMaker) private readonly maker: ApplePassMaker,
  ) {}

  status(): { available: boolean } {
    return { available: this.wallet !== null };
  }

  async execute(accountId: string): Promise<GoogleWalletLink> {
    const wallet = requireGoogleWallet(this.wallet);
    const { objectSuffix, content } = await this.db.transaction(async (tx) => {
      // One account's changes one at a time: the wallet's profile-updated handler takes the same lock.
      await this.profiles.lockAccount(tx, accountId);
      const content = await this.maker.contentOf(tx, wallet, accountId);
      if (!content) throw ServiceError.notFound('Profile not found.');
      const live = await this.objects.liveOf(tx, accountId, wallet.classId);
      if (live) return { objectSuffix: live.objectSuffix, content };
      const created = await this.objects.insert(tx, {
        objectSuffix: newSerial(),
        accountId,
        classId: wallet.classId,
        contentHash: contentHashOf(content),
        version: 1,
        // Not at Google until its owner saves it, with what the link carries: no write is owed.
        writesQueuedFor: 1,
      });
      if (!created) throw ServiceError.unavailable();
      return { objectSuffix: created.objectSuffix, content };
    });
    return { saveUrl: saveUrlOf(wallet, genericObjectOf(wallet, objectSuffix, content, this.config.BRAND_NAME)) };
  }
}
