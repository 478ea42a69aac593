import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { PrivateRedis, waitFor, withinOneWindow } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

/** The public page's click beacon is limited per client address (issue 12), and never blocked while Redis is away. */
describe('click beacons: a limit per client address that fails open', () => {
  const redis = new PrivateRedis();
  let system: InProcessGateway;
  const beacon = (address: string) =>
    fetch(`${system.gatewayUrl}/api/profiles/some-owner/clicks`, {
      method: 'POST',
      headers: {
        'user-agent': BROWSER,
        'content-type': 'text/plain;charset=UTF-8',
        origin: system.gatewayUrl,
        'sec-fetch-site': 'same-origin',
        'x-forwarded-for': address,
      },
      body: JSON.stringify({ target: 'social:facebook' }),
    });

  beforeAll(async () => {
    await redis.start();
    system = await InProcessGateway.start({ REDIS_URL: redis.url, TRUST_PROXY: '1', RATE_LIMIT_CLICK_IP: '5/60' });
  });
  afterAll(async () => {
    await system?.stop();
    await redis.kill();
  });

  it('answers 204 up to the limit, then 429 with Retry-After; another address is counted on its own', async () => {
    await withinOneWindow(60);
    for (let i = 0; i < 5; i += 1) assert.equal((await beacon('198.51.100.7')).status, 204, `click ${i + 1}`);
    const over = await beacon('198.51.100.7');
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    assert.equal((await beacon('198.51.100.8')).status, 204);
  });

  it('lets clicks through while Redis is down (a warning in the log), as the other cheap limits do', async () => {
    await redis.kill();
    for (let i = 0; i < 7; i += 1) assert.equal((await beacon('198.51.100.9')).status, 204);
    await waitFor('the warning', () => Promise.resolve(system.logs().some((l) => l.includes('rate limit not counted'))), 5_000);
  });
});
