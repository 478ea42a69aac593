import { Inject, Injectable } from '@nestjs/common';
import { isReservedUsername, StaffMessages, type StaffProfileView } from '@digicard/contracts';
import { StaffRepository } from '../staff.repository.js';
import { AuditedChange, fieldError } from './audited-change.js';

/** Staff set the vanity paths that lead to a profile (`/{path}` redirects to `/{username}`). */
@Injectable()
export class SetVanityPaths {
  constructor(
    @Inject(AuditedChange) private readonly change: AuditedChange,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
  ) {}

  execute(staffAccountId: string, accountId: string, paths: string[]): Promise<StaffProfileView> {
    const seen = new Set<string>();
    for (const path of paths) {
      if (seen.has(path)) throw fieldError('paths', `${path}: ${StaffMessages.vanityDuplicate}`);
      seen.add(path);
      if (isReservedUsername(path)) throw fieldError('paths', `${path}: ${StaffMessages.vanityReserved}`);
    }
    const wanted = [...seen].sort();
    return this.change.run(staffAccountId, accountId, async (tx, row) => {
      const [username] = await this.staff.usernamesAmong(tx, wanted);
      if (username) throw fieldError('paths', `${username}: ${StaffMessages.vanityUsername}`);
      const [taken] = await this.staff.pathsOfOthers(tx, accountId, wanted);
      if (taken) throw fieldError('paths', `${taken}: ${StaffMessages.vanityTaken}`);
      const before = await this.staff.vanityPathsOf(tx, accountId);
      if (before.join('\n') === wanted.join('\n')) return null;
      await this.staff.replaceVanityPaths(tx, row.accountId, wanted);
      return { change: 'vanityPaths', before, after: wanted };
    });
  }
}
