import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { retry } from '../src/retry.js';

class Transient extends Error {}

describe('retry', () => {
  it('tries again until the work succeeds, with the attempt number, calling onRetry before each wait', async () => {
    const seen: number[] = [];
    const retried: number[] = [];
    const result = await retry(
      (attempt) => {
        seen.push(attempt);
        return attempt < 3 ? Promise.reject(new Transient('not yet')) : Promise.resolve('done');
      },
      { attempts: 5, delayMs: () => 1, onRetry: (_error, attempt) => retried.push(attempt) },
    );
    assert.equal(result, 'done');
    assert.deepEqual(seen, [1, 2, 3]);
    assert.deepEqual(retried, [1, 2]);
  });

  it('throws the last error after the last attempt', async () => {
    let calls = 0;
    await assert.rejects(
      retry(() => Promise.reject(new Transient(`failure ${++calls}`)), { attempts: 3, delayMs: () => 1 }),
      /failure 3/,
    );
    assert.equal(calls, 3);
  });

  it('throws at once an error it should not retry', async () => {
    let calls = 0;
    await assert.rejects(
      retry(
        () => {
          calls += 1;
          return Promise.reject(new Error('bad input'));
        },
        { attempts: 5, delayMs: () => 1, retryOn: (error) => error instanceof Transient },
      ),
      /bad input/,
    );
    assert.equal(calls, 1);
  });

  it('gives up once forMs has passed', async () => {
    const started = Date.now();
    let calls = 0;
    await assert.rejects(
      retry(
        () => {
          calls += 1;
          return Promise.reject(new Transient('still away'));
        },
        { forMs: 100, delayMs: () => 20 },
      ),
      /still away/,
    );
    const took = Date.now() - started;
    assert.ok(took >= 100 && took < 400, `gave up after ${took} ms`);
    assert.ok(calls >= 4 && calls <= 8, `${calls} calls`);
  });

  it('refuses an unbounded retry', async () => {
    await assert.rejects(
      retry(() => Promise.resolve(1), {}),
      /needs attempts or forMs/,
    );
  });
});
