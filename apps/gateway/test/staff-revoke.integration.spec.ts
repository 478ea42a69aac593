import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { registerOwner } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// Issue 28, item 7: staff take a print or staff role away with a command that changes the role and ends the account's
// sessions. The in-process gateway with identity and profiles behind it: every signed-in session of the account is
// signed out at once (not only demoted by the role sync a moment later); the staff member who revoked stays signed in.

const password = 'a long enough passphrase';

describe('taking a print or staff role away', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;

  /** An account with `role` in identity and profiles, signed in again (twice: two browsers) to carry it. */
  async function withRole(username: string, role: 'print' | 'staff') {
    const email = `${username}@digicard.test`;
    const who = await registerOwner(system, { username, firstName: 'Test', lastName: username, email, password }, { verify: false });
    await services.get('identity').sql('UPDATE identity.accounts SET role = $2 WHERE id = $1', [who.accountId, role]);
    await services.get('profiles').sql('UPDATE profiles.profiles SET role = $2 WHERE account_id = $1', [who.accountId, role]);
    const browsers = [system.client(), system.client()];
    for (const client of browsers) {
      const signedIn = await client.request('/api/session', { body: { email, password } });
      assert.equal(signedIn.body.user.role, role);
    }
    return { accountId: who.accountId, browsers };
  }

  beforeAll(async () => {
    system = await InProcessGateway.start();
    services = await ServicesBehind.start(system, ['identity', 'profiles']);
  }, 120_000);
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  it('signs every session of the account out at once; the staff member who did it stays signed in', async () => {
    const desk = await withRole('desk-revoker', 'staff');
    const press = await withRole('press-revoked', 'print');
    const other = await withRole('desk-revoked', 'staff');
    const [staff] = desk.browsers;

    const print = await staff!.request(`/api/staff/accounts/${press.accountId}/role-revocation`, { body: { role: 'print' } });
    assert.equal(print.status, 200, JSON.stringify(print.body));
    assert.equal(print.body.account.role, 'user');
    for (const browser of press.browsers) {
      assert.equal((await browser.request('/api/session')).body.user, null, 'signed out');
      assert.equal((await browser.request('/api/print/orders')).status, 401);
    }

    const revoked = await staff!.request(`/api/staff/accounts/${other.accountId}/role-revocation`, { body: { role: 'staff' } });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    for (const browser of other.browsers)
      assert.equal((await browser.request('/api/staff/account-search', { body: { query: 'desk' } })).status, 401);

    // The revoker's own sessions are untouched; signing in again, the revoked account is an ordinary user.
    for (const browser of desk.browsers) assert.equal((await browser.request('/api/session')).body.user.role, 'staff');
    const again = system.client();
    const signedIn = await again.request('/api/session', { body: { email: 'press-revoked@digicard.test', password } });
    assert.equal(signedIn.body.user.role, 'user');
  });
});
