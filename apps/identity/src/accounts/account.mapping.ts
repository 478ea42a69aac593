import type { SessionUser } from '@digicard/contracts';
import type { AccountRow } from './accounts.repository.js';

/** An account as the gateway keeps it in the session: never its password hash. */
export const toSessionUser = (a: AccountRow): SessionUser => ({
  id: a.id,
  username: a.username,
  email: a.email,
  firstName: a.firstName,
  lastName: a.lastName,
  role: a.role,
  isVerified: a.isVerified,
});
