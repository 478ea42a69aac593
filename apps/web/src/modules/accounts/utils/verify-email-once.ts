import { AccountMessages, ErrorCode } from '@digicard/contracts';
import { NETWORK_FAILURE_STATUS } from '../../api/http';
import { isTooManyRequests } from '../../forms/utils/apply-api-error';
import { refreshSession } from '../../session/utils/session-actions';
import { verifyEmail } from '../api/accounts';

export type VerificationOutcome =
  { kind: 'verified'; message: string } | { kind: 'invalid'; message: string } | { kind: 'failed'; message: string };

const VERIFY_FAILED_MESSAGE = 'We could not verify your email right now. Please try again in a minute.';

/** One request per token and attempt, however often React runs the effect that asks (StrictMode runs it twice). */
const requests = new Map<string, Promise<VerificationOutcome>>();

export function verifyEmailOnce(token: string, attempt: number): Promise<VerificationOutcome> {
  const key = `${attempt}:${token}`;
  let request = requests.get(key);
  if (!request) {
    request = verify(token);
    requests.set(key, request);
  }
  return request;
}

async function verify(token: string): Promise<VerificationOutcome> {
  const result = await verifyEmail({ token });
  if (result.ok) {
    void refreshSession(); // the session's user now says isVerified
    return { kind: 'verified', message: result.data.message };
  }
  const { error } = result;
  if (error.code === ErrorCode.LinkInvalid) return { kind: 'invalid', message: error.message || AccountMessages.linkInvalid };
  if (error.statusCode === 400) return { kind: 'invalid', message: AccountMessages.linkInvalid };
  // Signed in to another account since the page asked (another tab): the server's words, "sign out first".
  if (error.code === ErrorCode.LinkForOtherAccount) return { kind: 'failed', message: error.message };
  if (isTooManyRequests(error) || error.statusCode === NETWORK_FAILURE_STATUS) return { kind: 'failed', message: error.message };
  return { kind: 'failed', message: VERIFY_FAILED_MESSAGE };
}
