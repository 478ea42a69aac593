import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from '@jest/globals';
import express from 'express';
import { loadConfig } from '@digicard/config';
import { rawVisitOf } from '../src/analytics/page-analytics.js';
import { ConfigSchema } from '../src/config.js';
import { proxyTrust, type ProxyTrust } from '../src/security/trusted-proxies.js';

/** The client address express (`req.ip`) and the public-page fast path work out for one request from 127.0.0.1. */
async function addressesSeen(
  trust: ProxyTrust,
  forwardedFor: string,
): Promise<{ express: string | undefined; fastPath: string | undefined }> {
  let fastPath: string | undefined;
  const app = express();
  app.set('trust proxy', trust);
  app.get('/', (req, res) => {
    res.send(req.ip);
  });
  const server = createServer((req: IncomingMessage, res) => {
    fastPath = rawVisitOf(req, trust).ip;
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      headers: { 'x-forwarded-for': forwardedFor },
    });
    return { express: await res.text(), fastPath };
  } finally {
    server.close();
  }
}

const config = (env: Record<string, string>) =>
  loadConfig('gateway', ConfigSchema, {
    NATS_URL: 'nats://127.0.0.1:4222',
    REDIS_URL: 'redis://127.0.0.1:6379',
    PUBLIC_URL: 'http://localhost:8080',
    ...env,
  });

describe('TRUST_PROXY believes X-Forwarded-For only from the proxies in TRUST_PROXY_FROM', () => {
  it('takes the forwarded address from a proxy in the list, one hop only', async () => {
    const trust = proxyTrust(1, ['loopback']);
    assert.deepEqual(await addressesSeen(trust, '198.51.100.1, 203.0.113.9'), { express: '203.0.113.9', fastPath: '203.0.113.9' });
  });

  it('ignores X-Forwarded-For from a peer outside the list: a pod reaching the gateway directly cannot choose its address', async () => {
    const { TRUST_PROXY, TRUST_PROXY_FROM } = config({ TRUST_PROXY: '1', TRUST_PROXY_FROM: '10.0.0.0/8, 192.168.1.7' });
    assert.deepEqual(TRUST_PROXY_FROM, ['10.0.0.0/8', '192.168.1.7']);
    const trust = proxyTrust(TRUST_PROXY, TRUST_PROXY_FROM);
    assert.deepEqual(await addressesSeen(trust, '203.0.113.9'), { express: '127.0.0.1', fastPath: '127.0.0.1' });
  });

  it('walks back two trusted proxies, and stops at the first address that is not one', () => {
    const trust = proxyTrust(2, ['10.0.0.0/8', 'loopback']);
    assert.equal(trust('127.0.0.1', 0), true);
    assert.equal(trust('::ffff:10.1.2.3', 1), true);
    assert.equal(trust('10.1.2.3', 2), false, 'no more than TRUST_PROXY hops');
    assert.equal(trust('203.0.113.9', 1), false);
    assert.equal(proxyTrust(0, ['loopback'])('127.0.0.1', 0), false);
  });

  it('defaults to loopback proxies, and refuses an entry that is no address or range', () => {
    assert.deepEqual(config({}).TRUST_PROXY_FROM, ['loopback']);
    assert.throws(() => config({ TRUST_PROXY_FROM: '10.0.0.0/33' }), /TRUST_PROXY_FROM/);
    assert.throws(() => config({ TRUST_PROXY_FROM: 'ingress.local' }), /TRUST_PROXY_FROM/);
  });
});
