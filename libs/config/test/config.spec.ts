import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { ConfigError, createLogger, loadConfig, serviceEnvShape } from '../src/index.js';

describe('loadConfig', () => {
  const schema = z.object(serviceEnvShape);

  it('names every missing or bad key in one error', () => {
    assert.throws(
      () => loadConfig('orders', schema, { NATS_URL: 'http://wrong', HEALTH_PORT: 'abc' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        const keys = error.problems.map((p) => p.split(':')[0]).sort();
        assert.deepEqual(keys, ['DATABASE_URL', 'HEALTH_PORT', 'NATS_URL']);
        assert.match(error.message, /orders/);
        assert.match(error.message, /NATS_URL: must be a nats: or tls:\/\/ URL/);
        return true;
      },
    );
  });

  it('applies defaults and coerces numbers', () => {
    const config = loadConfig('orders', schema, {
      NATS_URL: 'nats://127.0.0.1:4222',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x',
      HEALTH_PORT: '8104',
    });
    assert.equal(config.HEALTH_PORT, 8104);
    assert.equal(config.LOG_LEVEL, 'info');
    assert.equal(config.HOST, '127.0.0.1');
  });
});

describe('createLogger', () => {
  it('writes JSON with the service name and redacts secrets', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('identity', 'info', sink);
    logger.info({ body: { password: 'hunter22', email: 'a@b.co' }, token: 'abc' }, 'signed in');
    const line = JSON.parse(lines[0]!);
    assert.equal(line.service, 'identity');
    assert.equal(line.level, 'info');
    assert.equal(line.msg, 'signed in');
    assert.equal(line.body.password, '[redacted]');
    assert.equal(line.token, '[redacted]');
    assert.equal(line.body.email, 'a@b.co');
  });
});
