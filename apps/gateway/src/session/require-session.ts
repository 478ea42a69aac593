import { ErrorCode } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import type { Session } from './session.store.js';

/** The account id of the signed-in owner, or 401. */
export function requireAccount(session: Session | null): string {
  if (!session) throw new ApiHttpException({ statusCode: 401, code: ErrorCode.Unauthorized, message: 'Please log in first.' });
  return session.data.accountId;
}
