import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Events, ProfileDefaults, Rpc, type OrderDetail, type OwnProfile } from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';
import { InProcessService, type Caller } from '@digicard/service-testing';
import { PrivateRedis, waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { proofInputs, proofInputsOf } from '../src/proofs/render-proof.js';
import { ordersService } from '../src/service.js';
import { answerAccountsAsIdentity } from './identity-stand-in.js';
import { ordersEnv } from './orders-env.js';

// The `proof-render` queue as the issues ask: one render job per order (a burst of profile saves renders once, a save
// that changes nothing on the card renders nothing), queued after the commit and never inside a transaction, and
// nothing lost while Redis is away. Orders runs in this process on a Redis of this file's own, which the last test
// kills; profiles is a stand-in on NATS answering profileOfAccount as profiles does, and getAccount as identity does.

const redis = new PrivateRedis();
const environment = ordersEnv();
let service: InProcessService<Config>;
let profilesStandIn: NatsConnection;
const profiles = new Map<string, OwnProfile>();

const profileFor = (firstName: string, title: string): OwnProfile => ({
  username: `${firstName.toLowerCase()}-${randomUUID().slice(0, 6)}`,
  firstName,
  lastName: 'Dlamini',
  email: `${firstName.toLowerCase()}@example.co.za`,
  membership: 'DigiGold',
  isVerified: true,
  isPublic: true,
  document: { ...ProfileDefaults, title, businessName: 'Karoo Coffee Co.', businessLogo: '' },
  updatedAt: new Date().toISOString(),
});

beforeAll(async () => {
  await redis.start();
  service = await InProcessService.start(ordersService, {
    ...environment.env,
    REDIS_URL: redis.url,
    QUEUE_ADD_TIMEOUT_MS: '500',
    PROOF_RERENDER_DEBOUNCE_MS: '1500',
    PROOF_REQUEUE_INTERVAL_MS: '500',
  });
  profilesStandIn = await connectNats(service.natsUrl, 'profiles-stand-in');
  profilesStandIn.subscribe(Rpc.profileOfAccount.subject, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { body: { accountId: string } } }>();
      const profile = profiles.get(packet.data.body.accountId);
      msg.respond(
        JSON.stringify(
          profile
            ? { id: packet.id, response: profile, isDisposed: true }
            : { id: packet.id, err: { statusCode: 404, code: 'NOT_FOUND', message: 'Profile not found.' }, isDisposed: true },
        ),
      );
    },
  });
  // Identity as orders' role check asks it: the printer holds the print role.
  answerAccountsAsIdentity(profilesStandIn, (id) => (id === printer?.accountId ? 'print' : 'user'));
  await profilesStandIn.flush();
});

afterAll(async () => {
  await profilesStandIn?.close();
  await service?.stop();
  await redis.kill();
  await environment.cleanUp();
});

function ok<T>(answer: { ok: true; value: T } | { ok: false; status: number; message: string }): T {
  if (!answer.ok) throw new Error(`refused ${answer.status}: ${answer.message}`);
  return answer.value;
}

const printer: Caller = { accountId: randomUUID(), role: 'print' };

async function paidOrder(title: string) {
  const who = { accountId: randomUUID(), role: 'user' as const };
  const profile = profileFor('Zanele', title);
  profiles.set(who.accountId, profile);
  const order = ok(await service.call(Rpc.placeOrder, { items: [{ id: 'pvc-card', quantity: 1 }] }, who));
  await service.publish(Events.paymentCompleted, {
    paymentId: randomUUID(),
    accountId: who.accountId,
    kind: 'order',
    orderId: order.id,
    subscriptionId: null,
    amountCents: order.totalCents,
    pfPaymentId: String(Date.now()),
    completedAt: new Date().toISOString(),
    tier: null,
    paidUntil: null,
  });
  return { who, order, profile };
}

const detailOf = async (who: Caller, orderId: string): Promise<OrderDetail> =>
  ok(await service.call(Rpc.listOrderDetails, {}, who)).orders.find((o) => o.id === orderId)!;

const waitForDetail = (who: Caller, orderId: string, what: (o: OrderDetail) => boolean, timeoutMs = 30_000) =>
  waitFor(
    `order ${orderId}`,
    async () => {
      const detail = await detailOf(who, orderId);
      return detail && what(detail) ? detail : null;
    },
    timeoutMs,
  );

const proofVersions = async (orderId: string) =>
  (await service.recordedEvents<{ orderId: string; version: number }>(Events.proofReady.subject))
    .filter((e) => e.data.orderId === orderId)
    .map((e) => e.data.version);

/** Whether the stored proof was drawn from these card fields (the hash kept in its PDF). */
const proofDrawnFrom = async (who: Caller, detail: OrderDetail, profile: OwnProfile): Promise<boolean> => {
  const pdf = Buffer.from(ok(await service.call(Rpc.ownProofFile, { orderId: detail.id, kind: 'pdf' }, who)).dataBase64, 'base64');
  const faces = detail.cards.map((card) => ({
    name: `${profile.firstName} ${profile.lastName}`,
    title: profile.document.title,
    businessName: profile.document.businessName,
    logo: null,
    url: card.url,
    serial: card.serial,
    material: card.material,
    colour: card.colour,
  }));
  return proofInputsOf(pdf) === proofInputs(faces, { username: profile.username });
};

/** The transactions of orders open now for longer than `seconds` (this test's own connection aside). */
const longTransactions = (seconds: number) =>
  service.sql<{ age: number; query: string }>(
    `SELECT extract(epoch FROM now() - xact_start)::float AS age, query FROM pg_stat_activity
      WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid() AND now() - xact_start > make_interval(secs => $1)`,
    [seconds],
  );

describe('one render job per order', () => {
  it('a burst of profile saves renders the proof once, with the last save', async () => {
    const { who, order, profile } = await paidOrder('Barista');
    await waitForDetail(who, order.id, (o) => o.proof?.status === 'ready' && o.proof.version === 1);
    const saves: string[] = [];
    let last = profile;
    for (let n = 1; n <= 5; n++) {
      last = { ...profile, document: { ...profile.document, title: `Head Roaster ${n}` } };
      profiles.set(who.accountId, last);
      saves.push(
        await service.publish(Events.profileUpdated, {
          accountId: who.accountId,
          username: profile.username,
          updatedAt: new Date().toISOString(),
        }),
      );
    }
    for (const id of saves) await service.handled(Events.profileUpdated, id);
    await waitForDetail(who, order.id, (o) => o.proof?.status === 'ready' && o.proof.version >= 2);
    // Time for any further render the saves might have queued.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.deepEqual(await proofVersions(order.id), [1, 2], 'five saves, one render');
    const detail = await detailOf(who, order.id);
    assert.equal(detail.proof?.version, 2);
    assert.ok(await proofDrawnFrom(who, detail, last), 'drawn from the last save');
    assert.ok(!(await proofDrawnFrom(who, detail, profile)));
  }, 60_000);

  it('a save that changes nothing on the card renders nothing', async () => {
    const { who, order, profile } = await paidOrder('Sommelier');
    await waitForDetail(who, order.id, (o) => o.proof?.status === 'ready' && o.proof.version === 1);
    // A new bio, say: nothing printed on the card changed.
    profiles.set(who.accountId, { ...profile, updatedAt: new Date().toISOString() });
    const id = await service.publish(Events.profileUpdated, {
      accountId: who.accountId,
      username: profile.username,
      updatedAt: new Date().toISOString(),
    });
    await service.handled(Events.profileUpdated, id);
    assert.equal((await detailOf(who, order.id)).proof?.status, 'rendering', 'a render was asked for');
    const settled = await waitForDetail(who, order.id, (o) => o.proof?.status === 'ready');
    assert.equal(settled.proof?.version, 1);
    assert.equal(settled.status, 'proof-ready');
    assert.deepEqual(await proofVersions(order.id), [1], 'no second render');
  }, 60_000);
});

describe('while Redis is away', () => {
  it('a paid order holds no transaction open, loses nothing and exits nothing; its proof is queued when Redis is back', async () => {
    await redis.kill();
    const { who, order } = await paidOrder('Cellar Master');
    await waitForDetail(who, order.id, (o) => o.status === 'paid' && o.proof?.status === 'rendering');
    // Long enough for orders.order.paid to be handled, and given up on, more than once.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.deepEqual(await longTransactions(1.5), [], 'no transaction waits for Redis');
    const report = await service.running.ctx.health.report();
    assert.equal(report.checks['redis']?.status, 'down');
    assert.equal((await detailOf(who, order.id)).proof?.status, 'rendering');

    await redis.start();
    const ready = await waitForDetail(who, order.id, (o) => o.status === 'proof-ready');
    assert.equal(ready.proof?.version, 1);
    assert.deepEqual(await proofVersions(order.id), [1], 'rendered once');
  }, 90_000);

  it('the print team asks for a render again: answered at once, rendered once Redis is back', async () => {
    const { who, order } = await paidOrder('Tea Blender');
    await waitForDetail(who, order.id, (o) => o.proof?.status === 'ready' && o.proof.version === 1);
    await redis.kill();
    const started = Date.now();
    const asked = ok(await service.call(Rpc.rerenderProof, { orderId: order.id }, printer));
    assert.equal(asked.proof?.status, 'rendering');
    assert.ok(Date.now() - started < 3000, `answered after ${Date.now() - started} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(await longTransactions(1.5), []);

    await redis.start();
    const again = await waitForDetail(who, order.id, (o) => o.proof?.status === 'ready' && o.proof.version === 2);
    assert.equal(again.status, 'proof-ready');
    assert.deepEqual(await proofVersions(order.id), [1, 2]);
  }, 90_000);
});
