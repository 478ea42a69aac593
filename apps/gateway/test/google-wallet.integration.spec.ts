import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  DEFAULTS,
  GoogleWalletStandIn,
  makeGoogleTestCredentials,
  registerOwner,
  verifyRs256Jwt,
  waitFor,
  type GoogleTestCredentials,
  type TestOwner,
} from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// Google Wallet through the gateway, as the dashboard uses it: the owner's save link (session), its limit, the
// object written at Google after a Save, a leader's "give every rep their pass" (role, CSRF, limit), and health.
// The gateway, identity and profiles run in this process; Google is a local stand-in.

const SAVE = 'https://pay.google.com/gp/v/save/';

describe('Google Wallet through the gateway', () => {
  let credentials: GoogleTestCredentials;
  let google: GoogleWalletStandIn;
  let system: InProcessGateway;
  let services: ServicesBehind;
  let owner: TestOwner;
  let other: TestOwner;
  const queuePrefix = `gw-g-${randomBytes(4).toString('hex')}`;

  const linkOf = async (who: TestOwner) => {
    const res = await who.client.request('/api/wallet/google');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    const saveUrl = (res.body as { saveUrl: string }).saveUrl;
    assert.ok(saveUrl.startsWith(SAVE));
    return verifyRs256Jwt(saveUrl.slice(SAVE.length), credentials.publicKey).claims['payload'].genericObjects[0] as Record<string, any> & {
      id: string;
    };
  };

  beforeAll(async () => {
    credentials = makeGoogleTestCredentials();
    google = await new GoogleWalletStandIn(credentials).start();
    system = await InProcessGateway.start({ RATE_LIMIT_WALLET_DOWNLOAD_ACCOUNT: '4/3600', RATE_LIMIT_WALLET_OFFER_ACCOUNT: '2/3600' });
    services = await ServicesBehind.start(system, ['identity', 'profiles'], {
      profiles: {
        PUBLIC_URL: system.gatewayUrl,
        REDIS_URL: DEFAULTS.redisUrl,
        QUEUE_PREFIX: queuePrefix,
        GOOGLE_WALLET_SYNC_BACKOFF_MS: '100',
        ...credentials.env(google),
      },
    });
    owner = await registerOwner(
      system,
      { username: 'kagiso', firstName: 'Kagiso', lastName: 'Molefe', email: 'kagiso@example.co.za' },
      { verify: false },
    );
    other = await registerOwner(
      system,
      { username: 'marike', firstName: 'Marike', lastName: 'Botha', email: 'marike@example.co.za' },
      { verify: false },
    );
  });
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
    await google?.stop();
  });

  it('gives the owner their save link (signed out 401), their own card only, and writes it at Google after a Save', async () => {
    assert.equal((await system.api('/api/wallet/google')).status, 401);
    assert.deepEqual((await owner.client.request('/api/wallet')).body, { apple: { available: false }, google: { available: true } });
    const mine = await linkOf(owner);
    assert.equal(mine['header'].defaultValue.value, 'Kagiso Molefe');
    assert.equal(mine['barcode'].value, `${system.gatewayUrl}/kagiso?src=wallet`);
    const theirs = await linkOf(other);
    assert.notEqual(theirs.id, mine.id);
    assert.equal(theirs['header'].defaultValue.value, 'Marike Botha');

    google.saved(mine);
    const saved = await owner.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...(await owner.client.request('/api/profile')).body.document, title: 'Attorney' } },
    });
    assert.equal(saved.status, 200);
    await waitFor('the object written', () =>
      Promise.resolve(google.objects.get(mine.id)?.['subheader']?.defaultValue.value === 'Attorney'),
    );
    assert.equal(google.objectCalls(theirs.id).length, 0, 'the other account’s object is not touched');
  });

  it('limits save links per account (shared with Apple’s downloads)', async () => {
    const statuses: number[] = [];
    // `other` asked once above: 4 an hour.
    for (let i = 0; i < 4; i += 1) statuses.push((await other.client.request('/api/wallet/google')).status);
    assert.equal(statuses.join(','), '200,200,200,429');
  });

  it('lets only a team leader give every rep their pass, with the CSRF token, a few times an hour', async () => {
    assert.equal((await system.api('/api/team/wallet-passes', { method: 'POST' })).status, 401);
    assert.equal((await owner.client.request('/api/team/wallet-passes', { method: 'POST' })).status, 403, 'not a team leader');
    const leader = await registerOwner(
      system,
      { username: 'ayanda', firstName: 'Ayanda', lastName: 'Mthembu', email: 'ayanda@example.co.za' },
      { verify: false },
    );
    await services.get('identity').sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1`, [leader.accountId]);
    const client = system.client();
    assert.equal((await client.request('/api/session', { body: { email: leader.email, password: leader.password } })).status, 200);
    assert.equal((await client.request('/api/team/wallet-passes', { method: 'POST', csrf: false })).status, 403, 'a forged request');
    const sent = await client.request('/api/team/wallet-passes', { method: 'POST' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(sent.body, { sent: 0 }, 'no reps yet');
    assert.equal((await client.request('/api/team/wallet-passes', { method: 'POST' })).status, 200);
    assert.equal((await client.request('/api/team/wallet-passes', { method: 'POST' })).status, 429);
  });

  it('says in the system’s health that Google Wallet is on', async () => {
    const report = JSON.parse(await (await fetch(`${system.gatewayHealthUrl}/health/system`)).text()) as {
      features?: Record<string, { status: string }>;
    };
    assert.deepEqual(report.features?.['profiles.googleWallet'], { status: 'on' });
    assert.equal(report.features?.['profiles.appleWallet']?.status, 'off');
  });
});
