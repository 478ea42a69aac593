import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  Events,
  isReservedUsername,
  StaffMessages,
  type Rpc,
  type StaffAuditEntry,
  type StaffAuditPage,
  type StaffProfileView,
} from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay, type Transaction } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError, pageStart, toPage, type RpcBody } from '@digicard/server';
import { outbox } from '../db/schema.js';
import { membershipOf } from '../profiles/profile.mapping.js';
import { ProfilesRepository, type ProfileRow } from '../profiles/profiles.repository.js';
import { StaffRepository, type StaffAuditRow } from './staff.repository.js';

const fieldError = (field: string, message: string) =>
  new ServiceError({
    statusCode: 400,
    code: ErrorCode.ValidationFailed,
    message: 'Please correct the highlighted fields.',
    fieldErrors: { [field]: [message] },
  });
const notFound = () => ServiceError.notFound(StaffMessages.accountNotFound);

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

type Change =
  | { change: 'partner'; before: boolean; after: boolean }
  | { change: 'vanityPaths'; before: string[]; after: string[] }
  | { change: 'business'; before: string | null; after: string | null };

/**
 * What staff read and change in profiles: the partner flag (partners switch tiers freely), the vanity paths that
 * lead to a profile (`/{path}` redirects to `/{username}`), and the business a profile inherits its styling and
 * content from (spec: businessId; `withBusiness`). Each change is checked against profiles' own record of the staff
 * member's role, written with its audit row and `profiles.profile.updated` (cached pages drop) in one transaction;
 * a change to what is already there records nothing.
 */
@Injectable()
export class StaffProfiles {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
  ) {}

  /** The second check, against profiles' own record of the caller (from identity's events). */
  private async assertStaff(staffAccountId: string): Promise<void> {
    const caller = await this.profiles.byAccount(this.db, staffAccountId);
    if (caller?.role !== 'staff') throw ServiceError.forbidden('Only staff may do that.');
  }

  async view(staffAccountId: string, accountId: string): Promise<StaffProfileView | null> {
    await this.assertStaff(staffAccountId);
    const row = await this.profiles.byAccount(this.db, accountId);
    return row ? this.viewOf(row) : null;
  }

  private async viewOf(row: ProfileRow): Promise<StaffProfileView> {
    const business = row.businessAccountId ? await this.profiles.byAccount(this.db, row.businessAccountId) : null;
    return {
      accountId: row.accountId,
      username: row.username,
      membership: membershipOf(row),
      isPartner: row.isPartner,
      vanityPaths: await this.staff.vanityPathsOf(this.db, row.accountId),
      businessUsername: business?.username ?? null,
    };
  }

  /** A page of the profile's audited changes, newest first (none for an account profiles never had). */
  async audit(staffAccountId: string, { accountId, ...page }: RpcBody<typeof Rpc.staffProfileAudit>): Promise<StaffAuditPage> {
    await this.assertStaff(staffAccountId);
    const rows = await this.staff.auditPage(this.db, accountId, pageStart(page), page.limit);
    const { items, nextCursor } = await toPage(rows, page.limit, (taken) => taken.map(toEntry));
    return { entries: items, nextCursor };
  }

  async setPartner(staffAccountId: string, accountId: string, isPartner: boolean): Promise<StaffProfileView> {
    return this.change(staffAccountId, accountId, async (tx, row) => {
      if (row.isPartner === isPartner) return null;
      await this.staff.update(tx, accountId, { isPartner });
      return { change: 'partner', before: row.isPartner, after: isPartner };
    });
  }

  async setVanityPaths(staffAccountId: string, accountId: string, paths: string[]): Promise<StaffProfileView> {
    const seen = new Set<string>();
    for (const path of paths) {
      if (seen.has(path)) throw fieldError('paths', `${path}: ${StaffMessages.vanityDuplicate}`);
      seen.add(path);
      if (isReservedUsername(path)) throw fieldError('paths', `${path}: ${StaffMessages.vanityReserved}`);
    }
    const wanted = [...seen].sort();
    return this.change(staffAccountId, accountId, async (tx, row) => {
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

  async setBusiness(staffAccountId: string, accountId: string, businessUsername: string | null): Promise<StaffProfileView> {
    return this.change(staffAccountId, accountId, async (tx, row) => {
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

  /** Locks the profile, applies `work`, and records its audit row and `profiles.profile.updated` when it changed something. */
  private async change(
    staffAccountId: string,
    accountId: string,
    work: (tx: Transaction, row: ProfileRow) => Promise<Change | null>,
  ): Promise<StaffProfileView> {
    await this.assertStaff(staffAccountId);
    const changed = await this.db.transaction(async (tx) => {
      const row = await this.staff.lock(tx, accountId);
      if (!row) throw notFound();
      const change = await work(tx, row);
      if (!change) return false;
      const at = new Date();
      await this.staff.audit(tx, { accountId, staffAccountId, ...change, at });
      await recordEvent(tx, outbox, Events.profileUpdated, { accountId, username: row.username, updatedAt: at.toISOString() });
      return true;
    });
    if (changed) this.relay?.kick();
    const row = await this.profiles.byAccount(this.db, accountId);
    if (!row) throw notFound();
    return this.viewOf(row);
  }
}
