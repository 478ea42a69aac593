import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, StaffMessages, type StaffIdentityView, type StaffRevocableRoles } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { AccountErrors } from '../../accounts/account.errors.js';
import { StaffAccess } from '../staff-access.js';
import { StaffQueries } from '../staff-queries.js';
import { StaffRepository } from '../staff.repository.js';
import { changeRole } from './change-role.js';

/**
 * Staff take a print or staff role away (those roles are given by the command line, never here): the account becomes
 * an ordinary user. The change, its audit row and `identity.user.role-changed` (with `signOut`) are one transaction;
 * the gateway's role sync ends the account's sessions on that event (the staff console's request ends them at once as
 * well; the event makes it certain when Redis failed that request), and identity and orders check the role in
 * identity's records on every staff or print call, so the powers end at once. Staff cannot take away their own staff role (the
 * last staff member would lock everyone out); the account must hold the role named (409 otherwise).
 */
@Injectable()
export class RevokeRole {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
    @Inject(StaffAccess) private readonly access: StaffAccess,
    @Inject(StaffQueries) private readonly queries: StaffQueries,
  ) {}

  async execute(staffAccountId: string, accountId: string, role: (typeof StaffRevocableRoles)[number]): Promise<StaffIdentityView> {
    await this.access.assertStaff(staffAccountId);
    if (accountId === staffAccountId)
      throw new ServiceError({ statusCode: 409, code: ErrorCode.Conflict, message: StaffMessages.revokeOwnRole });
    await this.db.transaction(async (tx) => {
      const account = await this.staff.lock(tx, accountId);
      if (!account) throw AccountErrors.accountNotFound();
      if (account.role !== role) throw new ServiceError({ statusCode: 409, code: ErrorCode.Conflict, message: StaffMessages.roleNotHeld });
      await changeRole(tx, this.staff, { accountId, from: role, to: 'user', byStaff: staffAccountId, signOut: true });
    });
    this.relay?.kick();
    return this.queries.inspect(staffAccountId, accountId);
  }
}
