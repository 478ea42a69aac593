import type { z } from 'zod';
import type { Events, SessionUser, UserRegistered } from '@digicard/contracts';
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

/** `identity.user.registered` of a stored account: who it is, never a secret (sign-up, team reps, staff accounts). */
export const registeredEvent = (a: AccountRow): UserRegistered => ({
  accountId: a.id,
  username: a.username,
  email: a.email,
  firstName: a.firstName,
  lastName: a.lastName,
  role: a.role,
  registeredAt: a.createdAt.toISOString(),
});

/** `identity.user.changed` of a stored account: who it is now (a rename, a confirmed email, a leader's edit of a rep). */
export const changedEvent = (a: AccountRow, at: Date): z.input<typeof Events.userChanged.data> => ({
  accountId: a.id,
  username: a.username,
  email: a.email,
  firstName: a.firstName,
  lastName: a.lastName,
  changedAt: at.toISOString(),
});
