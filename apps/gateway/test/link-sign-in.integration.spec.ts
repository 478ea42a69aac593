import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { AccountMessages, Rpc } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import type { ApiClient } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// Login CSRF through links (issue 28 item 11): the verification link and the reset link sign their account in. A
// browser signed in to one account that opens another account's link (a stranger mailed it, or it is the person's own
// second account) must stay signed in as it was until its person agrees to switch; the page asks, and agreeing is a
// sign-out (DELETE /api/session, CSRF-checked) followed by the link as a signed-out browser uses it. The gateway in
// the test's process with identity behind it; the links are issued as notifications gets them (a hash only).

const password = 'a long enough passphrase';

interface Account {
  id: string;
  email: string;
  client: ApiClient;
}

describe('an emailed link never switches a signed-in browser to another account', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;
  let ayanda: Account;
  let bongi: Account;

  /** Registers through the gateway and signs in with the password (no link used). */
  async function signedIn(username: string, email: string): Promise<Account> {
    const client = system.client();
    const registered = await client.request('/api/accounts', {
      body: { username, firstName: username, lastName: 'Test', email, password },
    });
    assert.equal(registered.status, 201);
    const login = await client.request('/api/session', { body: { email, password } });
    assert.equal(login.status, 200);
    return { id: login.body.user.id as string, email, client };
  }

  async function linkFor(account: Account, purpose: 'verify-email' | 'reset-password'): Promise<string> {
    const { token, tokenHash } = newEmailToken();
    const rpc = purpose === 'verify-email' ? Rpc.issueVerificationToken : Rpc.issuePasswordResetToken;
    const issued = await services.get('identity').call(rpc, { accountId: account.id, tokenHash });
    assert.ok(issued.ok && issued.value, `a ${purpose} link for ${account.email}`);
    return token;
  }

  /** Who the browser is signed in as (null signed out), as GET /api/session says. */
  async function whoIs(client: ApiClient): Promise<string | null> {
    const session = await client.request('/api/session');
    assert.equal(session.status, 200);
    return (session.body.user?.email as string | undefined) ?? null;
  }

  beforeAll(async () => {
    system = await InProcessGateway.start();
    services = await ServicesBehind.start(system, ['identity']);
    ayanda = await signedIn('ayanda', 'ayanda@example.co.za');
    bongi = await signedIn('bongi', 'Bongi.Mthembu@Mail.Example.co.za');
  });
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  it('signed in as A, B’s verification link is refused (409): still A, the same session, B unverified, the link unspent', async () => {
    const token = await linkFor(bongi, 'verify-email');
    const sessionBefore = ayanda.client.sessionId;
    const refused = await ayanda.client.request('/api/email-verification', { body: { token } });
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, { statusCode: 409, code: 'LINK_FOR_OTHER_ACCOUNT', message: AccountMessages.linkForOtherAccount });
    assert.equal(refused.headers.get('set-cookie'), null, 'no new session cookie');
    assert.equal(ayanda.client.sessionId, sessionBefore);
    assert.equal(await whoIs(ayanda.client), ayanda.email);
    assert.equal((await bongi.client.request('/api/session')).body.user.isVerified, false);

    // The link still works for a browser that is signed out (as before this rule): it verifies B and signs B in.
    const elsewhere = system.client();
    assert.equal((await elsewhere.request('/api/email-verification', { body: { token } })).status, 200);
    assert.equal(await whoIs(elsewhere), bongi.email);
    assert.equal(await whoIs(ayanda.client), ayanda.email);
  });

  it('signed in as A, B’s reset link is refused (409) before the password is looked at: still A, B’s password unchanged', async () => {
    const token = await linkFor(bongi, 'reset-password');
    for (const tried of ['qwerty123', 'a password B never chose']) {
      const refused = await ayanda.client.request('/api/password-reset', { body: { token, password: tried } });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 'LINK_FOR_OTHER_ACCOUNT');
    }
    assert.equal(await whoIs(ayanda.client), ayanda.email);
    assert.equal(await whoIs(bongi.client), bongi.email, 'B’s own sessions are not ended either');
    const b = system.client();
    assert.equal((await b.request('/api/session', { body: { email: bongi.email, password } })).status, 200, 'B’s password unchanged');
  });

  it('tells a signed-in browser whose account a link is for, B’s address masked, spending nothing', async () => {
    const verify = await linkFor(bongi, 'reset-password');
    const other = await ayanda.client.request('/api/email-links/check', { body: { purpose: 'reset-password', token: verify } });
    assert.equal(other.status, 200);
    assert.deepEqual(other.body, { forSignedInAccount: false, maskedEmail: 'b***@m***.za' });
    const own = await linkFor(ayanda, 'reset-password');
    const mine = await ayanda.client.request('/api/email-links/check', { body: { purpose: 'reset-password', token: own } });
    assert.deepEqual(mine.body, { forSignedInAccount: true, maskedEmail: 'a***@e***.za' });

    // The wrong purpose, an unknown link, a malformed body; signed out (401) and without the CSRF token (403).
    const wrongPurpose = await ayanda.client.request('/api/email-links/check', { body: { purpose: 'verify-email', token: verify } });
    assert.equal(wrongPurpose.status, 400);
    assert.equal(wrongPurpose.body.code, 'LINK_INVALID');
    const unknown = await ayanda.client.request('/api/email-links/check', {
      body: { purpose: 'reset-password', token: randomBytes(16).toString('base64url') },
    });
    assert.equal(unknown.body.code, 'LINK_INVALID');
    const malformed = await ayanda.client.request('/api/email-links/check', { body: { purpose: 'email-change', token: 'short' } });
    assert.equal(malformed.status, 400);
    assert.deepEqual(Object.keys(malformed.body.fieldErrors).sort(), ['purpose', 'token']);
    assert.equal(
      (await system.client().request('/api/email-links/check', { body: { purpose: 'reset-password', token: verify } })).status,
      401,
    );
    assert.equal(
      (await ayanda.client.request('/api/email-links/check', { body: { purpose: 'reset-password', token: verify }, csrf: false })).status,
      403,
    );

    // Nothing was spent by asking: each link still works for its own account.
    const signedOut = system.client();
    assert.equal(
      (await signedOut.request('/api/password-reset', { body: { token: verify, password: 'a new karoo passphrase' } })).status,
      200,
    );
    assert.equal(await whoIs(signedOut), bongi.email);
    assert.equal(await whoIs(ayanda.client), ayanda.email);
  });

  it('switches only after the person agreed: a sign-out (refused without the CSRF token), then the link signs B in', async () => {
    const token = await linkFor(bongi, 'reset-password');
    const browser = system.client();
    assert.equal((await browser.request('/api/session', { body: { email: ayanda.email, password } })).status, 200);
    assert.equal((await browser.request('/api/session', { method: 'DELETE', csrf: false })).status, 403, 'a forged sign-out');
    assert.equal(await whoIs(browser), ayanda.email);
    assert.equal((await browser.request('/api/session', { method: 'DELETE' })).status, 204);
    const reset = await browser.request('/api/password-reset', { body: { token, password: 'a second karoo passphrase' } });
    assert.equal(reset.status, 200);
    assert.equal(reset.body.user.email, bongi.email);
    assert.equal(await whoIs(browser), bongi.email);
  });

  it('asks nothing for the signed-in account’s own links: verification keeps the session, a reset starts a new one', async () => {
    const sessionBefore = ayanda.client.sessionId;
    const verified = await ayanda.client.request('/api/email-verification', { body: { token: await linkFor(ayanda, 'verify-email') } });
    assert.equal(verified.status, 200);
    assert.equal(verified.body.message, AccountMessages.verified);
    assert.equal(ayanda.client.sessionId, sessionBefore);
    assert.equal((await ayanda.client.request('/api/session')).body.user.isVerified, true);

    const reset = await ayanda.client.request('/api/password-reset', {
      body: { token: await linkFor(ayanda, 'reset-password'), password: 'a third karoo passphrase' },
    });
    assert.equal(reset.status, 200);
    assert.notEqual(ayanda.client.sessionId, sessionBefore, 'a new session id after the reset');
    assert.equal(await whoIs(ayanda.client), ayanda.email);
  });
});
