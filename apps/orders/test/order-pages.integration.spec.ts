import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PageMessages, Rpc, type Role } from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';
import { InProcessService, type Caller } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { ordersService } from '../src/service.js';
import { answerAccountsAsIdentity } from './identity-stand-in.js';
import { ordersEnv } from './orders-env.js';

// The lists of orders read in pages (issue 28, item 4): the owner's orders and order details, the print console's
// queue, the staff console's failed proofs and the orders part of the data export. Each gives every order exactly
// once across pages, also while new ones arrive, in the order the console shows; bad cursors and limits are refused
// with field errors, and another account's cursor opens nothing of theirs.

let service: InProcessService<Config>;
let identity: NatsConnection;
const environment = ordersEnv();
const printer = { accountId: randomUUID(), role: 'print' as Role };
const staff = { accountId: randomUUID(), role: 'staff' as Role };

beforeAll(async () => {
  service = await InProcessService.start(ordersService, environment.env);
  identity = await connectNats(service.natsUrl, 'identity-stand-in');
  answerAccountsAsIdentity(identity, (id) => (id === printer.accountId ? 'print' : id === staff.accountId ? 'staff' : 'user'));
  await identity.flush();
});

afterAll(async () => {
  await identity?.close();
  await service?.stop();
  await environment.cleanUp();
});

/**
 * `count` orders of an account stored directly, one card each, their times in clusters that share one microsecond (so
 * that ties are broken by id); `paid` marks them paid at those times too, `failed` gives them a proof that failed.
 */
async function storeOrders(accountId: string, count: number, options: { paid?: boolean; failed?: boolean } = {}): Promise<string[]> {
  const rows = await service.sql<{ id: string }>(
    `INSERT INTO orders.orders (id, reference, account_id, status, total_cents, created_at, paid_at)
     SELECT gen_random_uuid(), 'PG-' || substr(md5(random()::text), 1, 10), $1, $3::orders.order_status, 9900, t, CASE WHEN $4 THEN t END
       FROM (SELECT timestamptz '2024-05-01 09:00:00+02' + (n / 4) * interval '1 second' AS t FROM generate_series(1, $2::int) AS n) AS s
     RETURNING id`,
    [accountId, count, options.paid ? 'paid' : 'awaiting-payment', options.paid ?? false],
  );
  const ids = rows.map((r) => r.id);
  await service.sql(
    `INSERT INTO orders.order_lines (order_id, position, item_id, name, quantity, unit_price_cents, line_total_cents, colour)
     SELECT id, 0, 'pvc-card', 'PVC card', 1, 9900, 9900, 'black' FROM unnest($1::uuid[]) AS id`,
    [ids],
  );
  if (options.failed)
    await service.sql(
      `INSERT INTO orders.proofs (order_id, status, attempts, error, updated_at)
       SELECT id, 'failed', 3, 'the renderer fell over', timestamptz '2024-06-01 10:00:00+02' + (row_number() OVER () / 3) * interval '1 second'
         FROM unnest($1::uuid[]) AS id`,
      [ids],
    );
  return ids;
}

type Listed = { orders: Array<{ id: string }>; nextCursor: string | null };
type ListRpc = typeof Rpc.listOrders | typeof Rpc.listOrderDetails | typeof Rpc.printQueue | typeof Rpc.staffFailedProofs;

async function allPages(rpc: ListRpc, caller: Caller, limit: number, between: () => Promise<unknown> = () => Promise.resolve()) {
  const ids: string[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const answer = await service.call(rpc as typeof Rpc.listOrders, { ...(cursor ? { cursor } : {}), limit }, caller);
    if (!answer.ok) throw new Error(`${answer.status} ${answer.message}`);
    const page = answer.value as Listed;
    ids.push(...page.orders.map((o) => o.id));
    cursor = page.nextCursor;
    pages += 1;
    await between();
  } while (cursor);
  return { ids, pages };
}

describe('orders, a page at a time', () => {
  it('gives the owner every order and order detail once, newest first, while new orders are placed', async () => {
    const owner = { accountId: randomUUID() };
    const stored = await storeOrders(owner.accountId, 27);
    const strangers = await storeOrders(randomUUID(), 5);
    const place = () => service.call(Rpc.placeOrder, { items: [{ id: 'pvc-card', quantity: 1 }] }, owner);
    for (const rpc of [Rpc.listOrders, Rpc.listOrderDetails]) {
      // What the owner had when the first page was read (the second round also has the first round's new orders).
      const before = (
        await service.sql<{ id: string }>('SELECT id FROM orders.orders WHERE account_id = $1 ORDER BY created_at DESC, id DESC', [
          owner.accountId,
        ])
      ).map((r) => r.id);
      const { ids, pages } = await allPages(rpc, owner, 4, place);
      expect(pages).toBe(Math.ceil(before.length / 4));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(before);
      expect(ids).toEqual(expect.arrayContaining(stored));
      for (const id of strangers) expect(ids).not.toContain(id);
    }
    // The orders placed meanwhile are the newest: the first page shows them.
    const first = await service.call(Rpc.listOrders, { limit: 16 }, owner);
    expect(first.ok && first.value.orders.filter((o) => !stored.includes(o.id)).length).toBe(7 + 9);
  });

  it('pages the print queue by payment and the failed proofs by failure, each order once', async () => {
    const paid = [...(await storeOrders(randomUUID(), 9, { paid: true })), ...(await storeOrders(randomUUID(), 8, { paid: true }))];
    const failed = await storeOrders(randomUUID(), 11, { paid: true, failed: true });
    const unpaid = await storeOrders(randomUUID(), 3);
    const queue = await allPages(Rpc.printQueue, printer, 5);
    expect(new Set(queue.ids).size).toBe(queue.ids.length);
    for (const id of [...paid, ...failed]) expect(queue.ids).toContain(id);
    for (const id of unpaid) expect(queue.ids).not.toContain(id);
    const byPayment = await service.sql<{ id: string }>(
      'SELECT id FROM orders.orders WHERE paid_at IS NOT NULL ORDER BY paid_at DESC, id DESC',
    );
    expect(queue.ids).toEqual(byPayment.map((r) => r.id));
    const proofs = await allPages(Rpc.staffFailedProofs, staff, 4);
    expect([...proofs.ids].sort()).toEqual([...failed].sort());
    expect(proofs.pages).toBe(3);
    // The role is checked on every page, not only the first.
    const page = await service.call(Rpc.printQueue, { limit: 1 }, printer);
    if (!page.ok || !page.value.nextCursor) throw new Error('no second page');
    expect(await service.call(Rpc.printQueue, { cursor: page.value.nextCursor }, { accountId: randomUUID(), role: 'user' })).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  it('refuses bad cursors and limits with field errors, and answers another account’s cursor with the caller’s own orders', async () => {
    const owner = { accountId: randomUUID() };
    const other = { accountId: randomUUID() };
    const theirs = await storeOrders(owner.accountId, 6);
    const mine = await storeOrders(other.accountId, 2);
    for (const rpc of [Rpc.listOrders, Rpc.listOrderDetails, Rpc.printQueue, Rpc.staffFailedProofs]) {
      const caller = rpc === Rpc.printQueue ? printer : rpc === Rpc.staffFailedProofs ? staff : owner;
      expect(await service.call(rpc as typeof Rpc.listOrders, { cursor: 'garbage!' }, caller)).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { 'body.cursor': [PageMessages.badCursor] },
      });
      expect(await service.call(rpc as typeof Rpc.listOrders, { limit: 500 }, caller)).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { 'body.limit': [PageMessages.badLimit] },
      });
    }
    const page = await service.call(Rpc.listOrderDetails, { limit: 2 }, owner);
    if (!page.ok || !page.value.nextCursor) throw new Error('no second page');
    const borrowed = await service.call(Rpc.listOrderDetails, { cursor: page.value.nextCursor }, other);
    if (!borrowed.ok) throw new Error(borrowed.message);
    for (const order of borrowed.value.orders) {
      expect(mine).toContain(order.id);
      expect(theirs).not.toContain(order.id);
    }
  });

  it('exports every order and enquiry of the account, a page at a time', async () => {
    const owner = { accountId: randomUUID() };
    const stored = await storeOrders(owner.accountId, 13);
    await storeOrders(randomUUID(), 4);
    // The stand-in says every account's address is someone@example.co.za, verified.
    const enquiries: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const sent = await service.call(Rpc.submitEnquiry, {
        kind: 'message',
        name: `Someone ${i}`,
        email: 'Someone@Example.co.za',
        message: `Note ${i}`,
      });
      if (sent.ok) enquiries.push(sent.value.id);
    }
    expect(enquiries).toHaveLength(5);
    const exported = await service.exportOf(Rpc.exportOrdersData, owner, 3);
    if (!exported.ok) throw new Error(exported.message);
    expect((exported.value['orders'] as Array<{ id: string }>).map((o) => o.id).sort()).toEqual([...stored].sort());
    expect((exported.value['enquiries'] as Array<{ id: string }>).map((e) => e.id)).toEqual(expect.arrayContaining(enquiries));
    expect(exported.value).toHaveProperty('customer', null);
  });
});
