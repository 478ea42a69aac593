import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, StaffAssignableRoles, StaffMessages, type StaffIdentityView } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { AccountErrors } from '../../accounts/account.errors.js';
import { StaffAccess } from '../staff-access.js';
import { StaffQueries } from '../staff-queries.js';
import { StaffRepository } from '../staff.repository.js';
import { changeRole } from './change-role.js';

type AssignableRole = (typeof StaffAssignableRoles)[number];
const assignable = (role: string): role is AssignableRole => (StaffAssignableRoles as readonly string[]).includes(role);

/**
 * Staff make a customer a team leader, or an ordinary user again. Only between those two: print and staff accounts
 * are made by the command, team members by their leader. The change, its audit row (who, when, before, after) and
 * `identity.user.role-changed` are one transaction; setting the role it already has changes and records nothing.
 */
@Injectable()
export class SetRole {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
    @Inject(StaffAccess) private readonly access: StaffAccess,
    @Inject(StaffQueries) private readonly queries: StaffQueries,
  ) {}

  async execute(staffAccountId: string, accountId: string, role: AssignableRole): Promise<StaffIdentityView> {
    await this.access.assertStaff(staffAccountId);
    const changed = await this.db.transaction(async (tx) => {
      const account = await this.staff.lock(tx, accountId);
      if (!account) throw AccountErrors.accountNotFound();
      if (!assignable(account.role)) {
        throw new ServiceError({ statusCode: 409, code: ErrorCode.Conflict, message: StaffMessages.roleNotAssignable });
      }
      if (account.role === role) return false;
      await changeRole(tx, this.staff, { accountId, from: account.role, to: role, byStaff: staffAccountId });
      return true;
    });
    if (changed) this.relay?.kick();
    return this.queries.inspect(staffAccountId, accountId);
  }
}
