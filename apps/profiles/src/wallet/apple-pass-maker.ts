import { Inject, Injectable } from '@nestjs/common';
import type { ApplePassFile } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { CONFIG, DATABASE } from '@digicard/server';
import type { Config } from '../config.js';
import { toPublic } from '../profiles/profile.mapping.js';
import { ProfilesRepository } from '../profiles/profiles.repository.js';
import { MediaRepository } from '../profiles/media.repository.js';
import type { AppleWallet } from './apple-config.js';
import { signedApplePass } from './apple-pass-bundle.js';
import { applePassContentOf, type ApplePassContent } from './apple-pass-content.js';
import type { ApplePassRow } from './apple-passes.repository.js';

/** Where the wallet module finds Apple Wallet's settings: null while the feature is off. */
export const APPLE_WALLET = Symbol('APPLE_WALLET');

/** An HTTP date's precision: whole seconds, as `updated_at` keeps them. */
export const lastModifiedOf = (pass: Pick<ApplePassRow, 'updatedAt'>): string => new Date(pass.updatedAt * 1000).toISOString();

/** What a pass shows, read from the profile (and its business), and the signed bundle of it. */
@Injectable()
export class ApplePassMaker {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(MediaRepository) private readonly media: MediaRepository,
  ) {}

  /** What the account's pass shows now, as its public page shows it; null when the account has no profile. */
  async contentOf(db: Database | Transaction, wallet: Pick<AppleWallet, 'publicUrl'>, accountId: string): Promise<ApplePassContent | null> {
    const row = await this.profiles.byAccount(db, accountId);
    if (!row) return null;
    const business = row.businessAccountId ? await this.profiles.byAccount(db, row.businessAccountId) : null;
    return applePassContentOf(toPublic(row, business), wallet.publicUrl);
  }

  /** The signed pass file (a voided pass when `content` is null), named after the owner. */
  async file(wallet: AppleWallet, pass: ApplePassRow, content: ApplePassContent | null): Promise<ApplePassFile> {
    const [logo, photo] = await Promise.all([this.image(content?.logoMediaId ?? null), this.image(content?.photoMediaId ?? null)]);
    const bytes = await signedApplePass(
      wallet,
      {
        passTypeIdentifier: pass.passTypeIdentifier,
        teamIdentifier: wallet.teamIdentifier,
        serialNumber: pass.serialNumber,
        authenticationToken: pass.authenticationToken,
        webServiceURL: `${wallet.publicUrl}/api/wallet/apple`,
        organizationName: this.config.BRAND_NAME,
      },
      content,
      { logo, photo },
    );
    const name = (content?.name ?? 'card').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'card';
    return { fileName: `${name}.pkpass`, dataBase64: bytes.toString('base64'), lastModified: lastModifiedOf(pass) };
  }

  private async image(id: string | null): Promise<Buffer | null> {
    if (!id) return null;
    return (await this.media.mediaById(this.db, id))?.bytes ?? null;
  }
}
