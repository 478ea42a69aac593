import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { IntervalTask } from './interval-task.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const recorder = () => {
  const warnings: Array<{ obj: object; msg?: string }> = [];
  return { warnings, logger: { warn: (obj: object, msg?: string) => warnings.push({ obj, msg }) } };
};

describe('IntervalTask', () => {
  it('runs at start and then on its interval, never two runs at once, and stop waits for the run in progress', async () => {
    const { logger } = recorder();
    let running = 0;
    let most = 0;
    let runs = 0;
    let finished = 0;
    const task = new IntervalTask(
      'slow sweep',
      20,
      async () => {
        running += 1;
        runs += 1;
        most = Math.max(most, running);
        await sleep(70);
        running -= 1;
        finished += 1;
      },
      logger,
    );
    task.start();
    assert.equal(runs, 0, 'the first run starts on the next turn, not inside start()');
    await sleep(5);
    assert.equal(runs, 1, 'runs at start');
    await sleep(200);
    await task.stop();
    assert.equal(most, 1, 'never two runs at once');
    const total: number = runs;
    assert.ok(total >= 2 && total <= 4, `ran ${total} times in about 200 ms of 70 ms runs`);
    assert.equal(finished, runs, 'stop waited for the run in progress');
    const after = runs;
    await sleep(60);
    assert.equal(runs, after, 'no run after stop');
  });

  it('logs a failed run and tries again at the next tick', async () => {
    const { logger, warnings } = recorder();
    let calls = 0;
    const task = new IntervalTask(
      'flaky sweep',
      15,
      () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('database away')) : Promise.resolve();
      },
      logger,
    );
    task.start();
    await sleep(60);
    await task.stop();
    assert.ok(calls >= 2, 'tried again');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!.msg ?? '', /flaky sweep failed; will try again/);
    assert.equal((warnings[0]!.obj as { err: Error }).err.message, 'database away');
  });

  it('runNow shares the run in progress instead of starting another', async () => {
    const { logger } = recorder();
    let calls = 0;
    const task = new IntervalTask(
      'manual',
      60_000,
      async () => {
        calls += 1;
        await sleep(30);
      },
      logger,
    );
    await Promise.all([task.runNow(), task.runNow(), task.runNow()]);
    assert.equal(calls, 1);
    await task.runNow();
    assert.equal(calls, 2);
    await task.stop();
  });
});
