import type { Rep } from '@digicard/contracts';
import type { MemberRow } from './members.repository.js';

export const toRep = (row: MemberRow): Rep => ({
  accountId: row.memberAccountId,
  username: row.username,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  tel: row.tel,
  addedAt: row.addedAt.toISOString(),
  active: row.suspendedAt === null,
});
