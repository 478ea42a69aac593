import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, Rpc, type CheckoutRequest, type Order, type OrderEvent, type PaymentCompleted } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { REFERENCE_PATTERN } from '../src/orders/order-reference.js';
import { ordersService } from '../src/service.js';
import { ordersEnv } from './orders-env.js';

// Checkout in the orders service, in this process on a fresh database (the catalogue seeded by its migrations) and
// its own NATS: pricing from the catalogue, the buyer's own orders only, payments' read, and the payment event.

let service: InProcessService<Config>;
const buyer = { accountId: randomUUID() };
const stranger = { accountId: randomUUID() };

const place = async (caller: { accountId: string }, items: CheckoutRequest['items']): Promise<Order> => {
  const answer = await service.call(Rpc.placeOrder, { items }, caller);
  if (!answer.ok) throw new Error(`placeOrder refused: ${JSON.stringify(answer)}`);
  return answer.value;
};
const orderCount = async (): Promise<number> => (await service.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.orders'))[0]!.n;
const paidEvents = async (orderId: string) =>
  (await service.recordedEvents<OrderEvent>(Events.orderPaid.subject)).filter((e) => e.data.orderId === orderId);

const payment = (order: Order, accountId: string, overrides: Partial<PaymentCompleted> = {}): PaymentCompleted => ({
  paymentId: randomUUID(),
  accountId,
  kind: 'order',
  orderId: order.id,
  subscriptionId: null,
  amountCents: order.totalCents,
  pfPaymentId: '1234567',
  completedAt: '2030-03-14T09:26:53.000Z',
  tier: null,
  paidUntil: null,
  ...overrides,
});

/** A month of a tier: not for orders, so the orders service only records that it saw it. */
const subscriptionPayment = (): PaymentCompleted => ({
  paymentId: randomUUID(),
  accountId: randomUUID(),
  kind: 'subscription',
  orderId: null,
  subscriptionId: randomUUID(),
  amountCents: 6900,
  pfPaymentId: '7654321',
  completedAt: '2030-03-14T09:26:53.000Z',
  tier: 'DigiGold',
  paidUntil: '2030-04-14T09:26:53.000Z',
});

/** Publishes the events in order, then a last one and waits for it: the one consumer handles them in turn. */
const deliver = async (...events: Array<{ data: PaymentCompleted; id?: string }>): Promise<void> => {
  for (const e of events) await service.publish(Events.paymentCompleted, e.data, e.id);
  const sentinel = await service.publish(Events.paymentCompleted, subscriptionPayment());
  await service.handled(Events.paymentCompleted, sentinel);
};

const environment = ordersEnv();

beforeAll(async () => {
  service = await InProcessService.start(ordersService, environment.env);
});

afterAll(async () => {
  await service.stop();
  await environment.cleanUp();
});

describe('place order', () => {
  it('prices every line from the catalogue: a special at its special price, a card at its normal price', async () => {
    // A price sent by the browser is not part of the contract: it is dropped, never used. A line without a colour (a
    // basket kept from before colours were chosen) is the item's first.
    const items = [
      { id: 'pvc-special', colour: 'White', quantity: 2, unitPriceCents: 1 },
      { id: 'bamboo-card', quantity: 3, price: 0 },
    ] as unknown as CheckoutRequest['items'];
    const order = await place(buyer, items);
    expect(order).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reference: expect.stringMatching(REFERENCE_PATTERN),
      status: 'awaiting-payment',
      lines: [
        {
          itemId: 'pvc-special',
          kind: 'special',
          name: 'PVC NFC Card Special',
          colour: 'White',
          quantity: 2,
          unitPriceCents: 89900,
          lineTotalCents: 179800,
          includedGoldMonths: 12,
        },
        {
          itemId: 'bamboo-card',
          kind: 'accessory',
          name: 'Bamboo NFC Card',
          colour: 'Bamboo',
          quantity: 3,
          unitPriceCents: 45900,
          lineTotalCents: 137700,
          includedGoldMonths: 0,
        },
      ],
      totalCents: 317500,
      createdAt: expect.stringMatching(/^\d{4}-/),
      paidAt: null,
    });
    const placed = (await service.recordedEvents<OrderEvent>(Events.orderPlaced.subject)).filter((e) => e.data.orderId === order.id);
    expect(placed.map((e) => e.data)).toEqual([
      {
        orderId: order.id,
        accountId: buyer.accountId,
        reference: order.reference,
        lines: order.lines,
        totalCents: 317500,
        at: order.createdAt,
      },
    ]);
    const [row] = await service.sql('SELECT account_id, status, total_cents, paid_at FROM orders.orders WHERE id = $1', [order.id]);
    expect(row).toEqual({ account_id: buyer.accountId, status: 'awaiting-payment', total_cents: 317500, paid_at: null });
  });

  it('gives every order its own readable reference', async () => {
    const a = await place(buyer, [{ id: 'ssteel-card', quantity: 1 }]);
    const b = await place(buyer, [{ id: 'ssteel-card', quantity: 1 }]);
    expect(a.reference).toMatch(REFERENCE_PATTERN);
    expect(b.reference).not.toBe(a.reference);
    expect(a.totalCents).toBe(56900);
  });

  it('refuses an item the shop does not have with a field error naming it, and keeps nothing', async () => {
    const before = await orderCount();
    const events = (await service.recordedEvents(Events.orderPlaced.subject)).length;
    const answer = await service.call(
      Rpc.placeOrder,
      {
        items: [
          { id: 'pvc-card', quantity: 1 },
          { id: 'gold-card', quantity: 1 },
        ],
      },
      buyer,
    );
    expect(answer).toEqual({
      ok: false,
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Please correct the highlighted fields.',
      fieldErrors: { 'items.1.id': ['“gold-card” is not in the shop.'] },
    });
    expect(await orderCount()).toBe(before);
    expect(await service.recordedEvents(Events.orderPlaced.subject)).toHaveLength(events);
  });

  it('refuses a quantity of 0 or 21, and a visitor', async () => {
    const before = await orderCount();
    expect(await service.call(Rpc.placeOrder, { items: [{ id: 'pvc-card', quantity: 0 }] }, buyer)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.items.0.quantity': ['At least one, please.'] },
    });
    expect(await service.call(Rpc.placeOrder, { items: [{ id: 'pvc-card', quantity: 21 }] }, buyer)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.items.0.quantity': ['At most 20 of one card per order; for more, please contact us.'] },
    });
    expect(await service.call(Rpc.placeOrder, { items: [{ id: 'pvc-card', quantity: 1 }] }, null)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await orderCount()).toBe(before);
  });
});

describe('the buyer’s orders', () => {
  it('lists only the caller’s orders, newest first, and answers 404 for another account’s as for an unknown id', async () => {
    const first = await place(stranger, [{ id: 'pvc-card', quantity: 1 }]);
    const second = await place(stranger, [{ id: 'bamboo-special', quantity: 1 }]);
    const listed = await service.call(Rpc.listOrders, {}, stranger);
    expect(listed.ok && listed.value.orders.map((o) => o.id)).toEqual([second.id, first.id]);
    expect(listed.ok && listed.value.orders[0]).toEqual(second);

    const mine = await service.call(Rpc.listOrders, {}, buyer);
    expect(mine.ok && mine.value.orders.length).toBeGreaterThan(0);
    expect(mine.ok && mine.value.orders.map((o) => o.id)).not.toEqual(expect.arrayContaining([first.id]));
    expect(mine.ok && mine.value.orders.map((o) => o.id)).not.toEqual(expect.arrayContaining([second.id]));

    expect(await service.call(Rpc.getOrder, { orderId: first.id }, stranger)).toEqual({ ok: true, value: first });
    const notYours = await service.call(Rpc.getOrder, { orderId: first.id }, buyer);
    const unknown = await service.call(Rpc.getOrder, { orderId: randomUUID() }, buyer);
    expect(notYours).toEqual({ ok: false, status: 404, code: 'NOT_FOUND', message: 'Order not found.' });
    expect(unknown).toEqual(notYours);
    expect(await service.call(Rpc.listOrders, {}, null)).toMatchObject({ ok: false, status: 401 });
  });

  it('answers payments with the order and its buyer; 404 for an unknown id', async () => {
    const order = await place(buyer, [{ id: 'ssteel-special', quantity: 1 }]);
    expect(await service.call(Rpc.orderForPayment, { orderId: order.id })).toEqual({
      ok: true,
      value: { order, accountId: buyer.accountId },
    });
    expect(await service.call(Rpc.orderForPayment, { orderId: randomUUID() })).toMatchObject({ ok: false, status: 404 });
  });
});

describe('payment completed', () => {
  it('marks the order paid and records orders.order.paid in the same transaction', async () => {
    const order = await place(buyer, [{ id: 'ssteel-special', quantity: 2 }]);
    const eventId = await service.publish(Events.paymentCompleted, payment(order, buyer.accountId));
    await service.handled(Events.paymentCompleted, eventId);
    const answer = await service.call(Rpc.getOrder, { orderId: order.id }, buyer);
    expect(answer).toEqual({ ok: true, value: { ...order, status: 'paid', paidAt: '2030-03-14T09:26:53.000Z' } });
    expect((await paidEvents(order.id)).map((e) => e.data)).toEqual([
      {
        orderId: order.id,
        accountId: buyer.accountId,
        reference: order.reference,
        lines: order.lines,
        totalCents: 239800,
        at: '2030-03-14T09:26:53.000Z',
      },
    ]);
  });

  it('changes nothing when the same event comes twice, or the payment again under a new event id', async () => {
    const order = await place(buyer, [{ id: 'pvc-card', quantity: 4 }]);
    const paid = payment(order, buyer.accountId);
    const id = randomUUID();
    await deliver(
      { data: paid, id },
      { data: paid, id },
      { data: paid },
      { data: { ...paid, paymentId: randomUUID(), completedAt: '2030-04-01T00:00:00.000Z' } },
    );
    expect(await paidEvents(order.id)).toHaveLength(1);
    const answer = await service.call(Rpc.getOrder, { orderId: order.id }, buyer);
    expect(answer).toMatchObject({ ok: true, value: { status: 'paid', paidAt: '2030-03-14T09:26:53.000Z' } });
  });

  it('ignores a payment for another order id, an order cancelled after its payment, a mismatch, or a subscription', async () => {
    const order = await place(buyer, [{ id: 'bamboo-card', quantity: 1 }]);
    const cancelled = await place(buyer, [{ id: 'pvc-card', quantity: 1 }]);
    await service.sql("UPDATE orders.orders SET status = 'cancelled', paid_at = now() WHERE id = $1", [cancelled.id]);
    const before = await service.sql('SELECT id, status, paid_at FROM orders.orders ORDER BY id');
    const paidBefore = (await service.recordedEvents(Events.orderPaid.subject)).length;
    await deliver(
      { data: payment(order, buyer.accountId, { orderId: randomUUID() }) },
      { data: payment(cancelled, buyer.accountId) },
      { data: payment(order, buyer.accountId, { amountCents: 100 }) },
      { data: payment(order, stranger.accountId) },
      { data: { ...subscriptionPayment(), accountId: buyer.accountId, amountCents: order.totalCents } },
    );
    expect(await service.sql('SELECT id, status, paid_at FROM orders.orders ORDER BY id')).toEqual(before);
    expect(await service.recordedEvents(Events.orderPaid.subject)).toHaveLength(paidBefore);
  });
});

describe('the owner cancels an order before paying it', () => {
  const cancelEvents = async (orderId: string) =>
    (await service.recordedEvents<{ orderId: string; from: string; to: string; by: string }>(Events.orderStateChanged.subject)).filter(
      (e) => e.data.orderId === orderId,
    );

  it('cancels the owner’s own order awaiting payment, with its history and event; a second cancel is refused', async () => {
    const order = await place(buyer, [{ id: 'pvc-special', quantity: 1 }]);
    const answer = await service.call(Rpc.cancelOrder, { orderId: order.id }, buyer);
    expect(answer).toMatchObject({
      ok: true,
      value: {
        id: order.id,
        status: 'cancelled',
        history: [expect.objectContaining({ from: 'awaiting-payment', to: 'cancelled', by: 'owner' })],
      },
    });
    expect((await cancelEvents(order.id)).map((e) => [e.data.from, e.data.to, e.data.by])).toEqual([
      ['awaiting-payment', 'cancelled', 'owner'],
    ]);
    expect(await service.call(Rpc.cancelOrder, { orderId: order.id }, buyer)).toMatchObject({
      ok: false,
      status: 409,
      code: 'ORDER_MOVE_NOT_ALLOWED',
    });
    expect(await service.call(Rpc.getOrder, { orderId: order.id }, buyer)).toMatchObject({ ok: true, value: { status: 'cancelled' } });
  });

  it('refuses someone else’s order and an unknown one (404, unchanged), a paid one (409), and a caller signed out (401)', async () => {
    const order = await place(buyer, [{ id: 'pvc-card', quantity: 1 }]);
    expect(await service.call(Rpc.cancelOrder, { orderId: order.id }, stranger)).toEqual({
      ok: false,
      status: 404,
      code: 'NOT_FOUND',
      message: 'Order not found.',
    });
    expect(await service.call(Rpc.cancelOrder, { orderId: randomUUID() }, buyer)).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.cancelOrder, { orderId: order.id }, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.getOrder, { orderId: order.id }, buyer)).toMatchObject({
      ok: true,
      value: { status: 'awaiting-payment' },
    });
    await deliver({ data: payment(order, buyer.accountId) });
    expect(await service.call(Rpc.cancelOrder, { orderId: order.id }, buyer)).toMatchObject({
      ok: false,
      status: 409,
      code: 'ORDER_MOVE_NOT_ALLOWED',
    });
    expect(await service.call(Rpc.getOrder, { orderId: order.id }, buyer)).toMatchObject({ ok: true, value: { status: 'paid' } });
  });

  it('a payment that still arrives for it (a PayFast page left open) makes it paid, and its history says so', async () => {
    const order = await place(buyer, [{ id: 'bamboo-card', quantity: 1 }]);
    expect(await service.call(Rpc.cancelOrder, { orderId: order.id }, buyer)).toMatchObject({ ok: true });
    await deliver({ data: payment(order, buyer.accountId) });
    const detail = (await service.call(Rpc.listOrderDetails, {}, buyer)) as {
      ok: true;
      value: { orders: Array<{ id: string; status: string; history: Array<{ from: string | null; to: string; note: string | null }> }> };
    };
    const paid = detail.value.orders.find((o) => o.id === order.id)!;
    expect(paid.status).not.toBe('cancelled');
    expect(paid.history.map((h) => [h.from, h.to, h.note])).toEqual(
      expect.arrayContaining([
        ['awaiting-payment', 'cancelled', 'Cancelled by the owner before payment.'],
        ['cancelled', 'paid', 'Paid after it was cancelled: the order goes ahead.'],
      ]),
    );
    expect(await paidEvents(order.id)).toHaveLength(1);
  });
});

describe('the special offer’s sign-up (identity.user.registered with specials)', () => {
  const registered = (accountId: string, specials?: CheckoutRequest['items']) => ({
    accountId,
    username: `u${accountId.slice(0, 8)}`,
    email: `${accountId.slice(0, 8)}@example.co.za`,
    firstName: 'Thandi',
    lastName: 'Nkosi',
    role: 'user' as const,
    registeredAt: '2030-03-14T09:00:00.000Z',
    ...(specials ? { specials } : {}),
  });
  const ordersOf = async (accountId: string): Promise<Order[]> => {
    const answer = await service.call(Rpc.listOrders, {}, { accountId });
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    return answer.value.orders;
  };

  it('places the new account’s order for its specials, awaiting payment, once however often the event comes', async () => {
    const accountId = randomUUID();
    const data = registered(accountId, [{ id: 'pvc-special', quantity: 2 }]);
    const id = randomUUID();
    await service.publish(Events.userRegistered, data, id);
    await service.handled(Events.userRegistered, id);
    await service.publish(Events.userRegistered, data, id);
    const again = await service.publish(Events.userRegistered, data);
    await service.handled(Events.userRegistered, again);
    const orders = await ordersOf(accountId);
    expect(orders).toEqual([
      expect.objectContaining({
        status: 'awaiting-payment',
        totalCents: 179_800,
        lines: [expect.objectContaining({ itemId: 'pvc-special', quantity: 2, unitPriceCents: 89_900, includedGoldMonths: 12 })],
      }),
    ]);
  });

  it('places nothing for a sign-up without specials, and leaves out a special no longer in the shop', async () => {
    const plain = randomUUID();
    const first = await service.publish(Events.userRegistered, registered(plain));
    await service.handled(Events.userRegistered, first);
    expect(await ordersOf(plain)).toEqual([]);

    const withdrawn = randomUUID();
    const second = await service.publish(
      Events.userRegistered,
      registered(withdrawn, [
        { id: 'no-longer-sold', quantity: 1 },
        { id: 'ssteel-special', quantity: 1 },
      ]),
    );
    await service.handled(Events.userRegistered, second);
    expect((await ordersOf(withdrawn)).map((o) => o.lines.map((l) => l.itemId))).toEqual([['ssteel-special']]);
  });

  it('keeps the colours chosen with the sign-up; one no longer offered becomes the item’s first, never a stuck event', async () => {
    const accountId = randomUUID();
    const id = await service.publish(
      Events.userRegistered,
      registered(accountId, [
        { id: 'ssteel-special', colour: 'Gold', quantity: 1 },
        { id: 'pvc-special', colour: 'Purple', quantity: 1 },
      ]),
    );
    await service.handled(Events.userRegistered, id);
    expect((await ordersOf(accountId)).map((o) => o.lines.map((l) => [l.itemId, l.colour]))).toEqual([
      [
        ['ssteel-special', 'Gold'],
        ['pvc-special', 'Black'],
      ],
    ]);
  });
});
