import { AccountMessages, ErrorCode, type EmailLinkOwner, type SignInLinkPurpose } from '@digicard/contracts';
import { NETWORK_FAILURE_STATUS, type HttpResult } from '../../api/http';
import { isTooManyRequests } from '../../forms/utils/apply-api-error';
import { checkEmailLink } from '../api/accounts';

/**
 * What a signed-in browser learns before it uses a verification or reset link: the link is its own account's, another
 * account's (masked address), unusable, or the question could not be asked (or the session has ended meanwhile).
 */
export type LinkCheckOutcome =
  | { kind: 'own' }
  | { kind: 'other'; maskedEmail: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'signed-out' }
  | { kind: 'failed'; message: string };

export const LINK_CHECK_FAILED_MESSAGE = 'We could not open this link right now. Please try again in a minute.';

/** The answer of POST /api/email-links/check, read for the page. */
export function toLinkCheckOutcome(result: HttpResult<EmailLinkOwner>): LinkCheckOutcome {
  if (result.ok) return result.data.forSignedInAccount ? { kind: 'own' } : { kind: 'other', maskedEmail: result.data.maskedEmail };
  const { error } = result;
  if (error.code === ErrorCode.LinkInvalid) return { kind: 'invalid', message: error.message || AccountMessages.linkInvalid };
  if (error.statusCode === 400) return { kind: 'invalid', message: AccountMessages.linkInvalid };
  if (error.statusCode === 401) return { kind: 'signed-out' };
  if (isTooManyRequests(error) || error.statusCode === NETWORK_FAILURE_STATUS) return { kind: 'failed', message: error.message };
  return { kind: 'failed', message: LINK_CHECK_FAILED_MESSAGE };
}

/**
 * The question the page asks before a link signs another account in (decision 0010): the signed-in account named in
 * full (it is the person's own), the link's account only by its masked address.
 */
export function switchAccountQuestion(signedInEmail: string, maskedEmail: string): { situation: string; question: string } {
  return {
    situation: `You are signed in as ${signedInEmail}. This link is for another account.`,
    question: `Sign out and continue as ${maskedEmail}?`,
  };
}

/** One request per link and attempt, however often React runs the effect that asks (StrictMode runs it twice). */
const requests = new Map<string, Promise<LinkCheckOutcome>>();

export function checkLinkOnce(purpose: SignInLinkPurpose, token: string, attempt: number): Promise<LinkCheckOutcome> {
  const key = `${attempt}:${purpose}:${token}`;
  let request = requests.get(key);
  if (!request) {
    request = checkEmailLink({ purpose, token }).then(toLinkCheckOutcome);
    requests.set(key, request);
  }
  return request;
}
