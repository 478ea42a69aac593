import { Inject, Injectable } from '@nestjs/common';
import type { OwnProfile, ProfileSettings } from '@digicard/contracts';
import { isFreeTier } from '@digicard/domain';
import { ServiceError } from '@digicard/server';
import { effectiveMembership, toOwn } from '../profile.mapping.js';
import { ProfileWriter } from '../profile-writer.js';
import { ProfilesRepository } from '../profiles.repository.js';

/**
 * Public or private, and, for partners only, the membership: partners switch tiers freely. Everyone else's tier is
 * decided by payments (a PayFast subscription started or cancelled under Billing) and arrives here as an event.
 */
@Injectable()
export class ChangeSettings {
  constructor(
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
  ) {}

  async execute(accountId: string, { isPublic, membership }: ProfileSettings): Promise<OwnProfile> {
    const current = await this.writer.own(accountId);
    const business = await this.writer.businessOf(current);
    // A rep's tier is their leader's: shown to them, never theirs to change.
    if (membership !== effectiveMembership(current, business) && (!current.isPartner || business)) {
      throw ServiceError.forbidden(
        isFreeTier(membership)
          ? 'To go back to DigiShare, cancel your membership under Billing: your tier stays until the end of the month you paid for.'
          : `${membership} is paid monthly through PayFast: choose it under Billing.`,
      );
    }
    const values = business ? { isPublic } : { isPublic, membership };
    return toOwn(await this.writer.change(accountId, (tx) => this.profiles.update(tx, accountId, values)), business);
  }
}
