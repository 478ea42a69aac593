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

  it('stops when its signal is aborted: the wait under way ends at once and the last error is thrown', async () => {
    const controller = new AbortController();
    let calls = 0;
    const started = Date.now();
    const running = retry(
      () => {
        calls += 1;
        if (calls === 2) setTimeout(() => controller.abort(), 20);
        return Promise.reject(new Transient(`away ${calls}`));
      },
      { signal: controller.signal, delayMs: (attempt) => (attempt === 1 ? 1 : 10_000) },
    );
    await assert.rejects(running, /away 2/);
    const took = Date.now() - started;
    assert.equal(calls, 2);
    assert.ok(took < 1000, `stopped after ${took} ms, not after the 10 s wait`);
  });

  it('makes no try once its signal is aborted before a wait ends, and none at all when aborted before the first retry', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    await assert.rejects(
      retry(() => Promise.reject(new Transient(`away ${++calls}`)), { signal: controller.signal, delayMs: () => 1 }),
      /away 1/,
    );
    assert.equal(calls, 1);
  });

  it('refuses an unbounded retry', async () => {
    await assert.rejects(
      retry(() => Promise.resolve(1), {}),
      /needs attempts or forMs/,
    );
  });
});
