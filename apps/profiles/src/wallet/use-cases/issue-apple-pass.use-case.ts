import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ApplePassFile } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError } from '@digicard/server';
import { ProfilesRepository } from '../../profiles/profiles.repository.js';
import type { AppleWallet } from '../apple-config.js';
import { requireWallet } from '../apple-pass-auth.js';
import { contentHashOf } from '../apple-pass-content.js';
import { APPLE_WALLET, ApplePassMaker } from '../apple-pass-maker.js';
import { ApplePassesRepository } from '../apple-passes.repository.js';

/** A serial (18 random bytes) and a token (32 random bytes), base64url: nothing in them says whose pass it is. */
export const newSerial = (): string => randomBytes(18).toString('base64url');
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * The owner's Add to Apple Wallet: their one live pass, made on the first ask (random serial and token) and the same
 * pass every time after, so a second download replaces the card in Wallet rather than adding another.
 */
@Injectable()
export class IssueApplePass {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APPLE_WALLET) private readonly wallet: AppleWallet | null,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(ApplePassesRepository) private readonly passes: ApplePassesRepository,
    @Inject(ApplePassMaker) private readonly maker: ApplePassMaker,
  ) {}

  async execute(accountId: string): Promise<ApplePassFile> {
    const wallet = requireWallet(this.wallet);
    const { pass, content } = await this.db.transaction(async (tx) => {
      // One account's changes one at a time: the pass-updates handler takes the same lock.
      await this.profiles.lockAccount(tx, accountId);
      const content = await this.maker.contentOf(tx, wallet, accountId);
      if (!content) throw ServiceError.notFound('Profile not found.');
      const live = await this.passes.liveOf(tx, accountId, wallet.passTypeIdentifier);
      if (live) return { pass: live, content };
      const now = Math.floor(Date.now() / 1000);
      const created = await this.passes.insert(tx, {
        serialNumber: newSerial(),
        accountId,
        passTypeIdentifier: wallet.passTypeIdentifier,
        authenticationToken: newToken(),
        contentHash: contentHashOf(content),
        updatedAt: now,
        // No device holds it yet: nothing is owed.
        pushesQueuedFor: now,
      });
      if (!created) throw ServiceError.unavailable();
      return { pass: created, content };
    });
    return this.maker.file(wallet, pass, content);
  }
}
