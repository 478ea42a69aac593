import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, Events, type StaffProfileView } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay, type Transaction } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import type { ProfileRow } from '../../profiles/profiles.repository.js';
import { accountNotFound, StaffQueries } from '../staff-queries.js';
import { StaffRepository } from '../staff.repository.js';

/** What one staff change did to a profile, as its audit row records it. */
export type Change =
  | { change: 'partner'; before: boolean; after: boolean }
  | { change: 'vanityPaths'; before: string[]; after: string[] }
  | { change: 'business'; before: string | null; after: string | null };

export const fieldError = (field: string, message: string) =>
  new ServiceError({
    statusCode: 400,
    code: ErrorCode.ValidationFailed,
    message: 'Please correct the highlighted fields.',
    fieldErrors: { [field]: [message] },
  });

/**
 * The transaction every staff change of a profile runs in: checked against profiles' own record of the staff
 * member's role, the profile locked, the change applied, and its audit row and `profiles.profile.updated` (cached
 * pages drop) written with it; a change to what is already there records nothing.
 */
@Injectable()
export class AuditedChange {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
    @Inject(StaffQueries) private readonly queries: StaffQueries,
  ) {}

  async run(
    staffAccountId: string,
    accountId: string,
    work: (tx: Transaction, row: ProfileRow) => Promise<Change | null>,
  ): Promise<StaffProfileView> {
    await this.queries.assertStaff(staffAccountId);
    const changed = await this.db.transaction(async (tx) => {
      const row = await this.staff.lock(tx, accountId);
      if (!row) throw accountNotFound();
      const change = await work(tx, row);
      if (!change) return false;
      const at = new Date();
      await this.staff.audit(tx, { accountId, staffAccountId, ...change, at });
      await recordEvent(tx, outbox, Events.profileUpdated, { accountId, username: row.username, updatedAt: at.toISOString() });
      return true;
    });
    if (changed) this.relay?.kick();
    return this.queries.viewOfAccount(accountId);
  }
}
