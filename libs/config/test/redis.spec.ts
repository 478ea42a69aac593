import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, loadConfig, redisConnectionOptions, redisEnvShape, serviceEnvShape } from '../src/index.js';

describe('redisConnectionOptions', () => {
  it('connects to the one server of REDIS_URL, with its user, password and database', () => {
    assert.deepEqual(redisConnectionOptions({ REDIS_URL: 'redis://gateway:s%3Acret@cache.internal:6380/2' }), {
      host: 'cache.internal',
      port: 6380,
      username: 'gateway',
      password: 's:cret',
      db: 2,
    });
    assert.deepEqual(redisConnectionOptions({ REDIS_URL: 'rediss://cache.internal', REDIS_SENTINELS: '' }), {
      host: 'cache.internal',
      port: 6379,
      tls: {},
    });
  });

  it('with REDIS_SENTINELS, asks the Sentinels for the primary and keeps only the credentials of REDIS_URL', () => {
    const config = loadConfig('orders', z.object(redisEnvShape), {
      REDIS_URL: 'redis://orders:pw@ignored:6379',
      REDIS_SENTINELS: 'sentinel-0:26379, sentinel-1:26380',
      REDIS_SENTINEL_NAME: 'cards',
    });
    assert.deepEqual(redisConnectionOptions(config), {
      sentinels: [
        { host: 'sentinel-0', port: 26379 },
        { host: 'sentinel-1', port: 26380 },
      ],
      name: 'cards',
      username: 'orders',
      password: 'pw',
    });
    // The name defaults to the one the compose file and the manifests monitor.
    assert.equal(
      loadConfig('orders', z.object(redisEnvShape), { REDIS_URL: 'redis://x', REDIS_SENTINELS: 'a:1' }).REDIS_SENTINEL_NAME,
      'digicard',
    );
  });

  it('refuses a Sentinel list that is not host:port pairs, naming the key', () => {
    for (const bad of ['sentinel-0', 'a:1;b:2', 'a:1,,b:2', 'redis://a:1']) {
      assert.throws(
        () => loadConfig('gateway', z.object(redisEnvShape), { REDIS_URL: 'redis://x', REDIS_SENTINELS: bad }),
        (error: unknown) =>
          error instanceof ConfigError && error.problems.some((p) => p.startsWith('REDIS_SENTINELS: must be comma-separated')),
        bad,
      );
    }
  });
});

describe('NATS_URL', () => {
  const schema = z.object(serviceEnvShape);
  const base = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' };

  it("takes a cluster's servers comma-separated", () => {
    const url = 'nats://orders:pw@127.0.0.1:4222,nats://orders:pw@127.0.0.1:4223';
    assert.equal(loadConfig('orders', schema, { ...base, NATS_URL: url }).NATS_URL, url);
  });

  it('refuses the list when one entry is not a NATS URL', () => {
    assert.throws(
      () => loadConfig('orders', schema, { ...base, NATS_URL: 'nats://127.0.0.1:4222,http://127.0.0.1:4223' }),
      (error: unknown) =>
        error instanceof ConfigError && error.problems.some((p) => p.startsWith('NATS_URL: must be a nats: or tls:// URL')),
    );
  });
});
