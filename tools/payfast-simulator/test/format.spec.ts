import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { formatDate, nextRunDate } from '../src/dates.js';
import { formatRand, parseRand } from '../src/money.js';

describe('rand and dates', () => {
  it('writes rand with space-grouped thousands and reads amounts exactly', () => {
    assert.equal(formatRand(0), 'R 0.00');
    assert.equal(formatRand(99_00), 'R 99.00');
    assert.equal(formatRand(123_456), 'R 1 234.56');
    assert.equal(formatRand(100_000_005), 'R 1 000 000.05');
    assert.equal(parseRand('1234.5'), 123_450);
    assert.equal(parseRand('0.10'), 10);
    assert.equal(parseRand('19.999'), undefined);
    assert.equal(parseRand('-5.00'), undefined);
    assert.equal(parseRand('1e3'), undefined);
  });

  it('moves a run date on by each frequency, keeping month ends inside the month', () => {
    assert.equal(nextRunDate('2026-07-01', 1), '2026-07-02');
    assert.equal(nextRunDate('2026-07-01', 2), '2026-07-08');
    assert.equal(nextRunDate('2026-01-31', 3), '2026-02-28');
    assert.equal(nextRunDate('2028-01-31', 3), '2028-02-29');
    assert.equal(nextRunDate('2026-11-30', 4), '2027-02-28');
    assert.equal(nextRunDate('2026-07-01', 5), '2027-01-01');
    assert.equal(nextRunDate('2026-07-01', 6), '2027-07-01');
    assert.equal(formatDate('2026-07-01'), '1 July 2026');
  });
});
