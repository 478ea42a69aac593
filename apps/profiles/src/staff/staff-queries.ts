import { Inject, Injectable } from '@nestjs/common';
import { StaffMessages, type Rpc, type StaffAuditEntry, type StaffAuditPage, type StaffProfileView } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { DATABASE, ServiceError, pageStart, toPage, type RpcBody } from '@digicard/server';
import { membershipOf } from '../profiles/profile.mapping.js';
import { ProfilesRepository, type ProfileRow } from '../profiles/profiles.repository.js';
import { StaffRepository, type StaffAuditRow } from './staff.repository.js';

export const accountNotFound = () => ServiceError.notFound(StaffMessages.accountNotFound);

const toEntry = (r: StaffAuditRow): StaffAuditEntry => ({
  id: r.id,
  accountId: r.accountId,
  staffAccountId: r.staffAccountId,
  staffUsername: r.staffUsername,
  change: r.change,
  before: r.before,
  after: r.after,
  // To the microsecond: the console merges identity's and profiles' pages by it.
  at: r.position,
});

/**
 * What staff read in profiles: a profile's partner flag, vanity paths and business (`StaffProfileView`) and its
 * audited changes. Every read and change is checked against profiles' own record of the caller's role (from
 * identity's events), the second check after the gateway's.
 */
@Injectable()
export class StaffQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
  ) {}

  /** The second check, against profiles' own record of the caller (from identity's events). */
  async assertStaff(staffAccountId: string): Promise<void> {
    const caller = await this.profiles.byAccount(this.db, staffAccountId);
    if (caller?.role !== 'staff') throw ServiceError.forbidden('Only staff may do that.');
  }

  async view(staffAccountId: string, accountId: string): Promise<StaffProfileView | null> {
    await this.assertStaff(staffAccountId);
    const row = await this.profiles.byAccount(this.db, accountId);
    return row ? this.viewOf(row) : null;
  }

  /** The profile as staff see it now; 404 when the account has no profile. */
  async viewOfAccount(accountId: string): Promise<StaffProfileView> {
    const row = await this.profiles.byAccount(this.db, accountId);
    if (!row) throw accountNotFound();
    return this.viewOf(row);
  }

  /** A page of the profile's audited changes, newest first (none for an account profiles never had). */
  async audit(staffAccountId: string, { accountId, ...page }: RpcBody<typeof Rpc.staffProfileAudit>): Promise<StaffAuditPage> {
    await this.assertStaff(staffAccountId);
    const rows = await this.staff.auditPage(this.db, accountId, pageStart(page), page.limit);
    const { items, nextCursor } = await toPage(rows, page.limit, (taken) => taken.map(toEntry));
    return { entries: items, nextCursor };
  }

  private async viewOf(row: ProfileRow, db: Database | Transaction = this.db): Promise<StaffProfileView> {
    const business = row.businessAccountId ? await this.profiles.byAccount(db, row.businessAccountId) : null;
    return {
      accountId: row.accountId,
      username: row.username,
      membership: membershipOf(row),
      isPartner: row.isPartner,
      vanityPaths: await this.staff.vanityPathsOf(db, row.accountId),
      businessUsername: business?.username ?? null,
    };
  }
}
