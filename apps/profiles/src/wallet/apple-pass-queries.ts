import { Inject, Injectable } from '@nestjs/common';
import type { ApplePassFile, ApplePassSerials, WalletStatus } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import type { AppleWallet } from './apple-config.js';
import { checkPass, requireWallet } from './apple-pass-auth.js';
import { APPLE_WALLET, ApplePassMaker } from './apple-pass-maker.js';
import { ApplePassesRepository } from './apple-passes.repository.js';
import { ApplePassRegistrationsRepository } from './apple-pass-registrations.repository.js';

/** What Apple's web service and the dashboard read: the wallets offered, a pass's latest version, a device's changes. */
@Injectable()
export class ApplePassQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APPLE_WALLET) private readonly wallet: AppleWallet | null,
    @Inject(ApplePassesRepository) private readonly passes: ApplePassesRepository,
    @Inject(ApplePassRegistrationsRepository) private readonly registrations: ApplePassRegistrationsRepository,
    @Inject(ApplePassMaker) private readonly maker: ApplePassMaker,
  ) {}

  status(): WalletStatus['apple'] {
    return { available: this.wallet !== null };
  }

  /**
   * The pass as it is now, for the device that holds it (its token shown), unless it has not changed since
   * `ifModifiedSince` (whole seconds, as Last-Modified said). A voided pass is served void, without its owner.
   */
  async latest(ref: {
    passTypeIdentifier: string;
    serialNumber: string;
    authenticationToken: string;
    ifModifiedSince: string | null;
  }): Promise<{ modified: false } | (ApplePassFile & { modified: true })> {
    const wallet = requireWallet(this.wallet);
    const pass = checkPass(
      wallet,
      ref.passTypeIdentifier,
      await this.passes.bySerial(this.db, ref.passTypeIdentifier, ref.serialNumber),
      ref.authenticationToken,
    );
    if (ref.ifModifiedSince !== null && pass.updatedAt <= Math.floor(Date.parse(ref.ifModifiedSince) / 1000)) return { modified: false };
    const content = pass.accountId && !pass.voidedAt ? await this.maker.contentOf(this.db, wallet, pass.accountId) : null;
    return { modified: true, ...(await this.maker.file(wallet, pass, content)) };
  }

  /**
   * The serials of the device's passes that changed after `since` (every one of its passes without it), and the tag to
   * send next time; null when none did. Apple sends no token here: the device library identifier, which only the
   * device and we know, is what names the passes.
   */
  async changedFor(deviceLibraryIdentifier: string, passTypeIdentifier: string, since: string | null): Promise<ApplePassSerials | null> {
    const wallet = requireWallet(this.wallet);
    if (passTypeIdentifier !== wallet.passTypeIdentifier) return null;
    const rows = await this.registrations.updatedFor(
      this.db,
      deviceLibraryIdentifier,
      passTypeIdentifier,
      since === null ? null : Number(since),
    );
    if (rows.length === 0) return null;
    return {
      serialNumbers: rows.map((r) => r.serialNumber),
      lastUpdated: String(Math.max(...rows.map((r) => r.updatedAt))),
    };
  }
}
