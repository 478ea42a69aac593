import assert from 'node:assert/strict';
import { afterAll, beforeAll, beforeEach, describe, it } from '@jest/globals';
import { signature, validateWithPayFast, verifyItnSignature } from '@digicard/payfast';
import { createSimulator, type PayFastSimulator } from '../src/index.js';
import {
  apiHeaders,
  field,
  json,
  monthly,
  openCheckout,
  PASSPHRASE,
  postForm,
  startReceiver,
  TIMESTAMP,
  type ReceivedItn,
} from './helpers.js';

describe('subscriptions: recurring ITNs, charges on demand, the subscriptions API, resend and tamper', () => {
  let simulator: PayFastSimulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const control = (path: string, body?: unknown) =>
    json(
      fetch(`${simulator.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      }),
    );
  const api = (token: string, action: string, method: string, headers: Record<string, string>, body?: string) =>
    json(
      fetch(`${simulator.url}/subscriptions/${token}/${action}?testing=true`, { method, headers, ...(body === undefined ? {} : { body }) }),
    );
  const validate = (pairs: ReceivedItn['pairs']) => validateWithPayFast(pairs, `${simulator.url}/eng/query/validate`, fetch);

  /** Subscribes through the process page and returns the first ITN and its token. */
  async function subscribe() {
    const { html, pay } = await openCheckout(simulator.url, monthly(receiver.notifyUrl, PASSPHRASE).formFields());
    const res = await postForm(pay);
    assert.equal(res.status, 303);
    const first = receiver.received.at(-1)!;
    return { html, first, token: field(first.pairs, 'token')! };
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    simulator = await createSimulator({ port: 0, passphrase: PASSPHRASE });
  });
  afterAll(async () => {
    await simulator.close();
    await receiver.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    await control('/_sim/reset');
  });

  it('shows the recurring terms and returns a token in the first ITN', async () => {
    const { html, first, token } = await subscribe();
    assert.match(html, /Confirm your subscription/);
    assert.match(html, /<dt>Pay now<\/dt><dd><span class="amount">R 199\.00<\/span>/);
    assert.match(html, /<dt>Recurring amount<\/dt><dd><span class="nowrap">R 99\.00<\/span>/);
    assert.match(html, /<dt>Frequency<\/dt><dd>Monthly, until cancelled<\/dd>/);
    assert.match(html, /<dt>First billing date<\/dt><dd><span class="nowrap">1 July 2026<\/span>/);

    assert.match(token, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepEqual(
      first.pairs.slice(-4).map(([k]) => k),
      ['merchant_id', 'token', 'billing_date', 'signature'],
    );
    assert.equal(field(first.pairs, 'billing_date'), '2026-07-01');
    assert.equal(field(first.pairs, 'amount_gross'), '199.00');
    assert.ok(verifyItnSignature(first.pairs, PASSPHRASE));
    const [listed] = (await json(fetch(`${simulator.url}/_sim/subscriptions`))).body;
    assert.equal(listed.token, token);
    assert.equal(listed.status, 'ACTIVE');
    assert.equal(listed.recurringCents, 9_900);
  });

  it('charges on demand: same token, new pf_payment_id, the recurring amount; FAILED is reported as failed', async () => {
    const { first, token } = await subscribe();

    const ok = await control(`/_sim/subscriptions/${token}/charge`, { status: 'COMPLETE' });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.itn.responseStatus, 200);
    assert.equal(ok.body.subscription.cyclesComplete, 1);
    assert.equal(ok.body.subscription.runDate, '2026-08-01');
    const second = receiver.received[1]!;
    assert.equal(field(second.pairs, 'token'), token);
    assert.notEqual(field(second.pairs, 'pf_payment_id'), field(first.pairs, 'pf_payment_id'));
    assert.equal(field(second.pairs, 'payment_status'), 'COMPLETE');
    assert.equal(field(second.pairs, 'amount_gross'), '99.00');
    assert.equal(field(second.pairs, 'billing_date'), '2026-07-01');
    assert.equal(field(second.pairs, 'm_payment_id'), 'SUB-2001');
    assert.ok(verifyItnSignature(second.pairs, PASSPHRASE));
    assert.equal(await validate(second.pairs), 'VALID');

    const failed = await control(`/_sim/subscriptions/${token}/charge`, { status: 'FAILED' });
    assert.equal(failed.status, 200);
    const third = receiver.received[2]!;
    assert.equal(field(third.pairs, 'payment_status'), 'FAILED');
    assert.equal(field(third.pairs, 'token'), token);
    assert.equal(field(third.pairs, 'amount_gross'), '99.00');
    assert.equal(field(third.pairs, 'amount_fee'), '0.00');
    assert.equal(field(third.pairs, 'amount_net'), '99.00');
    assert.equal(field(third.pairs, 'billing_date'), '2026-08-01', 'a failed charge does not move the run date');
    assert.ok(verifyItnSignature(third.pairs, PASSPHRASE));
    assert.equal(failed.body.subscription.cyclesComplete, 1);

    const ids = new Set(receiver.received.map((r) => field(r.pairs, 'pf_payment_id')));
    assert.equal(ids.size, 3);
    const payments = (await json(fetch(`${simulator.url}/_sim/payments`))).body;
    assert.deepEqual(
      payments.map((p: any) => p.status),
      ['COMPLETE', 'COMPLETE', 'FAILED'],
    );

    assert.equal((await control(`/_sim/subscriptions/${token}/charge`, { status: 'MAYBE' })).status, 400);
    assert.equal((await control('/_sim/subscriptions/no-such-token/charge')).status, 404);
  });

  it('the API refuses a bad header signature, fetches and cancels with a good one; then charges are refused', async () => {
    const { token } = await subscribe();

    const forged = await api(token, 'cancel', 'PUT', { ...apiHeaders(), signature: 'f'.repeat(32) });
    assert.equal(forged.status, 401);
    assert.deepEqual(forged.body, { code: 401, status: 'failed', data: { response: false, message: 'Merchant authorisation failed' } });
    const wrongPassphrase = await api(token, 'cancel', 'PUT', apiHeaders({}, 'not-the-passphrase'));
    assert.equal(wrongPassphrase.status, 401);
    const { signature: _omitted, ...unsigned } = apiHeaders();
    const missing = await api(token, 'cancel', 'PUT', unsigned);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.data.message, 'Signature not present in headers');
    assert.equal((await api(token, 'cancel', 'PUT', { ...apiHeaders(), version: 'v2' })).body.data.message, 'API version is not valid');

    const fetched = await api(token, 'fetch', 'GET', apiHeaders());
    assert.equal(fetched.status, 200);
    assert.deepEqual(fetched.body, {
      code: 200,
      status: 'success',
      data: {
        response: {
          amount: 9_900,
          cycles: 0,
          cycles_complete: 0,
          frequency: 3,
          run_date: '2026-07-01T00:00:00+02:00',
          status: 1,
          status_reason: '',
          status_text: 'ACTIVE',
          token,
        },
      },
    });
    assert.equal((await api(token, 'fetch', 'PUT', apiHeaders())).status, 405);

    const cancelled = await api(token, 'cancel', 'PUT', apiHeaders());
    assert.equal(cancelled.status, 200);
    assert.deepEqual(cancelled.body, { code: 200, status: 'success', data: { response: true } });
    const notice = receiver.received.at(-1)!;
    assert.equal(field(notice.pairs, 'payment_status'), 'CANCELLED');
    assert.equal(field(notice.pairs, 'token'), token);
    assert.ok(verifyItnSignature(notice.pairs, PASSPHRASE));

    const refused = await control(`/_sim/subscriptions/${token}/charge`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.error, /CANCELLED and takes no charges/);
    assert.equal((await api(token, 'fetch', 'GET', apiHeaders())).body.data.response.status_text, 'CANCELLED');
    assert.equal((await api(token, 'cancel', 'PUT', apiHeaders())).status, 400);
    assert.equal((await api('00000000-0000-0000-0000-000000000000', 'fetch', 'GET', apiHeaders())).status, 404);
  });

  it('pauses, unpauses and updates through the API (JSON body in the signature)', async () => {
    const { token } = await subscribe();
    assert.equal((await api(token, 'pause', 'PUT', apiHeaders())).body.data.response, true);
    assert.equal((await control(`/_sim/subscriptions/${token}/charge`)).status, 409, 'a paused subscription takes no charges');
    assert.equal((await api(token, 'unpause', 'PUT', apiHeaders())).status, 200);

    const changes = { amount: 14_900, run_date: '2026-09-15' };
    const headers = { ...apiHeaders(changes), 'content-type': 'application/json' };
    const updated = await api(token, 'update', 'PATCH', headers, JSON.stringify(changes));
    assert.equal(updated.status, 200);
    const badUpdate = await api(
      token,
      'update',
      'PATCH',
      { ...apiHeaders({ frequency: 9 }), 'content-type': 'application/json' },
      '{"frequency":9}',
    );
    assert.equal(badUpdate.status, 400);
    assert.equal(badUpdate.body.data.message, 'frequency must be 1 to 6');
    const unsignedBody = await api(
      token,
      'update',
      'PATCH',
      { ...apiHeaders(), 'content-type': 'application/json' },
      JSON.stringify(changes),
    );
    assert.equal(unsignedBody.status, 401, 'the body is part of the signature');

    await control(`/_sim/subscriptions/${token}/charge`);
    const charged = receiver.received.at(-1)!;
    assert.equal(field(charged.pairs, 'amount_gross'), '149.00');
    assert.equal(field(charged.pairs, 'billing_date'), '2026-09-15');
  });

  it('resends an ITN as it was, and sends tampered copies that fail the checks they should', async () => {
    const { first } = await subscribe();
    const itns = (await json(fetch(`${simulator.url}/_sim/itns`))).body;
    assert.equal(itns.length, 1);
    const n = itns[0].id;

    const resent = await control(`/_sim/itns/${n}/resend`);
    assert.equal(resent.status, 200);
    assert.equal(resent.body.resendOf, n);
    const again = receiver.received.at(-1)!;
    assert.equal(again.body, first.body, 'the same body, same pf_payment_id: a duplicate to ignore');
    assert.equal(await validate(again.pairs), 'VALID');

    const badSignature = await control(`/_sim/itns/${n}/resend`, { tamper: 'signature' });
    assert.equal(badSignature.body.tamper, 'signature');
    const forged = receiver.received.at(-1)!;
    assert.deepEqual(
      forged.pairs.filter(([k]) => k !== 'signature'),
      first.pairs.filter(([k]) => k !== 'signature'),
    );
    assert.notEqual(field(forged.pairs, 'signature'), field(first.pairs, 'signature'));
    assert.ok(!verifyItnSignature(forged.pairs, PASSPHRASE));
    assert.equal(await validate(forged.pairs), 'INVALID');

    await control(`/_sim/itns/${n}/resend`, { tamper: 'amount' });
    const cheap = receiver.received.at(-1)!;
    assert.equal(field(cheap.pairs, 'amount_gross'), '1.00');
    assert.equal(field(cheap.pairs, 'pf_payment_id'), field(first.pairs, 'pf_payment_id'));
    assert.ok(verifyItnSignature(cheap.pairs, PASSPHRASE), 'signed, so only the amount check and validate catch it');
    assert.equal(await validate(cheap.pairs), 'INVALID');

    const listed = (await json(fetch(`${simulator.url}/_sim/itns`))).body;
    assert.deepEqual(
      listed.map((i: any) => [i.id, i.kind, i.tamper ?? null, i.responseStatus]),
      [
        [n, 'payment', null, 200],
        [n + 1, 'resend', null, 200],
        [n + 2, 'resend', 'signature', 200],
        [n + 3, 'resend', 'amount', 200],
      ],
    );
    assert.equal((await control('/_sim/itns/999/resend')).status, 404);
    assert.equal((await control(`/_sim/itns/${n}/resend`, { tamper: 'everything' })).status, 400);
  });

  it('records a receiver that answers 500 or cannot be reached, without failing the payment', async () => {
    receiver.state.status = 500;
    try {
      const { token } = await subscribe();
      const [itn] = (await json(fetch(`${simulator.url}/_sim/itns`))).body;
      assert.equal(itn.responseStatus, 500);
      assert.equal((await control(`/_sim/subscriptions/${token}/charge`)).status, 200);
    } finally {
      receiver.state.status = 200;
    }
  });
});

describe('subscriptions on a merchant without a passphrase', () => {
  let simulator: PayFastSimulator;
  beforeAll(async () => {
    simulator = await createSimulator({ port: 0 });
  });
  afterAll(() => simulator.close());

  it('refuses a subscription request, as PayFast does, and the API', async () => {
    const fields: Array<[string, string]> = [
      ['merchant_id', '10000100'],
      ['merchant_key', '46f0cd694581a'],
      ['amount', '99.00'],
      ['item_name', 'DigiGold'],
      ['subscription_type', '1'],
      ['recurring_amount', '99.00'],
      ['frequency', '3'],
      ['cycles', '0'],
    ];
    const res = await postForm(`${simulator.url}/eng/process`, [...fields, ['signature', signature(fields)]]);
    assert.equal(res.status, 400);
    assert.match(await res.text(), /subscriptions need a passphrase/);

    const headers = { 'merchant-id': '10000100', version: 'v1', timestamp: TIMESTAMP, signature: 'a'.repeat(32) };
    const ping = await json(fetch(`${simulator.url}/ping`, { headers }));
    assert.equal(ping.status, 401);
    assert.match(ping.body.data.message, /needs a passphrase/);
  });
});
