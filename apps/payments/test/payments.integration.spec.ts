import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, PageMessages, Rpc, type PaymentHistory } from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';
import { itnSignatureString, md5Hex, pfEncode, signature } from '@digicard/payfast';
import { createSimulator, type PayFastSimulator } from '@digicard/payfast-simulator';
import { CONFIG } from '@digicard/server';
import { InProcessService, type Answer } from '@digicard/service-testing';
import { waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { Clock } from '../src/payments/clock.js';
import { ItnProcessor } from '../src/payments/workers/itn.processor.js';
import { PayFastClient } from '../src/payments/clients/payfast.client.js';
import { LapseJob } from '../src/payments/workers/lapse.job.js';
import { paymentsServiceWith } from '../src/service.js';

// The payments service in this process on a fresh database and its own NATS server, against the PayFast simulator
// (in-process, real HTTP). Three small stand-ins, each labelled: the gateway's notify route, orders and identity.

const PASSPHRASE = 'jt7NOE43FZPn';
const MERCHANT_ID = '10000100';

/** What a stand-in answers instead of a value: the ApiError the real service would send. */
class Refusal {
  constructor(readonly error: object) {}
}

class TestClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  travel(days: number): void {
    this.offsetMs += days * 86_400_000;
  }
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const clock = new TestClock();
let service: InProcessService<Config>;
let payfast: PayFastSimulator;
let peers: NatsConnection;
const servers: Server[] = [];
/** The validate endpoint as PayFast would answer it: passed to the simulator, or failing, or hanging. */
const validate = { mode: 'pass' as 'pass' | 'error' | 'hang' };
/** STAND-IN FOR THE GATEWAY's POST /api/payfast/notify: passes the raw body and address on; `hold` keeps ITNs back. */
const notify = { hold: false, held: [] as string[] };
/** STAND-INS FOR ORDERS (orders.order.for-payment) AND IDENTITY (identity.account.get). */
type StandInLine = {
  itemId: string;
  kind: 'accessory' | 'special';
  name: string;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  includedGoldMonths: number;
};
const orders = new Map<
  string,
  { accountId: string; status: 'awaiting-payment' | 'paid'; totalCents: number; reference: string; lines?: StandInLine[] }
>();

async function passItn(rawBody: string, sourceIp = '127.0.0.1') {
  const answer = await service.call(Rpc.receiveItn, { rawBody, sourceIp });
  expect(answer).toEqual({ ok: true, value: { received: true } });
}

beforeAll(async () => {
  payfast = await createSimulator({ port: 0, passphrase: PASSPHRASE, itnTimeoutMs: 5000 });
  const validateServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await bodyOf(req);
      if (validate.mode === 'hang') return;
      if (validate.mode === 'error') return res.writeHead(500).end('oops');
      const upstream = await fetch(`${payfast.url}/eng/query/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      res.writeHead(upstream.status, { 'content-type': 'text/plain' }).end(await upstream.text());
    })();
  });
  const gatewayStandIn = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await bodyOf(req);
      if (notify.hold) notify.held.push(body);
      else await passItn(body, req.socket.remoteAddress ?? '');
      res.writeHead(200).end();
    })();
  });
  servers.push(validateServer, gatewayStandIn);
  const validateUrl = await listen(validateServer);
  const publicUrl = await listen(gatewayStandIn);
  service = await InProcessService.start(paymentsServiceWith(clock), {
    PUBLIC_URL: publicUrl,
    PAYFAST_PROCESS_URL: `${payfast.url}/eng/process`,
    PAYFAST_VALIDATE_URL: `${validateUrl}/eng/query/validate`,
    PAYFAST_API_URL: payfast.url,
    PAYFAST_MERCHANT_ID: MERCHANT_ID,
    PAYFAST_MERCHANT_KEY: '46f0cd694581a',
    PAYFAST_PASSPHRASE: PASSPHRASE,
    PAYFAST_SOURCE_RANGES: '127.0.0.1/32',
    PAYFAST_VALIDATE_TIMEOUT_MS: '500',
    MEMBERSHIP_GRACE_DAYS: '7',
  });
  peers = await connectNats(service.natsUrl, 'stand-in-orders-identity');
  const answer = (subject: string, respond: (meta: { userId: string | null }, body: Record<string, string>) => unknown) => {
    const sub = peers.subscribe(subject, { queue: 'stand-in' });
    void (async () => {
      for await (const msg of sub) {
        const packet = JSON.parse(new TextDecoder().decode(msg.data)) as {
          id: string;
          data: { meta: { userId: string | null }; body: Record<string, string> };
        };
        const result = respond(packet.data.meta, packet.data.body);
        const reply =
          result instanceof Refusal
            ? { id: packet.id, err: result.error, isDisposed: true }
            : { id: packet.id, response: result, isDisposed: true };
        msg.respond(JSON.stringify(reply));
      }
    })();
  };
  answer(Rpc.orderForPayment.subject, (_meta, { orderId }) => {
    const order = orders.get(orderId!);
    if (!order) return new Refusal({ statusCode: 404, code: 'NOT_FOUND', message: 'Order not found.' });
    const at = new Date().toISOString();
    const line = {
      itemId: 'nfc-card',
      kind: 'accessory',
      name: 'NFC card',
      quantity: 1,
      unitPriceCents: order.totalCents,
      lineTotalCents: order.totalCents,
      includedGoldMonths: 0,
    };
    return {
      accountId: order.accountId,
      order: {
        id: orderId,
        reference: order.reference,
        status: order.status,
        lines: order.lines ?? [line],
        totalCents: order.totalCents,
        createdAt: at,
        paidAt: null,
      },
    };
  });
  answer(Rpc.getAccount.subject, (meta) => ({
    id: meta.userId,
    username: 'thandi',
    email: 'thandi@example.co.za',
    firstName: 'Thandi',
    lastName: "O'Neil",
    role: 'user',
    isVerified: true,
  }));
});

afterAll(async () => {
  await peers?.close();
  await service?.stop();
  await payfast?.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const itnRows = () =>
  service.sql<{ id: string; verdict: string | null; reason: string | null; raw_body: string }>(
    'SELECT id, verdict, reason, raw_body FROM payments.itns ORDER BY received_at',
  );
const countOf = async (table: string) => (await service.sql<{ n: number }>(`SELECT count(*)::int AS n FROM payments.${table}`))[0]!.n;
/** Waits until every stored ITN has a final verdict (or is waiting to retry) and returns the newest `n`. */
async function decided(total: number) {
  return waitFor(`${total} ITNs decided`, async () => {
    const rows = await itnRows();
    return rows.length >= total && rows.every((r) => r.verdict !== null) ? rows : null;
  });
}

/** The buyer on the simulator's page: open the signed redirect, press Pay (the ITN goes to the notify stand-in). */
async function pay(redirectUrl: string): Promise<void> {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  expect(page.status).toBe(200);
  const action = /\/eng\/process\/([\w-]+)/.exec(html.replace(/&#x2F;|&#47;/g, '/'))?.[1];
  expect(action).toBeDefined();
  const paid = await fetch(`${payfast.url}/eng/process/${action}/pay`, { method: 'POST', redirect: 'manual' });
  expect([200, 303]).toContain(paid.status);
}

/** An ITN we sign ourselves (so only the check under test can fail it). */
function signedItn(fields: Array<[string, string]>): string {
  const sig = md5Hex(itnSignatureString(fields, PASSPHRASE));
  return [...fields, ['signature', sig] as [string, string]].map(([k, v]) => `${k}=${pfEncode(v)}`).join('&');
}

function newOrder(totalCents = 25_000) {
  const accountId = randomUUID();
  const orderId = randomUUID();
  orders.set(orderId, { accountId, status: 'awaiting-payment', totalCents, reference: `DC-${orderId.slice(0, 6).toUpperCase()}` });
  return { accountId, orderId };
}

describe('plans', () => {
  it('lists the tiers with their monthly prices', async () => {
    expect(await service.call(Rpc.listPlans, {})).toEqual({
      ok: true,
      value: {
        plans: [
          { tier: 'DigiShare', monthlyPriceCents: 0 },
          { tier: 'DigiSilver', monthlyPriceCents: 4900 },
          { tier: 'DigiGold', monthlyPriceCents: 6900 },
          { tier: 'DigiPlatinum', monthlyPriceCents: null },
        ],
      },
    });
  });
});

describe('an order paid at PayFast', () => {
  it('refuses another user’s order (404), an order not awaiting payment (409) and a visitor (401)', async () => {
    const { orderId } = newOrder();
    expect(await service.call(Rpc.startOrderPayment, { orderId }, { accountId: randomUUID() })).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.startOrderPayment, { orderId: randomUUID() }, { accountId: randomUUID() })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await service.call(Rpc.startOrderPayment, { orderId }, null)).toMatchObject({ ok: false, status: 401 });
    const paid = newOrder();
    orders.get(paid.orderId)!.status = 'paid';
    expect(await service.call(Rpc.startOrderPayment, { orderId: paid.orderId }, { accountId: paid.accountId })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await countOf('payment_requests')).toBe(0);
  });

  it('signs the request in PayFast’s order; one payment and one event however often the ITN comes; bad copies change nothing', async () => {
    const { accountId, orderId } = newOrder(25_000);
    const started = await service.call(Rpc.startOrderPayment, { orderId }, { accountId });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const url = new URL(started.value.redirectUrl);
    expect([...url.searchParams.keys()]).toEqual([
      'merchant_id',
      'merchant_key',
      'return_url',
      'cancel_url',
      'notify_url',
      'name_first',
      'name_last',
      'email_address',
      'm_payment_id',
      'amount',
      'item_name',
      'signature',
    ]);
    expect(url.searchParams.get('amount')).toBe('250.00');
    expect(url.searchParams.get('item_name')).toMatch(/^DigiCard NFC cards, order DC-/);
    expect(url.searchParams.get('cancel_url')).toMatch(/\/cancel$/);
    // A card order comes back to the card-order confirmation.
    expect(new URL(url.searchParams.get('return_url')!).pathname).toBe('/thank-you');
    await pay(started.value.redirectUrl);
    let rows = await decided(1);
    expect(rows[0]).toMatchObject({ verdict: 'applied' });
    const genuine = rows[0]!.raw_body;

    // The same ITN four more times: still one payment, one event.
    for (let i = 0; i < 4; i++) await passItn(genuine);
    rows = await decided(5);
    expect(rows.slice(1).map((r) => r.verdict)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect(await countOf('payments')).toBe(1);
    const completed = await service.recordedEvents(Events.paymentCompleted.subject);
    expect(completed.map((e) => e.data)).toEqual([expect.objectContaining({ accountId, orderId, kind: 'order', amountCents: 25_000 })]);
    const eventsBefore = (await service.recordedEvents()).length;

    // Tampered signature, wrong amount (re-signed), wrong source address, wrong merchant, unknown order.
    await fetch(`${payfast.url}/_sim/itns/1/resend`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"tamper":"signature"}',
    });
    await fetch(`${payfast.url}/_sim/itns/1/resend`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"tamper":"amount"}',
    });
    await passItn(genuine, '10.9.8.7');
    const pairs = [...new URLSearchParams(genuine)].filter(([k]) => k !== 'signature');
    await passItn(signedItn(pairs.map(([k, v]) => [k, k === 'merchant_id' ? '99999' : k === 'pf_payment_id' ? '77' : v])));
    await passItn(signedItn(pairs.map(([k, v]) => [k, k === 'm_payment_id' ? randomUUID() : k === 'pf_payment_id' ? '78' : v])));
    rows = await decided(10);
    const bad = rows.slice(5);
    expect(bad.map((r) => r.verdict)).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    expect(bad.map((r) => r.reason)).toEqual([
      expect.stringMatching(/signature/),
      expect.stringMatching(/amount_gross 1\.00/),
      expect.stringMatching(/source address 10\.9\.8\.7/),
      expect.stringMatching(/merchant_id 99999/),
      expect.stringMatching(/unknown m_payment_id/),
    ]);
    expect(await countOf('payments')).toBe(1);
    expect((await service.recordedEvents()).length).toBe(eventsBefore);
  });

  it('does not apply an ITN while the validate call fails or times out, and applies it once PayFast answers', async () => {
    const { accountId, orderId } = newOrder(9_900);
    const started = await service.call(Rpc.startOrderPayment, { orderId }, { accountId });
    if (!started.ok) throw new Error('not started');
    const before = (await itnRows()).length;
    validate.mode = 'error';
    await pay(started.value.redirectUrl);
    let rows = await decided(before + 1);
    expect(rows.at(-1)).toMatchObject({ verdict: 'retrying', reason: expect.stringMatching(/validate/) });
    validate.mode = 'hang';
    clock.travel(1 / 24);
    await service.get(ItnProcessor).processDue();
    rows = await itnRows();
    expect(rows.at(-1)).toMatchObject({ verdict: 'retrying' });
    expect(await service.sql('SELECT 1 FROM payments.payments WHERE order_id = $1', [orderId])).toHaveLength(0);
    validate.mode = 'pass';
    clock.travel(1 / 24);
    await service.get(ItnProcessor).processDue();
    rows = await itnRows();
    expect(rows.at(-1)).toMatchObject({ verdict: 'applied' });
    expect(await service.sql('SELECT 1 FROM payments.payments WHERE order_id = $1', [orderId])).toHaveLength(1);
  });
});

async function subscribe(accountId: string, tier: 'DigiSilver' | 'DigiGold') {
  const started = await service.call(Rpc.startMembership, { tier }, { accountId });
  if (!started.ok) throw new Error(JSON.stringify(started));
  return started.value.redirectUrl;
}
const membershipEvents = async (accountId: string) =>
  (await service.recordedEvents<{ accountId: string; membership: string; version: number }>(Events.membershipChanged.subject))
    .filter((e) => e.data.accountId === accountId)
    .map((e) => e.data);
const subscriptionOf = async (accountId: string) =>
  (
    await service.sql<{ status: string; token: string | null; paid_until: Date | null; next_billing_date: string | null }>(
      'SELECT status, token, paid_until, next_billing_date FROM payments.subscriptions WHERE account_id = $1 ORDER BY updated_at DESC LIMIT 1',
      [accountId],
    )
  )[0]!;

describe('memberships', () => {
  it('starts DigiSilver monthly; a failed recurring charge puts it past due; it lapses to DigiShare after the grace', async () => {
    const accountId = randomUUID();
    const redirectUrl = await subscribe(accountId, 'DigiSilver');
    const q = new URL(redirectUrl).searchParams;
    expect({
      type: q.get('subscription_type'),
      freq: q.get('frequency'),
      cycles: q.get('cycles'),
      rec: q.get('recurring_amount'),
      amount: q.get('amount'),
    }).toEqual({
      type: '1',
      freq: '3',
      cycles: '0',
      rec: '49.00',
      amount: '49.00',
    });
    expect(q.get('cancel_url')).toMatch(/\/pricing$/);
    // A membership comes back to the dashboard's Billing section (not the card-order thank-you page).
    // The spec: "billing_date (today)": the first month is paid now, the next charge a month on (SAST).
    expect(q.get('billing_date')).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(clock.now()));
    const returnUrl = new URL(q.get('return_url')!);
    expect(returnUrl.pathname + returnUrl.search).toBe('/dashboard?section=billing');
    // Another tab cannot open a second checkout while this one may still be paid.
    expect(await service.call(Rpc.startMembership, { tier: 'DigiGold' }, { accountId })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/DigiSilver payment at PayFast is not finished/),
    });
    const before = (await itnRows()).length;
    await pay(redirectUrl);
    await decided(before + 1);
    const sub = await subscriptionOf(accountId);
    expect(sub).toMatchObject({ status: 'active', token: expect.any(String) });
    expect(await membershipEvents(accountId)).toEqual([expect.objectContaining({ membership: 'DigiSilver', version: 1 })]);
    expect(await service.call(Rpc.startMembership, { tier: 'DigiGold' }, { accountId })).toMatchObject({ ok: false, status: 409 });

    // The simulator's first recurring charge is dated today (already paid); the next one, a month on, fails.
    await fetch(`${payfast.url}/_sim/subscriptions/${sub.token}/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"status":"COMPLETE"}',
    });
    await fetch(`${payfast.url}/_sim/subscriptions/${sub.token}/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"status":"FAILED"}',
    });
    await decided(before + 3);
    expect(await subscriptionOf(accountId)).toMatchObject({ status: 'past-due' });
    expect(
      (await service.recordedEvents<{ accountId: string }>(Events.paymentFailed.subject)).filter((e) => e.data.accountId === accountId),
    ).toHaveLength(1);
    const billing = await service.call(Rpc.getBilling, {}, { accountId });
    expect(billing).toMatchObject({ ok: true, value: { membership: 'DigiSilver', subscription: { status: 'past-due' } } });

    clock.travel(6);
    await service.get(LapseJob).run();
    expect(await subscriptionOf(accountId)).toMatchObject({ status: 'past-due' });
    clock.travel(2);
    await service.get(LapseJob).run();
    expect(await subscriptionOf(accountId)).toMatchObject({ status: 'ended' });
    expect((await membershipEvents(accountId)).at(-1)).toMatchObject({ membership: 'DigiShare' });
    expect(await service.call(Rpc.getBilling, {}, { accountId })).toMatchObject({ ok: true, value: { membership: 'DigiShare' } });
  });

  it('opens one checkout per account however many start at once; one left for 30 minutes is given up, and paying it late is flagged for a refund', async () => {
    const accountId = randomUUID();
    const tiers = ['DigiSilver', 'DigiGold', 'DigiSilver', 'DigiGold', 'DigiSilver'] as const;
    const answers = await Promise.all(tiers.map((tier) => service.call(Rpc.startMembership, { tier }, { accountId })));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok)).toEqual(Array.from({ length: 4 }, () => expect.objectContaining({ ok: false, status: 409 })));
    const pendingOf = () =>
      service.sql<{ status: string }>('SELECT status FROM payments.subscriptions WHERE account_id = $1 ORDER BY created_at', [accountId]);
    expect(await pendingOf()).toEqual([{ status: 'pending' }]);
    expect(await service.call(Rpc.getBilling, {}, { accountId })).toMatchObject({
      ok: true,
      value: { subscription: { status: 'pending' } },
    });
    const first = answers.find((a) => a.ok)!;
    if (!first.ok) throw new Error('unreachable');

    // Half an hour on, the checkout is given up: Billing offers the tiers again and a new checkout opens.
    clock.travel(31 / (24 * 60));
    expect(await service.call(Rpc.getBilling, {}, { accountId })).toMatchObject({ ok: true, value: { subscription: null } });
    const again = await subscribe(accountId, 'DigiGold');
    expect(await pendingOf()).toEqual([{ status: 'ended' }, { status: 'pending' }]);
    const before = (await itnRows()).length;
    await pay(again);
    await pay(first.value.redirectUrl);
    const rows = await decided(before + 2);
    expect(rows.at(-1)!.reason).toMatch(/refund/);
    // The staff console lists it for a refund; nobody else may ask.
    const refunds = await service.call(Rpc.staffRefundsDue, {}, { accountId: randomUUID(), role: 'staff' });
    const firstTier = tiers[answers.findIndex((a) => a.ok)];
    expect(refunds).toMatchObject({
      ok: true,
      value: {
        payments: [
          expect.objectContaining({
            accountId,
            amountCents: firstTier === 'DigiGold' ? 6900 : 4900,
            reason: expect.stringMatching(/given up/),
          }),
        ],
      },
    });
    expect(await service.call(Rpc.staffRefundsDue, {}, { accountId })).toMatchObject({ ok: false, status: 403 });
    expect(await service.call(Rpc.staffRefundsDue, {}, null)).toMatchObject({ ok: false, status: 401 });

    // One checkout paid twice (the PayFast page open in two tabs): two PayFast subscriptions; the second is flagged.
    const twice = randomUUID();
    const url = await subscribe(twice, 'DigiSilver');
    const count = (await itnRows()).length;
    await pay(url);
    await pay(url);
    expect((await decided(count + 2)).at(-1)).toMatchObject({
      verdict: 'applied',
      reason: expect.stringMatching(/second PayFast subscription/),
    });
    expect(await subscriptionOf(twice)).toMatchObject({ status: 'active' });
    const flagged = await service.call(Rpc.staffRefundsDue, {}, { accountId: randomUUID(), role: 'staff' });
    if (!flagged.ok) throw new Error('refunds not listed');
    expect(flagged.value.payments.filter((p) => p.accountId === twice)).toEqual([
      expect.objectContaining({ amountCents: 4900, reason: expect.stringMatching(/cancel that subscription at PayFast/) }),
    ]);
    expect(await service.call(Rpc.getBilling, {}, { accountId })).toMatchObject({
      ok: true,
      value: { membership: 'DigiGold', subscription: { status: 'active', tier: 'DigiGold' } },
    });
  });

  it('lists every payment to refund a page at a time, newest first, none left out or repeated (once capped at 200)', async () => {
    const staff = { accountId: randomUUID(), role: 'staff' as const };
    const before = await service.call(Rpc.staffRefundsDue, { limit: 100 }, staff);
    if (!before.ok) throw new Error('refunds not listed');
    // 205 flagged payments, several within one microsecond of each other (ties are ordered by id).
    const accountId = randomUUID();
    await service.sql(
      `INSERT INTO payments.payments (id, pf_payment_id, payment_request_id, account_id, kind, amount_cents, status, description, itn_id, refund_due, created_at)
       SELECT gen_random_uuid(), 'pf-refund-' || n, gen_random_uuid(), $1, 'subscription', 4900, 'complete', 'DigiSilver', gen_random_uuid(),
              'given up before it was paid: refund at PayFast', timestamptz '2030-01-01T00:00:00Z' + (n / 3) * interval '1 second'
       FROM generate_series(1, 205) AS n`,
      [accountId],
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await service.call(Rpc.staffRefundsDue, { limit: 40, ...(cursor ? { cursor } : {}) }, staff);
      if (!page.ok) throw new Error(page.message);
      seen.push(...page.value.payments.filter((p) => p.accountId === accountId).map((p) => p.pfPaymentId));
      cursor = page.value.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 20);
    expect(new Set(seen).size).toBe(205);
    expect(seen.length).toBe(205);
    // Newest first: the 204th and 205th share the newest second (ties go by id), then the 201st to 203rd.
    expect(seen.slice(0, 2).sort().join()).toBe('pf-refund-204,pf-refund-205');
    expect(seen.slice(2, 5).sort().join()).toBe('pf-refund-201,pf-refund-202,pf-refund-203');
    expect(pages).toBe(Math.ceil((205 + before.value.payments.length) / 40));
    // A cursor that is not one of ours, or a limit out of range, is refused with the field named.
    expect(await service.call(Rpc.staffRefundsDue, { cursor: 'not-a-cursor' }, staff)).toMatchObject({ ok: false, status: 400 });
    expect(await service.call(Rpc.staffRefundsDue, { limit: 101 }, staff)).toMatchObject({ ok: false, status: 400 });
    // Nobody but staff.
    expect(await service.call(Rpc.staffRefundsDue, {}, { accountId })).toMatchObject({ ok: false, status: 403 });
    await service.sql('DELETE FROM payments.payments WHERE account_id = $1', [accountId]);
  });

  it('cancels through the API: cancelling, the tier kept until paid_until, then DigiShare', async () => {
    const accountId = randomUUID();
    expect(await service.call(Rpc.cancelMembership, {}, { accountId })).toMatchObject({ ok: false, status: 404 });
    const before = (await itnRows()).length;
    await pay(await subscribe(accountId, 'DigiGold'));
    await decided(before + 1);
    const cancelled = await service.call(Rpc.cancelMembership, {}, { accountId });
    expect(cancelled).toMatchObject({ ok: true, value: { membership: 'DigiGold', subscription: { status: 'cancelling' } } });
    // Live PayFast (PAYFAST_SANDBOX unset): the API call carries no `testing`.
    expect(payfast.store.apiCalls.at(-1)).toMatchObject({
      method: 'PUT',
      path: expect.stringMatching(/^\/subscriptions\/.+\/cancel$/),
      query: {},
      status: 200,
    });
    // PayFast's CANCELLED ITN follows the API call and changes nothing more.
    const rows = await decided(before + 2);
    expect(rows.at(-1)).toMatchObject({ verdict: 'duplicate' });
    // One cancellation event (the owner's email), with the day the tier ends.
    const { paid_until } = await subscriptionOf(accountId);
    const cancellations = (await service.recordedEvents<{ accountId: string }>(Events.subscriptionCancelled.subject)).filter(
      (e) => e.data.accountId === accountId,
    );
    expect(cancellations.map((e) => e.data)).toEqual([
      expect.objectContaining({ tier: 'DigiGold', monthlyPriceCents: 6900, endsAt: paid_until!.toISOString(), by: 'owner' }),
    ]);
    expect(await service.call(Rpc.cancelMembership, {}, { accountId })).toMatchObject({ ok: true });
    expect(
      (await service.recordedEvents<{ accountId: string }>(Events.subscriptionCancelled.subject)).filter(
        (e) => e.data.accountId === accountId,
      ),
    ).toHaveLength(1);
    clock.travel(20);
    expect(await service.get(LapseJob).run()).toBe(0);
    clock.travel(15);
    await service.get(LapseJob).run();
    expect(await subscriptionOf(accountId)).toMatchObject({ status: 'ended' });
    expect((await membershipEvents(accountId)).map((e) => [e.membership, e.version])).toEqual([
      ['DigiGold', 1],
      ['DigiShare', 2],
    ]);
  });

  it('sends ?testing=true on subscriptions API calls in sandbox mode only; a cancellation at PayFast is recorded for the email', async () => {
    const accountId = randomUUID();
    const before = (await itnRows()).length;
    await pay(await subscribe(accountId, 'DigiSilver'));
    await decided(before + 1);
    const { token } = await subscriptionOf(accountId);
    const live = service.get(CONFIG as unknown as abstract new () => Config);
    const sandbox = new PayFastClient({ ...live, PAYFAST_SANDBOX: true });
    expect(await sandbox.updateSubscriptionAmount(token!, 4900, new Date())).toMatchObject({ ok: true, status: 200 });
    expect(payfast.store.apiCalls.at(-1)).toMatchObject({ method: 'PATCH', query: { testing: 'true' }, status: 200 });
    expect(await new PayFastClient(live).updateSubscriptionAmount(token!, 4900, new Date())).toMatchObject({ ok: true });
    expect(payfast.store.apiCalls.at(-1)).toMatchObject({ method: 'PATCH', query: {} });
    // Cancelled at PayFast (the sandbox client, as the merchant's own dashboard would): the CANCELLED ITN moves it.
    expect(await sandbox.cancelSubscription(token!, new Date())).toMatchObject({ ok: true });
    expect(payfast.store.apiCalls.at(-1)).toMatchObject({ method: 'PUT', query: { testing: 'true' } });
    expect((await decided(before + 2)).at(-1)).toMatchObject({
      verdict: 'applied',
      reason: 'cancelled at PayFast: tier kept until paid_until',
    });
    expect(await subscriptionOf(accountId)).toMatchObject({ status: 'cancelling' });
    const cancellations = (await service.recordedEvents<{ accountId: string }>(Events.subscriptionCancelled.subject)).filter(
      (e) => e.data.accountId === accountId,
    );
    expect(cancellations.map((e) => e.data)).toEqual([
      expect.objectContaining({ tier: 'DigiSilver', monthlyPriceCents: 4900, by: 'payfast' }),
    ]);
  });

  it('keeps state right when a recurring ITN arrives before the first', async () => {
    const accountId = randomUUID();
    const before = (await itnRows()).length;
    notify.hold = true;
    await pay(await subscribe(accountId, 'DigiSilver'));
    notify.hold = false;
    const token = payfast.store.itns.at(-1)!.token!;
    await fetch(`${payfast.url}/_sim/subscriptions/${token}/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"status":"COMPLETE"}',
    });
    await decided(before + 1);
    const afterRecurring = await subscriptionOf(accountId);
    expect(afterRecurring).toMatchObject({ status: 'active', token });
    for (const body of notify.held.splice(0)) await passItn(body);
    const rows = await decided(before + 2);
    expect(rows.at(-1)).toMatchObject({ verdict: 'applied' });
    const final = await subscriptionOf(accountId);
    expect(final.status).toBe('active');
    expect(final.next_billing_date).toEqual(afterRecurring.next_billing_date);
    expect(final.paid_until!.getTime()).toBeGreaterThanOrEqual(afterRecurring.paid_until!.getTime());
    expect(await service.sql('SELECT 1 FROM payments.payments WHERE account_id = $1', [accountId])).toHaveLength(2);
  });

  it('never shows one account’s billing to another', async () => {
    const stranger = randomUUID();
    expect(await service.call(Rpc.getBilling, {}, { accountId: stranger })).toEqual({
      ok: true,
      value: { membership: 'DigiShare', subscription: null },
    });
    expect(await service.call(Rpc.listPayments, {}, { accountId: stranger })).toEqual({
      ok: true,
      value: { payments: [], nextCursor: null },
    });
    expect(await service.call(Rpc.getBilling, {}, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.listPayments, {}, null)).toMatchObject({ ok: false, status: 401 });
  });

  it('lists the owner’s own payments a page at a time, newest first: none left out or repeated, nobody else’s, a bad cursor 400', async () => {
    // 57 payments of one account (three to a second: ties are ordered by id), 5 of another.
    const [mine, theirs] = [randomUUID(), randomUUID()];
    const insert = (accountId: string, count: number, label: string) =>
      service.sql(
        `INSERT INTO payments.payments (id, pf_payment_id, payment_request_id, account_id, kind, amount_cents, status, description, itn_id, created_at)
         SELECT gen_random_uuid(), $2 || '-' || n, gen_random_uuid(), $1, 'order', 100 * n, 'complete', $2 || ' ' || n, gen_random_uuid(),
                timestamptz '2031-01-01T00:00:00Z' + (n / 3) * interval '1 second'
         FROM generate_series(1, $3::int) AS n`,
        [accountId, label, count],
      );
    await insert(mine, 57, 'mine');
    await insert(theirs, 5, 'theirs');
    const seen: Array<{ description: string; at: string }> = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page: Answer<PaymentHistory> = await service.call(
        Rpc.listPayments,
        { limit: 10, ...(cursor ? { cursor } : {}) },
        { accountId: mine },
      );
      if (!page.ok) throw new Error(page.message);
      expect(page.value.payments.length).toBeLessThanOrEqual(10);
      seen.push(...page.value.payments);
      cursor = page.value.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(6);
    expect(seen).toHaveLength(57);
    expect(new Set(seen.map((p) => p.description)).size).toBe(57);
    expect(seen.every((p) => p.description.startsWith('mine '))).toBe(true);
    // Newest first: the 57th alone in its second, then the 54th to 56th sharing one (in the order of their ids).
    expect(seen[0]?.description).toBe('mine 57');
    expect(
      seen
        .slice(1, 4)
        .map((p) => p.description)
        .sort(),
    ).toEqual(['mine 54', 'mine 55', 'mine 56']);
    expect(seen.map((p) => p.at)).toEqual([...seen.map((p) => p.at)].sort().reverse());
    // The other account sees its own five only, whatever cursor it sends (a cursor is a position, not an account).
    const first = await service.call(Rpc.listPayments, { limit: 10 }, { accountId: mine });
    const other = await service.call(Rpc.listPayments, first.ok ? { cursor: first.value.nextCursor! } : {}, { accountId: theirs });
    expect(other.ok && other.value.payments.every((p) => p.description.startsWith('theirs '))).toBe(true);
    const all = await service.call(Rpc.listPayments, {}, { accountId: theirs });
    expect(all.ok && all.value.payments.map((p) => p.description).sort()).toEqual([
      'theirs 1',
      'theirs 2',
      'theirs 3',
      'theirs 4',
      'theirs 5',
    ]);
    // A cursor that is not one of ours, or of another kind of list, and a limit out of range: 400.
    expect(await service.call(Rpc.listPayments, { cursor: 'not-a-cursor' }, { accountId: mine })).toMatchObject({ ok: false, status: 400 });
    const byText = Buffer.from(JSON.stringify({ id: 'x', key: 'y' })).toString('base64url');
    expect(await service.call(Rpc.listPayments, { cursor: byText }, { accountId: mine })).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { cursor: [PageMessages.badCursor] },
    });
    expect(await service.call(Rpc.listPayments, { limit: 101 }, { accountId: mine })).toMatchObject({ ok: false, status: 400 });
    await service.sql('DELETE FROM payments.payments WHERE account_id = ANY($1)', [[mine, theirs]]);
  });

  it('keeps every ITN with its verdict', async () => {
    const rows = await itnRows();
    expect(rows.length).toBeGreaterThan(15);
    expect(rows.every((r) => r.verdict !== null && r.reason !== null)).toBe(true);
  });
});

describe('changing between DigiSilver and DigiGold while subscribed', () => {
  const charge = (token: string, status: 'COMPLETE' | 'FAILED') =>
    fetch(`${payfast.url}/_sim/subscriptions/${token}/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status }),
    });
  const simSubscription = async (token: string) =>
    ((await (await fetch(`${payfast.url}/_sim/subscriptions`)).json()) as Array<{ token: string; recurringCents: number }>).find(
      (s) => s.token === token,
    )!;
  const nextTierOf = async (accountId: string) =>
    (
      await service.sql<{ tier: string; next_tier: string | null }>(
        'SELECT tier, next_tier FROM payments.subscriptions WHERE account_id = $1',
        [accountId],
      )
    )[0]!;

  /** A paid DigiSilver subscription whose simulator charge for today (already paid) has come: the next is a month on. */
  async function activeSilver() {
    const accountId = randomUUID();
    const before = (await itnRows()).length;
    await pay(await subscribe(accountId, 'DigiSilver'));
    await decided(before + 1);
    const { token } = await subscriptionOf(accountId);
    await charge(token!, 'COMPLETE');
    await decided(before + 2);
    return { accountId, token: token! };
  }

  it('asks PayFast for the new amount; the charge from the next billing date pays DigiGold and makes it the tier; a tampered amount is rejected', async () => {
    const { accountId, token } = await activeSilver();
    const before0 = await service.call(Rpc.getBilling, {}, { accountId });
    const nextBillingDate = before0.ok ? before0.value.subscription?.nextBillingDate : undefined;
    expect(nextBillingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const changed = await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId });
    expect(changed).toMatchObject({
      ok: true,
      value: { membership: 'DigiSilver', subscription: { tier: 'DigiSilver', status: 'active', nextTier: 'DigiGold', nextBillingDate } },
    });
    expect((await simSubscription(token)).recurringCents).toBe(6900);
    expect(await nextTierOf(accountId)).toEqual({ tier: 'DigiSilver', next_tier: 'DigiGold' });
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId })).toMatchObject({ ok: false, status: 409 });
    expect((await membershipEvents(accountId)).map((e) => [e.membership, e.version])).toEqual([
      ['DigiSilver', 1],
      ['DigiSilver', 2],
    ]);

    clock.travel(31);
    const before = (await itnRows()).length;
    await charge(token, 'COMPLETE');
    const rows = await decided(before + 1);
    expect(rows.at(-1)).toMatchObject({ verdict: 'applied', reason: `charge for ${nextBillingDate} paid: now DigiGold` });
    expect(await nextTierOf(accountId)).toEqual({ tier: 'DigiGold', next_tier: null });
    expect((await membershipEvents(accountId)).at(-1)).toMatchObject({ membership: 'DigiGold', version: 3 });
    const billing = await service.call(Rpc.getBilling, {}, { accountId });
    expect(billing).toMatchObject({
      ok: true,
      value: { membership: 'DigiGold', subscription: { tier: 'DigiGold', monthlyPriceCents: 6900, nextTier: null } },
    });
    const payments = await service.call(Rpc.listPayments, { limit: 1 }, { accountId });
    expect(payments.ok && payments.value.payments[0]).toMatchObject({
      amountCents: 6900,
      description: 'DigiCard DigiGold membership (monthly)',
    });

    // The old DigiSilver amount for a DigiGold month, re-signed: rejected, nothing recorded.
    const genuine = [...new URLSearchParams(rows.at(-1)!.raw_body)].filter(([k]) => k !== 'signature');
    expect(genuine.find(([k]) => k === 'amount_gross')?.[1]).toBe('69.00');
    const paymentsBefore = await countOf('payments');
    await passItn(
      signedItn(genuine.map(([k, v]) => [k, k === 'amount_gross' ? '49.00' : k === 'pf_payment_id' ? `tampered-${randomUUID()}` : v])),
    );
    expect((await decided(before + 2)).at(-1)).toMatchObject({
      verdict: 'rejected',
      reason: expect.stringMatching(/amount_gross 49\.00 is not the 6900 cents/),
    });
    expect(await countOf('payments')).toBe(paymentsBefore);
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId })).toMatchObject({ ok: false, status: 409 });
  });

  it('accepts a late DigiSilver charge for a month before the switch at the DigiSilver price, and still refuses a wrong amount', async () => {
    // Paid DigiSilver; the charge for today (D0) is held back on its way to us.
    const accountId = randomUUID();
    const before = (await itnRows()).length;
    await pay(await subscribe(accountId, 'DigiSilver'));
    await decided(before + 1);
    const { token } = await subscriptionOf(accountId);
    notify.hold = true;
    await charge(token!, 'COMPLETE');
    notify.hold = false;
    const [lateBody] = notify.held.splice(0);
    expect(lateBody).toBeDefined();
    const late = [...new URLSearchParams(lateBody)];
    expect(late.find(([k]) => k === 'amount_gross')?.[1]).toBe('49.00');
    const lateDate = late.find(([k]) => k === 'billing_date')?.[1];
    // Switched to DigiGold; the next month's charge (DigiGold) arrives first and makes DigiGold the tier.
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId })).toMatchObject({ ok: true });
    clock.travel(31);
    await charge(token!, 'COMPLETE');
    expect((await decided(before + 2)).at(-1)).toMatchObject({ verdict: 'applied', reason: expect.stringMatching(/: now DigiGold$/) });
    expect(await nextTierOf(accountId)).toEqual({ tier: 'DigiGold', next_tier: null });
    // The late DigiSilver ITN for D0: paid at the price of D0, the tier stays DigiGold.
    await passItn(lateBody!);
    expect((await decided(before + 3)).at(-1)).toMatchObject({ verdict: 'applied', reason: `charge for ${lateDate} paid` });
    expect(await nextTierOf(accountId)).toEqual({ tier: 'DigiGold', next_tier: null });
    const amounts = await service.sql<{ amount_cents: number; billing_date: string; description: string }>(
      "SELECT amount_cents, billing_date::text, description FROM payments.payments WHERE account_id = $1 AND kind = 'subscription' ORDER BY billing_date",
      [accountId],
    );
    expect(amounts.find((p) => p.billing_date === lateDate && p.amount_cents === 4900)).toMatchObject({
      description: 'DigiCard DigiSilver membership (monthly)',
    });
    // The same month at the DigiGold price (re-signed, new pf_payment_id): refused, nothing recorded.
    const paymentsBefore = await countOf('payments');
    const unsigned = late.filter(([k]) => k !== 'signature');
    await passItn(
      signedItn(unsigned.map(([k, v]) => [k, k === 'amount_gross' ? '69.00' : k === 'pf_payment_id' ? `wrong-${randomUUID()}` : v])),
    );
    expect((await decided(before + 4)).at(-1)).toMatchObject({
      verdict: 'rejected',
      reason: expect.stringMatching(/amount_gross 69\.00 is not the 4900 cents/),
    });
    expect(await countOf('payments')).toBe(paymentsBefore);
  });

  it('refuses a cancelling or past-due subscription, no subscription and a visitor', async () => {
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId: randomUUID() })).toMatchObject({
      ok: false,
      status: 409,
    });

    const cancelling = await activeSilver();
    expect(await service.call(Rpc.cancelMembership, {}, { accountId: cancelling.accountId })).toMatchObject({
      ok: true,
      value: { subscription: { status: 'cancelling' } },
    });
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId: cancelling.accountId })).toMatchObject({
      ok: false,
      status: 409,
    });

    const pastDue = await activeSilver();
    const before = (await itnRows()).length;
    await charge(pastDue.token, 'FAILED');
    await decided(before + 1);
    expect(await subscriptionOf(pastDue.accountId)).toMatchObject({ status: 'past-due' });
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId: pastDue.accountId })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect((await simSubscription(pastDue.token)).recurringCents).toBe(4900);
    expect(await nextTierOf(pastDue.accountId)).toEqual({ tier: 'DigiSilver', next_tier: null });
  });

  it('refuses a team rep (their tier is the team’s, the leader pays) and starts nothing; a team leader may buy', async () => {
    const rep = randomUUID();
    expect(await service.call(Rpc.startMembership, { tier: 'DigiSilver' }, { accountId: rep, role: 'teamMember' })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId: rep, role: 'teamMember' })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await service.sql('SELECT 1 FROM payments.subscriptions WHERE account_id = $1', [rep])).toEqual([]);
    expect(await service.sql('SELECT 1 FROM payments.payment_requests WHERE account_id = $1', [rep])).toEqual([]);
    expect(await service.call(Rpc.startMembership, { tier: 'DigiSilver' }, { accountId: randomUUID(), role: 'teamLeader' })).toMatchObject({
      ok: true,
    });
  });

  it('answers 503 and stores nothing when PayFast refuses the update', async () => {
    const { accountId } = await activeSilver();
    await service.sql("UPDATE payments.subscriptions SET token = 'no-such-token' WHERE account_id = $1", [accountId]);
    expect(await service.call(Rpc.changeMembership, { tier: 'DigiGold' }, { accountId })).toMatchObject({ ok: false, status: 503 });
    expect(await nextTierOf(accountId)).toEqual({ tier: 'DigiSilver', next_tier: null });
  });
});

describe('the special offer: cards and 12 months of DigiGold in one PayFast subscription', () => {
  const line = (itemId: string, name: string, cents: number, includedGoldMonths: number, quantity = 1): StandInLine => ({
    itemId,
    kind: itemId.endsWith('-special') ? 'special' : 'accessory',
    name,
    quantity,
    unitPriceCents: cents,
    lineTotalCents: cents * quantity,
    includedGoldMonths,
  });
  function specialOrder(lines: StandInLine[]) {
    const placed = newOrder(lines.reduce((sum, l) => sum + l.lineTotalCents, 0));
    orders.get(placed.orderId)!.lines = lines;
    return placed;
  }
  const billingDateOf = async (accountId: string) =>
    (
      await service.sql<{ d: string }>('SELECT next_billing_date::text AS d FROM payments.subscriptions WHERE account_id = $1', [accountId])
    )[0]!.d;
  const requestsOf = (accountId: string) => service.sql('SELECT 1 FROM payments.payment_requests WHERE account_id = $1', [accountId]);
  /** The SAST date `years` from now on the service's clock. */
  const sastDate = (years: number) => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(clock.now());
    return `${Number(today.slice(0, 4)) + years}${today.slice(4)}`;
  };

  it('refuses an order with a line that is not a special (400), another account’s order (404) and a visitor (401)', async () => {
    const mixed = specialOrder([line('pvc-special', 'PVC NFC Card Special', 89_900, 12), line('pvc-card', 'PVC NFC Card', 36_900, 0)]);
    expect(await service.call(Rpc.startSpecialPayment, { orderId: mixed.orderId }, { accountId: mixed.accountId })).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringMatching(/Only specials.*PVC NFC Card\b/),
    });
    const theirs = specialOrder([line('pvc-special', 'PVC NFC Card Special', 89_900, 12)]);
    expect(await service.call(Rpc.startSpecialPayment, { orderId: theirs.orderId }, { accountId: randomUUID() })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await service.call(Rpc.startSpecialPayment, { orderId: theirs.orderId }, null)).toMatchObject({ ok: false, status: 401 });
    expect(await requestsOf(mixed.accountId)).toHaveLength(0);
    expect(await requestsOf(theirs.accountId)).toHaveLength(0);
  });

  it('pays a special that includes no DigiGold (the Bamboo special) once, as an order: no subscription, nothing recurring', async () => {
    const { accountId, orderId } = specialOrder([line('bamboo-special', 'Bamboo NFC Card Special', 109_900, 0)]);
    const started = await service.call(Rpc.startSpecialPayment, { orderId }, { accountId });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const q = new URL(started.value.redirectUrl).searchParams;
    expect({ amount: q.get('amount'), type: q.get('subscription_type'), rec: q.get('recurring_amount') }).toEqual({
      amount: '1099.00',
      type: null,
      rec: null,
    });
    expect(await service.sql('SELECT kind, amount_cents FROM payments.payment_requests WHERE account_id = $1', [accountId])).toEqual([
      { kind: 'order', amount_cents: 109_900 },
    ]);
    expect(await service.sql('SELECT 1 FROM payments.subscriptions WHERE account_id = $1', [accountId])).toHaveLength(0);
  });

  it('asks for the specials now and DigiGold monthly from a year out; the COMPLETE ITN pays the order and grants the year, once however often it comes', async () => {
    const { accountId, orderId } = specialOrder([
      line('pvc-special', 'PVC NFC Card Special', 89_900, 12),
      line('ssteel-special', 'Stainless Steel NFC Card Special', 119_900, 12),
    ]);
    const started = await service.call(Rpc.startSpecialPayment, { orderId }, { accountId });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const url = new URL(started.value.redirectUrl);
    const q = url.searchParams;
    const yearOut = sastDate(1);
    expect({
      amount: q.get('amount'),
      type: q.get('subscription_type'),
      billing: q.get('billing_date'),
      rec: q.get('recurring_amount'),
      freq: q.get('frequency'),
      cycles: q.get('cycles'),
      item: q.get('item_name'),
    }).toEqual({
      amount: '2098.00',
      type: '1',
      billing: yearOut,
      rec: '69.00',
      freq: '3',
      cycles: '0',
      item: 'DigiCard special: PVC NFC Card Special, Stainless Steel NFC Card Special + 12 months of DigiGold',
    });
    const fields = [...q].filter(([k]) => k !== 'signature');
    expect(q.get('signature')).toBe(signature(fields, PASSPHRASE));
    expect(
      await service.sql('SELECT kind, order_id, subscription_id FROM payments.payment_requests WHERE account_id = $1', [accountId]),
    ).toEqual([{ kind: 'special', order_id: orderId, subscription_id: expect.any(String) }]);
    // Nothing is granted before the payment.
    expect(await subscriptionOf(accountId)).toMatchObject({ status: 'pending', paid_until: null });
    expect(await service.call(Rpc.getBilling, {}, { accountId })).toMatchObject({ ok: true, value: { membership: 'DigiShare' } });

    const before = (await itnRows()).length;
    await pay(started.value.redirectUrl);
    let rows = await decided(before + 1);
    expect(rows.at(-1)).toMatchObject({ verdict: 'applied' });
    const genuine = rows.at(-1)!.raw_body;
    for (let i = 0; i < 4; i++) await passItn(genuine);
    rows = await decided(before + 5);
    expect(rows.slice(-4).map((r) => r.verdict)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate']);

    const completed = (await service.recordedEvents<{ accountId: string }>(Events.paymentCompleted.subject)).filter(
      (e) => e.data.accountId === accountId,
    );
    expect(completed.map((e) => e.data)).toEqual([
      expect.objectContaining({ kind: 'order', orderId, amountCents: 209_800, tier: 'DigiGold' }),
    ]);
    const sub = await subscriptionOf(accountId);
    expect(sub).toMatchObject({ status: 'active', token: expect.any(String) });
    expect(await billingDateOf(accountId)).toBe(yearOut);
    expect(sub.paid_until!.toISOString()).toBe(new Date(`${yearOut}T00:00:00+02:00`).toISOString());
    expect(await membershipEvents(accountId)).toEqual([expect.objectContaining({ membership: 'DigiGold', version: 1 })]);
    expect(await service.sql('SELECT kind, amount_cents FROM payments.payments WHERE account_id = $1', [accountId])).toEqual([
      { kind: 'special', amount_cents: 209_800 },
    ]);
    expect(await service.call(Rpc.getBilling, {}, { accountId })).toMatchObject({
      ok: true,
      value: { membership: 'DigiGold', subscription: { status: 'active', nextBillingDate: yearOut, monthlyPriceCents: 6900 } },
    });

    // A year on, PayFast's first recurring charge is an ordinary DigiGold month (R69.00).
    await fetch(`${payfast.url}/_sim/subscriptions/${sub.token}/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"status":"COMPLETE"}',
    });
    rows = await decided(before + 6);
    expect(rows.at(-1)).toMatchObject({ verdict: 'applied', reason: `charge for ${yearOut} paid` });
    expect(await subscriptionOf(accountId)).toMatchObject({ status: 'active' });
    const monthOn = new Date(`${yearOut}T00:00:00Z`);
    monthOn.setUTCMonth(monthOn.getUTCMonth() + 1);
    expect(await billingDateOf(accountId)).toBe(monthOn.toISOString().slice(0, 10));
    expect(
      await service.sql('SELECT kind, amount_cents FROM payments.payments WHERE account_id = $1 ORDER BY created_at', [accountId]),
    ).toEqual([
      { kind: 'special', amount_cents: 209_800 },
      { kind: 'subscription', amount_cents: 6900 },
    ]);
    expect(
      (await service.recordedEvents<{ accountId: string }>(Events.paymentCompleted.subject)).filter((e) => e.data.accountId === accountId),
    ).toHaveLength(2);
  });

  it('pays an order of specials asked for again (the dashboard’s Pay) as the special offer', async () => {
    const { accountId, orderId } = specialOrder([line('bamboo-special', 'Bamboo NFC Card Special', 109_900, 12)]);
    const started = await service.call(Rpc.startOrderPayment, { orderId }, { accountId });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const q = new URL(started.value.redirectUrl).searchParams;
    expect([q.get('amount'), q.get('recurring_amount'), q.get('billing_date')]).toEqual(['1099.00', '69.00', sastDate(1)]);
    expect(await service.sql('SELECT kind FROM payments.payment_requests WHERE account_id = $1', [accountId])).toEqual([
      { kind: 'special' },
    ]);
  });
});

describe('data export (POPIA)', () => {
  it('answers one account its own requests, payments, subscriptions and ITNs, never PayFast’s token nor another account’s rows', async () => {
    // Two accounts that paid in the tests above.
    const paid = await service.sql<{ account_id: string }>(
      'SELECT account_id FROM payments.payments GROUP BY account_id ORDER BY min(created_at) LIMIT 2',
    );
    expect(paid).toHaveLength(2);
    const [a, b] = paid.map((r) => r.account_id) as [string, string];
    const exported = await service.exportOf(Rpc.exportPaymentsData, { accountId: a }, 1);
    if (!exported.ok) throw new Error(exported.message);
    const data = exported.value as {
      paymentRequests: Array<{ id: string }>;
      payments: Array<{ id: string }>;
      subscriptions: Array<{ id: string }>;
      payFastNotifications: Array<{ id: string }>;
    };
    const ids = async (table: string, account: string) =>
      (await service.sql<{ id: string }>(`SELECT id FROM payments.${table} WHERE account_id = $1 ORDER BY created_at`, [account])).map(
        (r) => r.id,
      );
    expect(data.paymentRequests.map((r) => r.id)).toEqual(await ids('payment_requests', a));
    expect(data.payments.map((p) => p.id)).toEqual(await ids('payments', a));
    expect(data.subscriptions.map((s) => s.id)).toEqual(await ids('subscriptions', a));
    expect(data.payFastNotifications.length).toBeGreaterThanOrEqual(data.payments.length);
    const text = JSON.stringify(data);
    for (const id of [...(await ids('payments', b)), ...(await ids('payment_requests', b)), ...(await ids('subscriptions', b))])
      expect(text).not.toContain(id);
    const tokens = await service.sql<{ token: string }>('SELECT token FROM payments.subscriptions WHERE token IS NOT NULL');
    for (const { token } of tokens) expect(text).not.toContain(token);
    expect(await service.exportOf(Rpc.exportPaymentsData, { accountId: randomUUID() })).toMatchObject({
      ok: true,
      value: { paymentRequests: [], payments: [], subscriptions: [] },
    });
    expect(await service.exportOf(Rpc.exportPaymentsData, null)).toMatchObject({ ok: false, status: 401 });
  });
});
