import { describe, expect, it } from '@jest/globals';
import { AccountMessages } from '@digicard/contracts';
import { LINK_CHECK_FAILED_MESSAGE, switchAccountQuestion, toLinkCheckOutcome } from './check-link-once';

const refused = (statusCode: number, code: string, message = '') => ({ ok: false as const, error: { statusCode, code, message } });

describe('reading whose account an emailed link is for', () => {
  it('goes on for the signed-in account’s own link, and asks for another account’s, by its masked address', () => {
    expect(toLinkCheckOutcome({ ok: true, status: 200, data: { forSignedInAccount: true, maskedEmail: 'a***@e***.za' } })).toEqual({
      kind: 'own',
    });
    expect(toLinkCheckOutcome({ ok: true, status: 200, data: { forSignedInAccount: false, maskedEmail: 'b***@m***.za' } })).toEqual({
      kind: 'other',
      maskedEmail: 'b***@m***.za',
    });
  });

  it('reads a used or malformed link as invalid, a session ended meanwhile as signed out, and the rest as a failure', () => {
    expect(toLinkCheckOutcome(refused(400, 'LINK_INVALID', AccountMessages.linkInvalid))).toEqual({
      kind: 'invalid',
      message: AccountMessages.linkInvalid,
    });
    expect(toLinkCheckOutcome(refused(400, 'VALIDATION_FAILED', 'Please correct the highlighted fields.'))).toEqual({
      kind: 'invalid',
      message: AccountMessages.linkInvalid,
    });
    expect(toLinkCheckOutcome(refused(401, 'UNAUTHORIZED', 'Please log in first.'))).toEqual({ kind: 'signed-out' });
    expect(toLinkCheckOutcome(refused(429, 'TOO_MANY_REQUESTS', 'Too many attempts. Please try again in 5 minutes.'))).toEqual({
      kind: 'failed',
      message: 'Too many attempts. Please try again in 5 minutes.',
    });
    expect(toLinkCheckOutcome(refused(503, 'SERVICE_UNAVAILABLE', 'Service unavailable'))).toEqual({
      kind: 'failed',
      message: LINK_CHECK_FAILED_MESSAGE,
    });
  });

  it('asks with the signed-in address in full and the other only masked', () => {
    expect(switchAccountQuestion('ayanda@example.co.za', 'b***@m***.za')).toEqual({
      situation: 'You are signed in as ayanda@example.co.za. This link is for another account.',
      question: 'Sign out and continue as b***@m***.za?',
    });
  });
});
