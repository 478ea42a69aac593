import type { StaffAccountSummary, StaffAuditEntry } from '@digicard/contracts';
import type { AccountRow } from '../accounts/accounts.repository.js';
import type { StaffAuditRow } from './staff.repository.js';

export const toSummary = (a: AccountRow): StaffAccountSummary => ({
  id: a.id,
  username: a.username,
  email: a.email,
  firstName: a.firstName,
  lastName: a.lastName,
  role: a.role,
  isVerified: a.isVerified,
  createdAt: a.createdAt.toISOString(),
});

export const toAuditEntry = (r: StaffAuditRow): StaffAuditEntry => ({
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
