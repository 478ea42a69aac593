import { Inject, Injectable } from '@nestjs/common';
import { StaffMessages, type StaffProfileView } from '@digicard/contracts';
import { ProfilesRepository } from '../../profiles/profiles.repository.js';
import { StaffRepository } from '../staff.repository.js';
import { AuditedChange, fieldError } from './audited-change.js';

/**
 * Staff set the business a profile inherits its styling and content from (spec: businessId; `withBusiness`): an
 * existing profile, not the profile itself, not one that has a business of its own, and not for a profile that is
 * the business of others.
 */
@Injectable()
export class SetBusiness {
  constructor(
    @Inject(AuditedChange) private readonly change: AuditedChange,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
  ) {}

  execute(staffAccountId: string, accountId: string, businessUsername: string | null): Promise<StaffProfileView> {
    return this.change.run(staffAccountId, accountId, async (tx, row) => {
      const business = businessUsername === null ? null : await this.profiles.byUsername(tx, businessUsername);
      if (businessUsername !== null && !business) throw fieldError('businessUsername', StaffMessages.businessUnknown);
      if (business?.accountId === accountId) throw fieldError('businessUsername', StaffMessages.businessSelf);
      if (business?.businessAccountId) throw fieldError('businessUsername', StaffMessages.businessChain);
      if (business && (await this.staff.isBusinessOfOthers(tx, accountId)))
        throw fieldError('businessUsername', StaffMessages.businessIsBusiness);
      const current = row.businessAccountId ? await this.profiles.byAccount(tx, row.businessAccountId) : null;
      if ((business?.accountId ?? null) === row.businessAccountId) return null;
      await this.staff.update(tx, accountId, { businessAccountId: business?.accountId ?? null });
      return { change: 'business', before: current?.username ?? row.businessAccountId, after: business?.username ?? null };
    });
  }
}
