import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Rpc } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import { waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { Clock } from '../src/payments/clock.js';
import { ItnPurge } from '../src/payments/workers/itn-purge.js';
import { paymentsServiceWith } from '../src/service.js';

class TestClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/**
 * Old ITNs that moved no money are deleted after ITN_RETENTION_DAYS (issue 28, item 2); applied ones stay with their
 * payment, undecided ones until they are decided. Nothing here reaches PayFast: the ITNs are refused on their signature.
 */
describe('ITN retention', () => {
  const clock = new TestClock();
  let service: InProcessService<Config>;
  const verdictOf = async (id: string) =>
    (await service.sql<{ verdict: string | null }>('SELECT verdict FROM payments.itns WHERE id = $1', [id]))[0]?.verdict;

  beforeAll(async () => {
    service = await InProcessService.start(paymentsServiceWith(clock), {
      PUBLIC_URL: 'http://127.0.0.1:9',
      PAYFAST_PROCESS_URL: 'http://127.0.0.1:9/eng/process',
      PAYFAST_VALIDATE_URL: 'http://127.0.0.1:9/eng/query/validate',
      PAYFAST_API_URL: 'http://127.0.0.1:9',
      PAYFAST_MERCHANT_ID: '10000100',
      PAYFAST_MERCHANT_KEY: '46f0cd694581a',
      PAYFAST_PASSPHRASE: 'retention-test-passphrase',
      PAYFAST_SOURCE_RANGES: '127.0.0.1/32',
      ITN_RETENTION_DAYS: '30',
    });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('deletes rejected ITNs older than the retention, keeps newer ones, applied ones and undecided ones', async () => {
    const answer = await service.call(Rpc.receiveItn, { rawBody: 'm_payment_id=x&signature=forged', sourceIp: '127.0.0.1' });
    expect(answer).toEqual({ ok: true, value: { received: true } });
    const [{ id: rejected }] = (await service.sql<{ id: string }>('SELECT id FROM payments.itns')) as [{ id: string }];
    await waitFor('the forged ITN rejected', async () => (await verdictOf(rejected)) === 'rejected', 5000);

    // An applied ITN with its payment, and one not decided yet, both as old as the rejected one.
    const applied = randomUUID();
    const undecided = randomUUID();
    await service.sql(
      `INSERT INTO payments.itns (id, raw_body, source_ip, verdict, reason, processed_at, next_attempt_at)
       VALUES ($1, 'a=1', '127.0.0.1', 'applied', 'ok', now(), now()), ($2, 'b=2', '127.0.0.1', NULL, NULL, NULL, now() + interval '1 day')`,
      [applied, undecided],
    );
    await service.sql(
      `INSERT INTO payments.payments (id, pf_payment_id, payment_request_id, account_id, kind, amount_cents, status, description, itn_id)
       VALUES ($1, 'pf-1', $2, $3, 'order', 100, 'complete', 'an order', $4)`,
      [randomUUID(), randomUUID(), randomUUID(), applied],
    );

    const purge = service.get(ItnPurge);
    expect(await purge.run()).toBe(0); // all of them are new
    clock.offsetMs = 29 * 86_400_000;
    expect(await purge.run()).toBe(0); // within the 30 days
    clock.offsetMs = 31 * 86_400_000;
    expect(await purge.run()).toBe(1);
    const left = await service.sql<{ id: string }>('SELECT id FROM payments.itns ORDER BY id');
    expect(left.map((r) => r.id).sort()).toEqual([applied, undecided].sort());
  });
});
