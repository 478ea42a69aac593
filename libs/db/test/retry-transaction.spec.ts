import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { retryTransaction } from '../src/db.js';

// The transaction retry (through libs/config's one retry helper): what is run again, what never is, and the budget.

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('retryTransaction', () => {
  it('runs a transaction again after a serialization failure or a deadlock, until it commits', async () => {
    const codes = ['40001', '40P01'];
    let runs = 0;
    const result = await retryTransaction(() => {
      runs += 1;
      const code = codes[runs - 1];
      return code ? Promise.reject(pgError(code)) : Promise.resolve('committed');
    });
    assert.equal(result, 'committed');
    assert.equal(runs, 3);
  });

  it('runs it again after a lost connection before its body was done, never after (it may have committed)', async () => {
    let runs = 0;
    await retryTransaction(() => {
      runs += 1;
      return runs === 1 ? Promise.reject(pgError('ECONNRESET')) : Promise.resolve();
    });
    assert.equal(runs, 2);

    runs = 0;
    await assert.rejects(
      retryTransaction((markBodyDone) => {
        runs += 1;
        markBodyDone();
        return Promise.reject(pgError('ECONNRESET'));
      }),
      /ECONNRESET/,
    );
    assert.equal(runs, 1);
  });

  it('never runs again after any other error, and stops at its attempts and within its budget', async () => {
    let runs = 0;
    await assert.rejects(
      retryTransaction(() => {
        runs += 1;
        return Promise.reject(pgError('23505'));
      }),
      /23505/,
    );
    assert.equal(runs, 1);

    runs = 0;
    await assert.rejects(
      retryTransaction(
        () => {
          runs += 1;
          return Promise.reject(pgError('40001'));
        },
        { attempts: 3 },
      ),
      /40001/,
    );
    assert.equal(runs, 3);

    runs = 0;
    const started = Date.now();
    await assert.rejects(
      retryTransaction(
        () => {
          runs += 1;
          return Promise.reject(pgError('40001'));
        },
        { attempts: 100, budgetMs: 300 },
      ),
      /40001/,
    );
    assert.ok(Date.now() - started <= 400, `gave up within the budget (${Date.now() - started} ms)`);
    assert.ok(runs >= 2 && runs < 100, `${runs} runs`);
  });
});
