import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { failuresByPhase, type Sample } from '../src/accounting.mjs';

// The fault run's accounting of failed requests: which phase each failure belongs to, and the recovery times it gives.
const phases = [
  { name: 'warm-up', startedAt: 0 },
  { name: 'one NATS server killed', startedAt: 10_000 },
  { name: 'Redis primary killed, Sentinel failover', startedAt: 20_000 },
  { name: 'after', startedAt: 30_000 },
];
const sample = (phase: string, at: number, status: number, ms = 50, reason?: string): Sample => ({
  kind: 'lead',
  phase,
  at,
  status,
  ms,
  ...(reason ? { reason } : {}),
});

describe('failuresByPhase', () => {
  it('counts failures by kind, status and reason, and ignores answered requests', () => {
    const result = failuresByPhase(phases, [
      sample('one NATS server killed', 10_500, 202),
      sample('one NATS server killed', 11_000, 503, 40, 'SERVICE_UNAVAILABLE'),
      sample('one NATS server killed', 11_200, 503, 40, 'SERVICE_UNAVAILABLE'),
      sample('one NATS server killed', 11_300, 0, 5_000, 'timed out'),
      sample('one NATS server killed', 12_000, 302),
    ]);
    assert.deepEqual(result.get('one NATS server killed')?.failures, {
      'lead 503 SERVICE_UNAVAILABLE': 2,
      'lead no answer timed out': 1,
    });
    assert.deepEqual(result.get('warm-up')?.failures, {});
  });

  it("gives both when the last failed request was sent and when its answer came: a time-out's wait counts only in the second", () => {
    const redis = failuresByPhase(phases, [
      sample('Redis primary killed, Sentinel failover', 21_000, 503, 5_000, 'SERVICE_UNAVAILABLE'),
      sample('Redis primary killed, Sentinel failover', 22_500, 503, 30, 'SERVICE_UNAVAILABLE'),
      sample('Redis primary killed, Sentinel failover', 23_000, 202, 30),
    ]).get('Redis primary killed, Sentinel failover');
    assert.equal(redis?.lastSentAt, 22_500);
    assert.equal(redis?.lastAnsweredAt, 26_000);
  });

  it('puts a quiet phase’s request still waiting when a fault began in that fault, and keeps a fault’s own in the fault however long it waited', () => {
    const result = failuresByPhase(phases, [
      // Sent in the warm-up, answered (503) after the NATS server was killed: the fault's.
      sample('warm-up', 9_990, 503, 5_000, 'SERVICE_UNAVAILABLE'),
      // Sent in the warm-up and refused before the fault: the warm-up's.
      sample('warm-up', 5_000, 503, 10, 'SERVICE_UNAVAILABLE'),
      // Sent during the NATS fault, answered during the Redis one: still the NATS fault's.
      sample('one NATS server killed', 19_000, 0, 5_000, 'timed out'),
      // Sent in the last phase: nothing after it to move to.
      sample('after', 31_000, 503, 10, 'SERVICE_UNAVAILABLE'),
    ]);
    assert.deepEqual(result.get('warm-up')?.failures, { 'lead 503 SERVICE_UNAVAILABLE': 1 });
    assert.deepEqual(result.get('one NATS server killed')?.failures, {
      'lead 503 SERVICE_UNAVAILABLE': 1,
      'lead no answer timed out': 1,
    });
    assert.deepEqual(result.get('Redis primary killed, Sentinel failover')?.failures, {});
    assert.deepEqual(result.get('after')?.failures, { 'lead 503 SERVICE_UNAVAILABLE': 1 });
    const nats = result.get('one NATS server killed');
    assert.equal(nats?.lastSentAt, 19_000);
    assert.equal(nats?.lastAnsweredAt, 24_000);
  });

  it('gives no times for a phase without a failure', () => {
    const quiet = failuresByPhase(phases, [sample('warm-up', 1_000, 202)]).get('warm-up');
    assert.deepEqual(quiet, { failures: {}, lastAnsweredAt: null, lastSentAt: null });
  });
});
