import { Inject, Injectable } from '@nestjs/common';
import { Events, WalletMessages, type RepPassesSent } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent } from '@digicard/messaging';
import { DATABASE, ServiceError } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { ProfilesRepository } from '../../profiles/profiles.repository.js';
import type { AppleWallet } from '../apple-config.js';
import { APPLE_WALLET } from '../apple-pass-maker.js';
import type { GoogleWallet } from '../google-config.js';
import { GOOGLE_WALLET } from '../google-wallet-lifecycle.js';

/**
 * A team leader gives every rep their wallet pass in one action: one `profiles.wallet-pass.offered` per rep of the
 * leader's team (the reps whose profile shows the leader's business), recorded in one transaction; notifications
 * emails each rep the links of the wallets the deployment offers. The links open the rep's own dashboard at the QR
 * Code section, where the rep (signed in) adds the pass: no link in the email is a key to anything (decision 11).
 */
@Injectable()
export class OfferRepPasses {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APPLE_WALLET) private readonly apple: AppleWallet | null,
    @Inject(GOOGLE_WALLET) private readonly google: GoogleWallet | null,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
  ) {}

  async execute(leaderAccountId: string): Promise<RepPassesSent> {
    if (!this.apple && !this.google) throw ServiceError.notFound(WalletMessages.noWalletConfigured);
    const wallets = { apple: this.apple !== null, google: this.google !== null };
    return this.db.transaction(async (tx) => {
      const leader = await this.profiles.byAccount(tx, leaderAccountId);
      if (!leader) throw ServiceError.notFound('Profile not found.');
      const leaderName = `${leader.firstName} ${leader.lastName}`.trim() || leader.username;
      const reps = await this.profiles.membersOf(tx, leaderAccountId);
      const offeredAt = new Date().toISOString();
      for (const rep of reps)
        await recordEvent(tx, outbox, Events.walletPassOffered, {
          accountId: rep.accountId,
          email: rep.email,
          firstName: rep.firstName,
          leaderName,
          wallets,
          offeredAt,
        });
      return { sent: reps.length };
    });
  }
}
