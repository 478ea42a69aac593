import { Events, type Role } from '@digicard/contracts';
import { recordEvent, type Transaction } from '@digicard/messaging';
import { outbox } from '../../db/schema.js';
import type { StaffRepository } from '../staff.repository.js';

/**
 * Every change of an account's role, in the caller's transaction: the role, and `identity.user.role-changed` (the
 * gateway's role sync rewrites the account's sessions on it, so the change reaches signed-in sessions at once, or
 * with `signOut` ends them). A change staff make is audited too (who, when, before, after).
 */
export async function changeRole(
  tx: Transaction,
  staff: StaffRepository,
  change: { accountId: string; from: Role; to: Role; byStaff?: string; signOut?: boolean },
): Promise<void> {
  const at = new Date();
  await staff.setRole(tx, change.accountId, change.to, at);
  if (change.byStaff !== undefined) {
    await staff.audit(tx, {
      accountId: change.accountId,
      staffAccountId: change.byStaff,
      change: 'role',
      before: change.from,
      after: change.to,
      at,
    });
  }
  await recordEvent(tx, outbox, Events.roleChanged, {
    accountId: change.accountId,
    role: change.to,
    changedAt: at.toISOString(),
    signOut: change.signOut ?? false,
  });
}
