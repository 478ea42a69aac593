import { Inject, Injectable } from '@nestjs/common';
import type { OwnProfile, ProfileSettings } from '@digicard/contracts';
import { ServiceError } from '@digicard/server';
import { membershipOf, toOwn } from '../profile.mapping.js';
import { ProfileWriter } from '../profile-writer.js';
import { ProfilesRepository } from '../profiles.repository.js';

/**
 * Public or private, and the membership. DigiShare (the free tier) and any tier for a partner are written at once;
 * other paid tiers are granted by payment events (PayFast, with the payments work).
 */
@Injectable()
export class ChangeSettings {
  constructor(
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
  ) {}

  async execute(accountId: string, { isPublic, membership }: ProfileSettings): Promise<OwnProfile> {
    const current = await this.writer.own(accountId);
    if (membership !== membershipOf(current) && membership !== 'DigiShare' && !current.isPartner) {
      throw ServiceError.forbidden(`${membership} is paid by PayFast; online payment opens soon.`);
    }
    return toOwn(await this.writer.change(accountId, (tx) => this.profiles.update(tx, accountId, { isPublic, membership })));
  }
}
