import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { PKPASS_MEDIA_TYPE } from '@digicard/contracts';
import {
  ApnsStandIn,
  DEFAULTS,
  makeAppleTestCredentials,
  registerOwner,
  unzipPass,
  waitFor,
  type AppleTestCredentials,
  type TestOwner,
  withinOneWindow,
} from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// Apple Wallet through the gateway, as the dashboard and a device use it: the owner's download (session), Apple's
// pass web service (no session: `Authorization: ApplePass <token>`, checked by profiles), its limits, and health.
// The gateway, identity and profiles run in this process; APNs is a local HTTP/2 stand-in.

const PASS_TYPE = 'pass.test.digicard.card';
const WEB_SERVICE = '/api/wallet/apple/v1';

describe('Apple Wallet through the gateway', () => {
  let credentials: AppleTestCredentials;
  let apns: ApnsStandIn;
  let system: InProcessGateway;
  let services: ServicesBehind;
  let owner: TestOwner;
  let other: TestOwner;
  const queuePrefix = `gw-w-${randomBytes(4).toString('hex')}`;
  let n = 0;

  /** A device's call: no cookie, no origin, the pass token if given, from its own client address. */
  const device = (
    path: string,
    init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; from?: string } = {},
  ) => {
    n += 1;
    return fetch(`${system.gatewayUrl}${WEB_SERVICE}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'x-forwarded-for': init.from ?? `198.51.100.${n % 250}`,
        ...(init.token ? { authorization: `ApplePass ${init.token}` } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.headers ?? {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  };

  /** The owner's pass as the dashboard's link downloads it. */
  const download = (who: TestOwner) =>
    fetch(`${system.gatewayUrl}/api/wallet/apple/pass.pkpass`, { headers: { cookie: who.client.cookie! } });
  const passOf = async (res: Response) => {
    const files = unzipPass(Buffer.from(await res.arrayBuffer()));
    return JSON.parse(files.get('pass.json')!.toString('utf8')) as Record<string, any>;
  };

  beforeAll(async () => {
    credentials = makeAppleTestCredentials(PASS_TYPE);
    apns = await new ApnsStandIn(credentials).start();
    system = await InProcessGateway.start({
      TRUST_PROXY: '1',
      RATE_LIMIT_WALLET_IP: '12/60',
      RATE_LIMIT_WALLET_DOWNLOAD_ACCOUNT: '4/3600',
    });
    services = await ServicesBehind.start(system, ['identity', 'profiles'], {
      profiles: { PUBLIC_URL: system.gatewayUrl, REDIS_URL: DEFAULTS.redisUrl, QUEUE_PREFIX: queuePrefix, ...credentials.env(apns.url) },
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
    await apns?.stop();
    credentials?.remove();
    const redis = new Redis(DEFAULTS.redisUrl);
    const keys = await redis.keys(`${queuePrefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('offers the owner their pass: signed out 401; the pass as application/vnd.apple.pkpass with its web service', async () => {
    assert.equal((await system.api('/api/wallet')).status, 401);
    assert.deepEqual((await owner.client.request('/api/wallet')).body, { apple: { available: true }, google: { available: false } });
    assert.equal((await fetch(`${system.gatewayUrl}/api/wallet/apple/pass.pkpass`)).status, 401);
    const res = await download(owner);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), PKPASS_MEDIA_TYPE);
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="Kagiso-Molefe.pkpass"');
    assert.ok(res.headers.get('last-modified'));
    assert.match(res.headers.get('cache-control') ?? '', /private/);
    const pass = await passOf(res);
    assert.equal(pass['webServiceURL'], `${system.gatewayUrl}/api/wallet/apple`);
    assert.equal(pass['barcodes'][0].message, `${system.gatewayUrl}/kagiso?src=wallet`);
    assert.equal(pass['generic'].primaryFields[0].value, 'Kagiso Molefe');
  });

  it('runs Apple’s web service with the pass’s own token: 401 without it or with another pass’s, 201/200, 204, 304', async () => {
    const mine = await passOf(await download(owner));
    const theirs = await passOf(await download(other));
    const serial = mine['serialNumber'] as string;
    const token = mine['authenticationToken'] as string;
    const deviceId = randomBytes(16).toString('hex');
    const registration = `/devices/${deviceId}/registrations/${PASS_TYPE}/${serial}`;
    const pushToken = randomBytes(32).toString('hex');

    assert.equal((await device(registration, { method: 'POST', body: { pushToken } })).status, 401, 'no token');
    assert.equal(
      (await device(registration, { method: 'POST', body: { pushToken }, headers: { authorization: `Bearer ${token}` } })).status,
      401,
    );
    const wrong = await device(registration, { method: 'POST', token: theirs['authenticationToken'] as string, body: { pushToken } });
    assert.equal(wrong.status, 401, 'another account’s pass token');
    assert.deepEqual(JSON.parse(await wrong.text()), { statusCode: 401, code: 'UNAUTHORIZED', message: 'This pass is not yours.' });
    assert.equal((await device(registration, { method: 'POST', token, body: {} })).status, 400, 'no push token');
    assert.equal(
      (await device(`/devices/${deviceId}/registrations/not-a-pass-type/${serial}`, { method: 'POST', token, body: { pushToken } })).status,
      404,
    );
    assert.equal((await device(registration, { method: 'POST', token, body: { pushToken } })).status, 201);
    assert.equal((await device(registration, { method: 'POST', token, body: { pushToken } })).status, 200, 'already registered');

    const listed = await device(`/devices/${deviceId}/registrations/${PASS_TYPE}`);
    assert.equal(listed.status, 200);
    const serials = JSON.parse(await listed.text()) as { serialNumbers: string[]; lastUpdated: string };
    assert.deepEqual(serials.serialNumbers, [serial]);
    assert.equal((await device(`/devices/${deviceId}/registrations/${PASS_TYPE}?passesUpdatedSince=${serials.lastUpdated}`)).status, 204);

    const latest = await device(`/passes/${PASS_TYPE}/${serial}`, { token });
    assert.equal(latest.status, 200);
    assert.equal(latest.headers.get('content-type'), PKPASS_MEDIA_TYPE);
    const lastModified = latest.headers.get('last-modified')!;
    assert.equal((await passOf(latest))['serialNumber'], serial);
    assert.equal((await device(`/passes/${PASS_TYPE}/${serial}`, { token, headers: { 'if-modified-since': lastModified } })).status, 304);
    assert.equal((await device(`/passes/${PASS_TYPE}/${serial}`, { token: theirs['authenticationToken'] as string })).status, 401);
    assert.equal(
      (await device(`/passes/${PASS_TYPE}/${theirs['serialNumber'] as string}`, { token })).status,
      401,
      'another account’s serial',
    );
    assert.equal((await device(`/passes/${PASS_TYPE}/too-short`, { token })).status, 404);

    // A Save that changes the card: the device is pushed, and then finds the pass changed.
    const saved = await owner.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...(await owner.client.request('/api/profile')).body.document, title: 'Attorney' } },
    });
    assert.equal(saved.status, 200);
    await waitFor('the push', () => Promise.resolve(apns.received.some((r) => r.deviceToken === pushToken)));
    const changed = await device(`/devices/${deviceId}/registrations/${PASS_TYPE}?passesUpdatedSince=${serials.lastUpdated}`);
    assert.equal(changed.status, 200);
    const updated = await device(`/passes/${PASS_TYPE}/${serial}`, { token, headers: { 'if-modified-since': lastModified } });
    assert.equal(updated.status, 200);
    assert.equal((await passOf(updated))['generic'].secondaryFields[0].value, 'Attorney');

    assert.equal((await device(registration, { method: 'DELETE' })).status, 401);
    assert.equal((await device(registration, { method: 'DELETE', token })).status, 200);
    assert.equal((await device(`/devices/${deviceId}/registrations/${PASS_TYPE}`)).status, 204);
  });

  it('keeps what devices log, shortened, and nothing else', async () => {
    const res = await device('/log', {
      method: 'POST',
      body: { logs: ['[2026-11-26] Web service error for pass.test.digicard.card: 500', 'x'.repeat(1500)] },
    });
    assert.equal(res.status, 200);
    const lines = system.logs().filter((l) => l.includes('Apple Wallet device log'));
    assert.equal(lines.length, 2);
    assert.ok(lines.every((l) => (JSON.parse(l) as { walletLog: string }).walletLog.length <= 500));
    assert.equal((await device('/log', { method: 'POST', body: { logs: 'not a list' } })).status, 400);
  });

  it('limits web-service calls per client address, and downloads per account', async () => {
    await withinOneWindow(60);
    const from = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < 13; i += 1) statuses.push((await device(`/devices/limit-device/registrations/${PASS_TYPE}`, { from })).status);
    assert.deepEqual(statuses.slice(0, 12), Array(12).fill(204));
    assert.equal(statuses[12], 429);
    assert.equal(
      (await device(`/devices/limit-device/registrations/${PASS_TYPE}`, { from: '203.0.113.78' })).status,
      204,
      'another address',
    );
    const downloads: number[] = [];
    for (let i = 0; i < 5; i += 1) downloads.push((await download(other)).status);
    // `other` downloaded once in the web-service test: 4 an hour.
    assert.deepEqual(downloads, [200, 200, 200, 429, 429]);
  });

  it('says in the system’s health that Apple Wallet is on', async () => {
    const report = JSON.parse(await (await fetch(`${system.gatewayHealthUrl}/health/system`)).text()) as {
      features?: Record<string, { status: string }>;
    };
    assert.deepEqual(report.features?.['profiles.appleWallet'], { status: 'on' });
  });
});

describe('Apple Wallet not configured', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;

  beforeAll(async () => {
    system = await InProcessGateway.start();
    services = await ServicesBehind.start(system, ['identity', 'profiles']);
  });
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  it('offers no pass, answers the web service 404, and health says what is missing', async () => {
    const owner = await registerOwner(
      system,
      { username: 'lindiwe', firstName: 'Lindiwe', lastName: 'Nkosi', email: 'lindiwe@example.co.za' },
      { verify: false },
    );
    assert.deepEqual((await owner.client.request('/api/wallet')).body, { apple: { available: false }, google: { available: false } });
    const res = await fetch(`${system.gatewayUrl}/api/wallet/apple/pass.pkpass`, { headers: { cookie: owner.client.cookie! } });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { message: string }).message, 'Apple Wallet passes are not available.');
    const latest = await fetch(`${system.gatewayUrl}${WEB_SERVICE}/passes/${PASS_TYPE}/${'A'.repeat(24)}`, {
      headers: { authorization: `ApplePass ${'t'.repeat(43)}` },
    });
    assert.equal(latest.status, 404);
    const report = JSON.parse(await (await fetch(`${system.gatewayHealthUrl}/health/system`)).text()) as {
      features?: Record<string, { status: string; reason?: string }>;
    };
    assert.equal(report.features?.['profiles.appleWallet']?.status, 'off');
    assert.match(report.features?.['profiles.appleWallet']?.reason ?? '', /APPLE_PASS_TYPE_ID.*not set/);
  });
});
