import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { PrivateRedis, TestSystem, waitFor } from '@digicard/testing';

const enquiry = { name: 'Thabo Mokoena', email: 'thabo@example.co.za', number: '0821234567' };

describe('the gateway while Redis is down: never a 500', () => {
  const redis = new PrivateRedis();
  let system: TestSystem;
  const stored = async () => Number((await system.sql<{ n: string }>('SELECT count(*) AS n FROM orders.enquiries'))[0]!.n);
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${system.gatewayUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
        origin: system.gatewayUrl,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    await redis.start();
    system = await TestSystem.start({
      apps: ['orders', 'gateway'],
      env: { gateway: { REDIS_URL: redis.url, READINESS_GRACE_SECONDS: '3' } },
    });
    assert.equal((await system.api('/api/enquiries/call-back', { body: enquiry })).status, 202, 'accepted while Redis is up');
    await redis.kill();
  });
  afterAll(async () => {
    await system?.stop();
    await redis.kill();
  });

  it('keeps taking enquiries: the rate limit fails open, with a warning in the log', async () => {
    const before = await stored();
    const res = await post('/api/enquiries/call-back', enquiry);
    assert.equal(res.status, 202);
    assert.equal(await stored(), before + 1);
    await waitFor('the warning', () => Promise.resolve(system.logsOf('gateway').some((l) => l.includes('rate limit not counted'))), 5_000);
  });

  it('answers sign-in and registration with 503 and Retry-After, where an uncounted limit would help a guesser', async () => {
    for (const [path, body] of [
      ['/api/session', { email: 'thabo@example.co.za', password: 'a password of his' }],
      [
        '/api/accounts',
        { username: 'thabo', firstName: 'Thabo', lastName: 'Mokoena', email: 'thabo@example.co.za', password: 'a long password 1' },
      ],
      ['/api/password-reset/request', { email: 'thabo@example.co.za' }],
    ] as const) {
      const res = await post(path, body);
      assert.equal(res.status, 503, path);
      assert.equal(res.headers.get('retry-after'), '30', path);
      assert.equal(((await res.json()) as { code: string }).code, 'SERVICE_UNAVAILABLE', path);
    }
  });

  it('serves pages, also to a browser that brings a session cookie, and asks API callers with one to come back', async () => {
    const cookie = `__Host-digicard_session=${'a'.repeat(43)}`;
    assert.equal((await fetch(`${system.gatewayUrl}/`)).status, 200);
    assert.equal((await fetch(`${system.gatewayUrl}/pricing`, { headers: { cookie } })).status, 200);
    const session = await fetch(`${system.gatewayUrl}/api/session`, { headers: { cookie } });
    assert.equal(session.status, 503);
    assert.equal(session.headers.get('retry-after'), '30');
  });

  it('stays ready through a Redis blip, saying it is degraded, and stops being ready when it lasts', async () => {
    const ready = await fetch(`${system.gatewayHealthUrl}/health`);
    assert.equal(ready.status, 200, 'a blip must not take every replica out of the Service');
    const report = (await ready.json()) as { status: string; checks: Record<string, { status: string }> };
    assert.equal(report.status, 'degraded');
    assert.equal(report.checks['redis']?.status, 'down');
    assert.equal(report.checks['nats']?.status, 'up');
    await waitFor(
      'readiness to give up after the grace',
      async () => (await fetch(`${system.gatewayHealthUrl}/health`)).status === 503,
      10_000,
    );
  });

  it('stays up: no process exits for a lost Redis', async () => {
    assert.equal((await fetch(`${system.gatewayUrl}/health/live`)).status, 200);
    assert.ok(!system.logsOf('gateway').some((l) => /"status":500|"level":60/.test(l)), 'no 500 and nothing fatal logged');
  });
});
