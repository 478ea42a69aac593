import assert from 'node:assert/strict';
import { afterAll, beforeAll, beforeEach, describe, it } from '@jest/globals';
import { signature, validateWithPayFast, verifyItnSignature } from '@digicard/payfast';
import { createSimulator, type PayFastSimulator } from '../src/index.js';
import { field, formBody, json, MERCHANT_ID, MERCHANT_KEY, onceOff, openCheckout, PASSPHRASE, postForm, startReceiver } from './helpers.js';

const ITN_ORDER = [
  'm_payment_id',
  'pf_payment_id',
  'payment_status',
  'item_name',
  'item_description',
  'amount_gross',
  'amount_fee',
  'amount_net',
  'custom_str1',
  'custom_str2',
  'custom_str3',
  'custom_str4',
  'custom_str5',
  'custom_int1',
  'custom_int2',
  'custom_int3',
  'custom_int4',
  'custom_int5',
  'name_first',
  'name_last',
  'email_address',
  'merchant_id',
  'signature',
];

describe('process page, ITN and validate (merchant without a passphrase)', () => {
  let simulator: PayFastSimulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    simulator = await createSimulator({ port: 0 });
  });
  afterAll(async () => {
    await simulator.close();
    await receiver.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    await fetch(`${simulator.url}/_sim/reset`, { method: 'POST' });
  });

  it('shows a signed once-off request: merchant, item, amount in rand, Pay and Cancel', async () => {
    const request = onceOff(receiver.notifyUrl);
    const { html, pay, cancel } = await openCheckout(simulator.url, request.formFields());
    assert.match(html, /<h1>Confirm your payment<\/h1>/);
    assert.match(html, /<dt>Merchant<\/dt><dd>10000100<\/dd>/);
    assert.match(html, /DigiCard Pro NFC card/);
    assert.match(html, /<span class="amount">R 1 234\.56<\/span>/);
    assert.match(html, /<dt>Paying as<\/dt><dd>Thandi O&#39;Neil<small>thandi@example\.co\.za<\/small><\/dd>/);
    assert.match(html, /<button type="submit" class="pay">Pay<\/button>/);
    assert.match(html, /<button type="submit" class="cancel">Cancel<\/button>/);
    assert.match(pay, new RegExp(`^${simulator.url}/eng/process/[0-9a-f-]{36}/pay$`));
    assert.equal(cancel, pay.replace(/\/pay$/, '/cancel'));
  });

  it('takes the same request as a query string (GET), as a payment link does', async () => {
    const res = await fetch(onceOff(receiver.notifyUrl).url(`${simulator.url}/eng/process`));
    assert.equal(res.status, 200);
    assert.match(await res.text(), /R 1 234\.56/);
  });

  it('refuses a bad signature, a wrong merchant key and a missing amount with 400 and the reason', async () => {
    const good = onceOff(receiver.notifyUrl).formFields();

    const tampered = good.map(([k, v]): [string, string] => [k, k === 'amount' ? '1.00' : v]);
    const badSignature = await postForm(`${simulator.url}/eng/process`, tampered);
    assert.equal(badSignature.status, 400);
    const badSignatureHtml = await badSignature.text();
    assert.match(badSignatureHtml, /signature: generated signature does not match submitted signature/);
    assert.doesNotMatch(badSignatureHtml, /merchant_key/);

    const wrongKey = onceOff(receiver.notifyUrl, undefined, { merchantKey: 'aaaaaaaaaaaaa' }).formFields();
    const wrongKeyRes = await postForm(`${simulator.url}/eng/process`, wrongKey);
    assert.equal(wrongKeyRes.status, 400);
    const wrongKeyHtml = await wrongKeyRes.text();
    assert.match(wrongKeyHtml, /merchant_key does not match merchant_id 10000100/);
    assert.doesNotMatch(wrongKeyHtml, /signature:/, 'the request itself was signed correctly');

    // Signed correctly, but without an amount: the signature holds, the amount is what is missing.
    const noAmount = good.filter(([k]) => k !== 'amount' && k !== 'signature');
    const noAmountRes = await postForm(`${simulator.url}/eng/process`, [...noAmount, ['signature', signature(noAmount)]]);
    assert.equal(noAmountRes.status, 400);
    const noAmountHtml = await noAmountRes.text();
    assert.match(noAmountHtml, /<li>amount is required<\/li>/);
    assert.match(noAmountHtml, /has a problem:/);

    const unknownMerchant = await postForm(`${simulator.url}/eng/process`, [
      ['merchant_id', '999'],
      ['amount', 'lots'],
    ]);
    const unknownHtml = await unknownMerchant.text();
    assert.equal(unknownMerchant.status, 400);
    for (const reason of [
      'merchant_id 999 is not a known merchant',
      'merchant_key is required',
      'amount must be an amount in rand',
      'item_name is required',
      'signature is required',
    ]) {
      assert.ok(unknownHtml.includes(reason), `expected "${reason}" on the error page`);
    }
  });

  it('Pay posts a signed ITN in PayFast order, then redirects to return_url; validate says VALID for it only', async () => {
    const { pay } = await openCheckout(simulator.url, onceOff(receiver.notifyUrl).formFields());
    const res = await postForm(pay);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), 'http://shop.test/payment/return');

    assert.equal(receiver.received.length, 1);
    const itn = receiver.received[0]!;
    assert.equal(itn.contentType, 'application/x-www-form-urlencoded');
    assert.deepEqual(
      itn.pairs.map(([k]) => k),
      ITN_ORDER,
    );
    assert.equal(field(itn.pairs, 'm_payment_id'), 'ORD-1001');
    assert.match(field(itn.pairs, 'pf_payment_id')!, /^\d+$/);
    assert.equal(field(itn.pairs, 'payment_status'), 'COMPLETE');
    assert.equal(field(itn.pairs, 'item_name'), 'DigiCard Pro NFC card');
    assert.equal(field(itn.pairs, 'amount_gross'), '1234.56');
    assert.equal(field(itn.pairs, 'amount_fee'), '-28.39');
    assert.equal(field(itn.pairs, 'amount_net'), '1206.17');
    assert.equal(field(itn.pairs, 'custom_str1'), 'order-1001');
    assert.equal(field(itn.pairs, 'custom_int1'), '');
    assert.equal(field(itn.pairs, 'name_last'), "O'Neil");
    assert.equal(field(itn.pairs, 'merchant_id'), MERCHANT_ID);
    assert.ok(verifyItnSignature(itn.pairs), 'the ITN signature verifies without a passphrase');
    assert.ok(!verifyItnSignature(itn.pairs, PASSPHRASE), 'and not with one the merchant does not have');
    assert.match(itn.body, /&name_last=O%27Neil&/, 'encoded like PHP urlencode');

    // The app's own check, libs/payfast's validate call, against the simulator over HTTP.
    const validateUrl = `${simulator.url}/eng/query/validate`;
    assert.equal(await validateWithPayFast(itn.pairs, validateUrl, fetch), 'VALID');
    const withoutSignature = itn.pairs.filter(([k]) => k !== 'signature');
    assert.equal(await validateWithPayFast(withoutSignature, validateUrl, fetch), 'VALID', 'as the PHP SDK posts it');
    const changedAmount = itn.pairs.map(([k, v]): [string, string] => [k, k === 'amount_gross' ? '1.00' : v]);
    assert.equal(await validateWithPayFast(changedAmount, validateUrl, fetch), 'INVALID');
    const raw = await fetch(validateUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: itn.body,
    });
    assert.equal(raw.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await raw.text(), 'VALID');

    const payments = (await json(fetch(`${simulator.url}/_sim/payments`))).body as any[];
    assert.equal(payments.length, 1);
    assert.equal(payments[0].pfPaymentId, field(itn.pairs, 'pf_payment_id'));
    assert.equal(payments[0].amountCents, 123_456);
    const itns = (await json(fetch(`${simulator.url}/_sim/itns`))).body as any[];
    assert.equal(itns.length, 1);
    assert.equal(itns[0].url, receiver.notifyUrl);
    assert.equal(itns[0].body, itn.body);
    assert.equal(itns[0].responseStatus, 200);
    assert.equal(itns[0].kind, 'payment');
  });

  it("says in a header what the merchant answered the payment's ITN: 200, a refusal, or none while held", async () => {
    const first = await openCheckout(simulator.url, onceOff(receiver.notifyUrl).formFields());
    const taken = await postForm(first.pay);
    assert.deepEqual([taken.status, taken.headers.get('x-sim-itn-status')], [303, '200']);
    receiver.state.status = 503;
    try {
      const second = await openCheckout(simulator.url, onceOff(receiver.notifyUrl).formFields());
      const refused = await postForm(second.pay);
      assert.deepEqual([refused.status, refused.headers.get('x-sim-itn-status')], [303, '503'], 'the buyer is sent back all the same');
    } finally {
      receiver.state.status = 200;
    }
    assert.equal(receiver.received.length, 2);
  });

  it('gives every payment its own pf_payment_id and charges a page only once', async () => {
    const first = await openCheckout(simulator.url, onceOff(receiver.notifyUrl).formFields());
    const second = await openCheckout(simulator.url, onceOff(receiver.notifyUrl, undefined, { mPaymentId: 'ORD-1002' }).formFields());
    assert.equal((await postForm(first.pay)).status, 303);
    assert.equal((await postForm(second.pay)).status, 303);
    const again = await postForm(first.pay);
    assert.equal(again.status, 409);
    assert.match(await again.text(), /already paid/);
    assert.equal(receiver.received.length, 2);
    const ids = receiver.received.map((r) => field(r.pairs, 'pf_payment_id'));
    assert.notEqual(ids[0], ids[1]);
    assert.deepEqual(
      receiver.received.map((r) => field(r.pairs, 'm_payment_id')),
      ['ORD-1001', 'ORD-1002'],
    );
  });

  it('holds ITNs while asked to (PayFast may notify after the buyer is back), and posts them in order on release', async () => {
    const hold = (on: boolean) =>
      json(
        fetch(`${simulator.url}/_sim/itns/hold`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ hold: on }),
        }),
      );
    assert.deepEqual((await hold(true)).body, { holding: true, released: [] });
    const { pay } = await openCheckout(simulator.url, onceOff(receiver.notifyUrl).formFields());
    assert.equal((await postForm(pay)).status, 303, 'the buyer is sent back at once');
    assert.equal(receiver.received.length, 0, 'nothing posted while held');
    const held = (await json(fetch(`${simulator.url}/_sim/itns`))).body as Array<{ id: number; responseStatus: number | null }>;
    assert.equal(held.at(-1)?.responseStatus, null);
    const released = await hold(false);
    assert.deepEqual(released.body, { holding: false, released: [held.at(-1)!.id] });
    assert.equal(receiver.received.length, 1);
    assert.equal(field(receiver.received[0]!.pairs, 'm_payment_id'), 'ORD-1001');
    assert.equal((await hold('yes' as unknown as boolean)).status, 400);
  });

  it('Cancel redirects to cancel_url and sends no ITN; Pay afterwards is refused', async () => {
    const { pay, cancel } = await openCheckout(simulator.url, onceOff(receiver.notifyUrl).formFields());
    const res = await postForm(cancel);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), 'http://shop.test/payment/cancel');
    assert.equal((await postForm(pay)).status, 409);
    assert.equal(receiver.received.length, 0);
    assert.deepEqual((await json(fetch(`${simulator.url}/_sim/itns`))).body, []);
  });

  it('answers an unknown checkout, a bad validate body and an unknown route without falling over', async () => {
    assert.equal((await postForm(`${simulator.url}/eng/process/nope/pay`)).status, 404);
    const validate = await fetch(`${simulator.url}/eng/query/validate`, { method: 'POST', body: '%%%&&==' });
    assert.equal(await validate.text(), 'INVALID');
    assert.equal((await fetch(`${simulator.url}/nowhere`)).status, 404);
    const huge = await fetch(`${simulator.url}/eng/process`, {
      method: 'POST',
      body: formBody([['item_name', 'x'.repeat(300_000)]]),
    }).catch((error: Error) => error);
    assert.ok(huge instanceof Error || huge.status === 413, 'an oversized body is refused');
    assert.equal((await fetch(`${simulator.url}/`)).status, 200, 'and the simulator still answers');
  });
});

describe('a merchant with a passphrase', () => {
  let simulator: PayFastSimulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    simulator = await createSimulator({ port: 0, passphrase: PASSPHRASE, merchantKey: MERCHANT_KEY });
  });
  afterAll(async () => {
    await simulator.close();
    await receiver.close();
  });

  it('refuses a request signed without the passphrase', async () => {
    const res = await postForm(`${simulator.url}/eng/process`, onceOff(receiver.notifyUrl).formFields());
    assert.equal(res.status, 400);
    assert.match(await res.text(), /generated signature does not match/);
  });

  it('signs the ITN with the passphrase', async () => {
    const { pay } = await openCheckout(simulator.url, onceOff(receiver.notifyUrl, PASSPHRASE).formFields());
    assert.equal((await postForm(pay)).status, 303);
    assert.equal(receiver.received.length, 1);
    const { pairs } = receiver.received[0]!;
    assert.ok(verifyItnSignature(pairs, PASSPHRASE), 'verifies with the passphrase');
    assert.ok(!verifyItnSignature(pairs), 'and not without it');
    assert.ok(!verifyItnSignature(pairs, 'another-passphrase'));
    assert.equal(await validateWithPayFast(pairs, `${simulator.url}/eng/query/validate`, fetch), 'VALID');
  });
});
