import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  amountMatches,
  apiSignature,
  apiSignatureString,
  buildPaymentRequest,
  type FetchLike,
  formatCents,
  isPayFastAddress,
  itnSignatureString,
  merchantMatches,
  PAYFAST_FIELD_ORDER,
  PayFastInputError,
  pfEncode,
  signature,
  signatureString,
  validateWithPayFast,
  verifyItnSignature,
} from '../src/index.js';

const PASSPHRASE = 'jt7NOE43FZPn';

describe('pfEncode (PHP urlencode)', () => {
  it('leaves only A-Za-z0-9-_. alone', () => {
    assert.equal(pfEncode('AZaz09-_.'), 'AZaz09-_.');
  });
  it('encodes space as + and the characters encodeURIComponent leaves alone', () => {
    assert.equal(pfEncode('a b'), 'a+b');
    assert.equal(pfEncode('~'), '%7E');
    assert.equal(pfEncode('*'), '%2A');
    assert.equal(pfEncode('!'), '%21');
    assert.equal(pfEncode("'"), '%27');
    assert.equal(pfEncode('('), '%28');
    assert.equal(pfEncode(')'), '%29');
  });
  it('uses uppercase hex and UTF-8 bytes', () => {
    assert.equal(pfEncode('https://x.co.za/a?b=c&d=e+f'), 'https%3A%2F%2Fx.co.za%2Fa%3Fb%3Dc%26d%3De%2Bf');
    assert.equal(pfEncode('é'), '%C3%A9');
    assert.equal(pfEncode('R100 @ 50%'), 'R100+%40+50%25');
    assert.equal(pfEncode(''), '');
  });
});

describe('request signature', () => {
  // TEST VECTOR computed independently of this library: the encoded string below was written out by hand and hashed
  // in the shell with `printf '%s' '<string>' | md5sum` (coreutils), giving accfd3475d15356772a44572104832e2.
  const VECTOR_STRING =
    'merchant_id=10000100&merchant_key=46f0cd694581a&return_url=https%3A%2F%2Fexample.co.za%2Freturn' +
    '&cancel_url=https%3A%2F%2Fexample.co.za%2Fcancel&notify_url=https%3A%2F%2Fexample.co.za%2Fnotify' +
    '&name_first=Thandi&name_last=O%27Neil+Smith&email_address=thandi%2Btest%40example.co.za&m_payment_id=ORD-1' +
    '&amount=123.45&item_name=Digicard+Pro+%28monthly%29+%7E+%2A%21&passphrase=jt7NOE43FZPn';
  const VECTOR_MD5 = 'accfd3475d15356772a44572104832e2';

  const input = {
    merchantId: '10000100',
    merchantKey: '46f0cd694581a',
    passphrase: PASSPHRASE,
    returnUrl: 'https://example.co.za/return',
    cancelUrl: 'https://example.co.za/cancel',
    notifyUrl: 'https://example.co.za/notify',
    buyer: { nameFirst: 'Thandi', nameLast: "O'Neil Smith", emailAddress: 'thandi+test@example.co.za' },
    mPaymentId: 'ORD-1',
    amountCents: 12345,
    itemName: 'Digicard Pro (monthly) ~ *!',
  };

  it('matches the independently computed vector through buildPaymentRequest', () => {
    const req = buildPaymentRequest(input);
    assert.equal(signatureString(req.fields, PASSPHRASE), VECTOR_STRING);
    assert.equal(req.signature, VECTOR_MD5);
  });

  it('matches the vector through signature() with a record and with pairs, skipping blanks and trimming', () => {
    const record = {
      merchant_id: '10000100',
      merchant_key: '46f0cd694581a',
      return_url: 'https://example.co.za/return',
      cancel_url: 'https://example.co.za/cancel',
      notify_url: 'https://example.co.za/notify',
      name_first: ' Thandi ',
      name_last: "O'Neil Smith",
      email_address: 'thandi+test@example.co.za',
      cell_number: '',
      m_payment_id: 'ORD-1',
      amount: '123.45',
      item_name: 'Digicard Pro (monthly) ~ *!',
      item_description: '   ',
    };
    assert.equal(signature(record, PASSPHRASE), VECTOR_MD5);
    assert.equal(signature(Object.entries(record), PASSPHRASE), VECTOR_MD5);
  });

  it("matches the vector in PayFast's own PHP SDK test (Payfast/payfast-php-sdk tests/unit/AuthTest.php)", () => {
    // Expected hash copied from that test (commit 3eef5c3ca3a5a71baadf2214cff98a6acc615b72), where it is produced by
    // PHP's Auth::generateSignature with passphrase 'payfastsandbox'; note cycles=0 is signed (only blanks skip).
    const b64 = (t: string) => Buffer.from(t).toString('base64').replace(/=+$/, '');
    const req = buildPaymentRequest({
      merchantId: '10028084',
      merchantKey: '4hjoenwbwnuso',
      passphrase: 'payfastsandbox',
      returnUrl: 'https://test.com/billing/success',
      cancelUrl: 'https://test.com/billing/cancel',
      notifyUrl: 'https://test.com/payfast/webhook',
      buyer: { nameFirst: 'Test', nameLast: 'Test', emailAddress: 'test@test.com' },
      mPaymentId: '5',
      amountCents: 500,
      itemName: 'Test',
      customInt: [1, 1],
      customStr: [b64('Some Test String'), b64('Another Test String')],
      emailConfirmation: true,
      confirmationAddress: 'test@test.test',
      subscription: { subscriptionType: 1, billingDate: '2023-01-01', recurringAmountCents: 500, frequency: 3, cycles: 0 },
    });
    // The SDK test sends recurring_amount '5' (not '5.00'); sign that variant through signature() directly.
    const fields = req.fields.map(([k, v]): [string, string] => [k, k === 'recurring_amount' ? '5' : v]);
    assert.equal(signature(fields, 'payfastsandbox'), '3441682c5d8a65486f5b7cc8ce41d146');
  });

  it('omits the passphrase when not set', () => {
    assert.equal(
      signatureString([
        ['a', 'x y'],
        ['b', ''],
      ]),
      'a=x+y',
    );
  });

  it('lays fields out in the documented order with formatted amounts and a subscription', () => {
    const req = buildPaymentRequest({
      ...input,
      subscription: { subscriptionType: 1, billingDate: '2026-12-01', recurringAmountCents: 9900, frequency: 3, cycles: 0 },
    });
    const keys = req.fields.map(([k]) => k);
    const positions = keys.map((k) => PAYFAST_FIELD_ORDER.indexOf(k as (typeof PAYFAST_FIELD_ORDER)[number]));
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
    );
    assert.ok(!positions.includes(-1));
    const f = Object.fromEntries(req.fields);
    assert.equal(f.amount, '123.45');
    assert.equal(f.recurring_amount, '99.00');
    assert.equal(f.subscription_type, '1');
    assert.equal(f.frequency, '3');
    assert.equal(f.cycles, '0');
    assert.equal(f.billing_date, '2026-12-01');
    const form = req.formFields();
    assert.deepEqual(form.at(-1), ['signature', req.signature]);
    const url = req.url('https://sandbox.payfast.co.za/eng/process');
    assert.ok(url.startsWith('https://sandbox.payfast.co.za/eng/process?merchant_id=10000100&'));
    assert.ok(url.endsWith(`&signature=${req.signature}`));
  });

  it('rejects bad input with a clear error', () => {
    const bad = (over: object, pattern: RegExp) =>
      assert.throws(
        () => buildPaymentRequest({ ...input, ...over }),
        (e: unknown) => e instanceof PayFastInputError && pattern.test(e.message),
      );
    bad({ amountCents: 12.5 }, /amountCents.*integer/);
    bad({ amountCents: -100 }, /amountCents/);
    bad({ amountCents: 0 }, /amountCents/);
    bad(
      { subscription: { subscriptionType: 1, billingDate: '2026-02-30', recurringAmountCents: 100, frequency: 3, cycles: 0 } },
      /billing_date/,
    );
    bad(
      { subscription: { subscriptionType: 1, billingDate: '01/12/2026', recurringAmountCents: 100, frequency: 3, cycles: 0 } },
      /YYYY-MM-DD/,
    );
    bad({ subscription: { subscriptionType: 1, recurringAmountCents: -1, frequency: 3, cycles: 0 } }, /recurringAmountCents/);
    bad({ passphrase: undefined, subscription: { subscriptionType: 1, recurringAmountCents: 100, frequency: 3, cycles: 0 } }, /passphrase/);
  });
});

describe('formatCents', () => {
  it('formats with two decimals using integer arithmetic', () => {
    assert.equal(formatCents(12345), '123.45');
    assert.equal(formatCents(5), '0.05');
    assert.equal(formatCents(100), '1.00');
    assert.equal(formatCents(0), '0.00');
    assert.throws(() => formatCents(1.5), PayFastInputError);
    assert.throws(() => formatCents(-1), PayFastInputError);
  });
});

describe('ITN checks', () => {
  // TEST VECTOR: written out by hand (blank fields INCLUDED, posted order, signature left out, passphrase appended)
  // and hashed with `printf '%s' '<string>' | md5sum`, giving 68f1ad2b7e0bf4be055268086164248f.
  const ITN_STRING =
    'm_payment_id=ORD-1&pf_payment_id=1089250&payment_status=COMPLETE&item_name=Digicard+Pro&item_description=' +
    '&amount_gross=123.45&amount_fee=-2.83&amount_net=120.62&custom_str1=&name_first=Thandi&name_last=' +
    '&email_address=thandi%40example.co.za&merchant_id=10000100&passphrase=jt7NOE43FZPn';
  const ITN_MD5 = '68f1ad2b7e0bf4be055268086164248f';
  const posted: Array<[string, string]> = [
    ['m_payment_id', 'ORD-1'],
    ['pf_payment_id', '1089250'],
    ['payment_status', 'COMPLETE'],
    ['item_name', 'Digicard Pro'],
    ['item_description', ''],
    ['amount_gross', '123.45'],
    ['amount_fee', '-2.83'],
    ['amount_net', '120.62'],
    ['custom_str1', ''],
    ['name_first', 'Thandi'],
    ['name_last', ''],
    ['email_address', 'thandi@example.co.za'],
    ['merchant_id', '10000100'],
    ['signature', ITN_MD5],
  ];

  it('includes blanks, keeps posted order and leaves out signature', () => {
    assert.equal(itnSignatureString(posted, PASSPHRASE), ITN_STRING);
    assert.ok(verifyItnSignature(posted, PASSPHRASE));
  });

  it('differs from the request rule, which skips blanks', () => {
    assert.notEqual(signature(posted, PASSPHRASE), ITN_MD5);
  });

  it('rejects tampering, reordering, a wrong passphrase and a missing signature', () => {
    const tampered = posted.map(([k, v]): [string, string] => [k, k === 'amount_gross' ? '1.00' : v]);
    assert.equal(verifyItnSignature(tampered, PASSPHRASE), false);
    const reordered: Array<[string, string]> = [posted[1]!, posted[0]!, ...posted.slice(2)];
    assert.equal(verifyItnSignature(reordered, PASSPHRASE), false);
    assert.equal(verifyItnSignature(posted, 'wrong'), false);
    assert.equal(verifyItnSignature(posted), false);
    assert.equal(
      verifyItnSignature(
        posted.filter(([k]) => k !== 'signature'),
        PASSPHRASE,
      ),
      false,
    );
  });

  it('checks the amount within ±0.01', () => {
    assert.ok(amountMatches('123.45', 12345));
    assert.ok(amountMatches('123.44', 12345));
    assert.ok(amountMatches('123.46', 12345));
    assert.ok(amountMatches('123.4', 12340));
    assert.ok(amountMatches('100', 10000));
    assert.equal(amountMatches('123.47', 12345), false);
    assert.equal(amountMatches('123.43', 12345), false);
    assert.equal(amountMatches('abc', 12345), false);
    assert.equal(amountMatches('-123.45', -12345), false);
    assert.equal(amountMatches('', 0), false);
  });

  it('checks the merchant', () => {
    assert.ok(merchantMatches(posted, '10000100'));
    assert.equal(merchantMatches(posted, '10000101'), false);
    assert.equal(merchantMatches([], '10000100'), false);
  });

  it('matches IPv4 addresses against CIDR lists', () => {
    const cidrs = ['197.97.145.144/28', '41.74.179.192/27', '10.0.0.1'];
    assert.ok(isPayFastAddress('197.97.145.144', cidrs));
    assert.ok(isPayFastAddress('197.97.145.159', cidrs));
    assert.equal(isPayFastAddress('197.97.145.160', cidrs), false);
    assert.ok(isPayFastAddress('41.74.179.223', cidrs));
    assert.ok(isPayFastAddress('::ffff:41.74.179.200', cidrs));
    assert.ok(isPayFastAddress('10.0.0.1', cidrs));
    assert.equal(isPayFastAddress('10.0.0.2', cidrs), false);
    assert.ok(isPayFastAddress('8.8.8.8', ['0.0.0.0/0']));
    assert.equal(isPayFastAddress('256.1.1.1', ['0.0.0.0/0']), false);
    assert.equal(isPayFastAddress('2001:db8::1', cidrs), false);
    assert.equal(isPayFastAddress('1.2.3.4', ['1.2.3.0/33', 'garbage']), false);
    assert.equal(isPayFastAddress('1.2.3.4', []), false);
  });
});

describe('validateWithPayFast', () => {
  let server: Server;
  let base = '';
  const bodies: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        bodies.push(body);
        if (req.url === '/valid/eng/query/validate') res.end('VALID');
        else if (req.url === '/invalid/eng/query/validate') res.end('INVALID');
        else if (req.url === '/hang/eng/query/validate')
          return; // never answers
        else {
          res.statusCode = 500;
          res.end('oops');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const pairs: Array<[string, string]> = [
    ['m_payment_id', 'ORD-1'],
    ['item_description', ''],
    ['name_last', "O'Neil"],
    ['signature', 'abc'],
  ];
  const fetchImpl: FetchLike = (url, init) => fetch(url, init);

  it('posts the exact received body and returns VALID', async () => {
    assert.equal(await validateWithPayFast(pairs, `${base}/valid/eng/query/validate`, fetchImpl, 2000), 'VALID');
    assert.equal(bodies.at(-1), 'm_payment_id=ORD-1&item_description=&name_last=O%27Neil&signature=abc');
  });
  it('returns INVALID', async () => {
    assert.equal(await validateWithPayFast(pairs, `${base}/invalid/eng/query/validate`, fetchImpl, 2000), 'INVALID');
  });
  it('returns ERROR on a time-out', async () => {
    const started = Date.now();
    assert.equal(await validateWithPayFast(pairs, `${base}/hang/eng/query/validate`, fetchImpl, 300), 'ERROR');
    assert.ok(Date.now() - started < 2000);
  });
  it('returns ERROR on a server error or a fetch that throws', async () => {
    assert.equal(await validateWithPayFast(pairs, `${base}/other/eng/query/validate`, fetchImpl, 2000), 'ERROR');
    const throwing: FetchLike = () => Promise.reject(new Error('boom'));
    assert.equal(await validateWithPayFast(pairs, `${base}/valid/eng/query/validate`, throwing, 2000), 'ERROR');
  });
});

describe('apiSignature', () => {
  // TEST VECTOR: sorted string written out by hand, hashed with `printf '%s' '<string>' | md5sum`.
  const API_STRING = 'amount=9900&merchant-id=10000100&passphrase=jt7NOE43FZPn&timestamp=2026-11-23T16%3A00%3A00%2B02%3A00&version=v1';
  const API_MD5 = '64504b1838282fc4de8e5a39e39276e9';

  it('sorts header, body and passphrase fields alphabetically', () => {
    const headers = { 'merchant-id': '10000100', version: 'v1', timestamp: '2026-11-23T16:00:00+02:00' };
    assert.equal(apiSignatureString(headers, { amount: 9900 }, PASSPHRASE), API_STRING);
    assert.equal(apiSignature(headers, { amount: 9900 }, PASSPHRASE), API_MD5);
  });
});
