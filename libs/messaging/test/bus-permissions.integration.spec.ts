import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { AckPolicy } from '@nats-io/jetstream';
import {
  BusUsers,
  Events,
  Rpc,
  deadLetterStreamFor,
  durableName,
  natsAuthorizationConfig,
  NATS_MAX_PAYLOAD_BYTES,
  provisionedStreams,
  STREAM_PROVISIONER,
  streamFor,
  type BusUser,
} from '@digicard/contracts';
import { PrivateNats, waitFor } from '@digicard/testing';
import { RetentionPolicy } from '@nats-io/jetstream';
import { connectNats, jetStreamHandles, provisionStreams, startEventConsumer, type NatsConnection } from '../src/index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** A well-formed `payments.payment.completed`: what a forger would send (a malformed one is dropped anyway). */
const payment = () =>
  JSON.stringify({
    id: randomUUID(),
    type: Events.paymentCompleted.subject,
    occurredAt: new Date().toISOString(),
    data: {
      paymentId: randomUUID(),
      accountId: randomUUID(),
      kind: 'order',
      orderId: randomUUID(),
      subscriptionId: null,
      amountCents: 100,
      pfPaymentId: '1',
      completedAt: new Date().toISOString(),
      tier: null,
      paidUntil: null,
    },
  });

/** The permission errors the server sent a connection (a refused publish or subscribe is reported asynchronously). */
function permissionErrors(nc: NatsConnection): string[] {
  const errors: string[] = [];
  void (async () => {
    for await (const s of nc.status()) {
      const text = String((s as { error?: Error }).error?.message ?? '');
      if (s.type === 'error' && /permission/i.test(text)) errors.push(text);
    }
  })();
  return errors;
}

/**
 * The generated users against a real nats-server: what a service whose code is taken over can still do on the bus.
 * The apps' users, the stream provisioner (who declares every stream, as the one-shot step nats-streams does before
 * the apps start) and an admin (an operator).
 */
describe('bus users cannot forge another service events, read its replies or steal its consumers', () => {
  const passwords = Object.fromEntries([...BusUsers, STREAM_PROVISIONER].map((u) => [u, randomBytes(12).toString('hex')])) as Record<
    BusUser | typeof STREAM_PROVISIONER,
    string
  >;
  const adminPassword = randomBytes(12).toString('hex');
  const nats = new PrivateNats(natsAuthorizationConfig({ passwords, admin: { password: adminPassword } }));
  const opened: NatsConnection[] = [];
  const as = async (user: BusUser | typeof STREAM_PROVISIONER | 'admin'): Promise<NatsConnection> => {
    const nc = await connectNats(nats.urlFor(user, user === 'admin' ? adminPassword : passwords[user]), `test-${user}`);
    opened.push(nc);
    return nc;
  };
  let admin: NatsConnection;
  const paymentsStream = streamFor('payments').name;
  const messagesIn = async (stream: string) => (await (await jetStreamHandles(admin)).jsm.streams.info(stream)).state.messages;

  beforeAll(async () => {
    await nats.start();
    admin = await as('admin');
    // The provisioner declares every stream under its own user, before any app starts.
    await provisionStreams((await jetStreamHandles(await as(STREAM_PROVISIONER))).jsm);
  });
  afterAll(async () => {
    for (const nc of opened) await nc.close().catch(() => undefined);
    await nats.destroy();
  });

  it('runs with the max_payload the configuration sets (NATS_MAX_PAYLOAD_BYTES), whatever the server’s default', async () => {
    assert.equal((await as('gateway')).info?.max_payload, NATS_MAX_PAYLOAD_BYTES);
  });

  it('refuses a payments.payment.completed published by orders, on core NATS and through JetStream', async () => {
    const orders = await as('orders');
    const errors = permissionErrors(orders);
    orders.publish(Events.paymentCompleted.subject, payment());
    await orders.flush();
    const { js } = await jetStreamHandles(orders);
    await assert.rejects(js.publish(Events.paymentCompleted.subject, payment(), { timeout: 1500 }));
    await waitFor('the permissions violation', () => Promise.resolve(errors.length > 0), 5000);
    assert.equal(await messagesIn(paymentsStream), 0);
    // The owner can.
    const { js: paymentsJs } = await jetStreamHandles(await as('payments'));
    await paymentsJs.publish(Events.paymentCompleted.subject, payment());
    assert.equal(await messagesIn(paymentsStream), 1);
  });

  it("lets orders read replies to its own requests only, never the gateway's", async () => {
    const identity = await as('identity');
    const answering = identity.subscribe(Rpc.getAccount.subject, {
      callback: (_e, msg) => void msg.respond(JSON.stringify({ email: 'secret@example.co.za' })),
    });
    await identity.flush();
    const gateway = await as('gateway');
    const orders = await as('orders');
    // Orders' own request is answered into its own inbox.
    assert.match((await orders.request(Rpc.getAccount.subject, '{}', { timeout: 2000 })).string(), /secret/);
    // Listening to every inbox, or to the gateway's, is refused.
    const errors = permissionErrors(orders);
    const seen: string[] = [];
    for (const subject of ['_INBOX.>', '_INBOX_gateway.>', '>'])
      orders.subscribe(subject, { callback: (e, msg) => void (e ? undefined : seen.push(msg.string())) });
    await orders.flush();
    await waitFor('the subscription violations', () => Promise.resolve(errors.length >= 3), 5000);
    assert.match((await gateway.request(Rpc.getAccount.subject, '{}', { timeout: 2000 })).string(), /secret/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(seen, []);
    answering.unsubscribe();
  });

  it('lets only the named service send a service-only query about another account: never the gateway, never another service', async () => {
    const identity = await as('identity');
    const profiles = await as('profiles');
    const answer = (_e: Error | null, msg: { respond: (data: string) => boolean }) => void msg.respond('{"ok":true}');
    const answering = [
      identity.subscribe(Rpc.accountById.subject, { callback: answer }),
      profiles.subscribe(Rpc.mediaOfAccount.subject, { callback: answer }),
    ];
    await identity.flush();
    await profiles.flush();
    // The named callers are answered.
    assert.match((await (await as('notifications')).request(Rpc.accountById.subject, '{}', { timeout: 2000 })).string(), /ok/);
    assert.match((await (await as('orders')).request(Rpc.mediaOfAccount.subject, '{}', { timeout: 2000 })).string(), /ok/);
    // The gateway and the services not named are refused by the server (the request never reaches the owner).
    const refused: Array<[BusUser, string]> = [
      ['gateway', Rpc.accountById.subject],
      ['gateway', Rpc.mediaOfAccount.subject],
      ['orders', Rpc.accountById.subject],
      ['payments', Rpc.accountById.subject],
      ['notifications', Rpc.mediaOfAccount.subject],
      ['teams', Rpc.mediaOfAccount.subject],
    ];
    for (const [user, subject] of refused) {
      const nc = await as(user);
      const errors = permissionErrors(nc);
      await assert.rejects(nc.request(subject, '{}', { timeout: 1000 }), `${user} ${subject}`);
      await waitFor(`the permissions violation of ${user} on ${subject}`, () => Promise.resolve(errors.length > 0), 5000);
    }
    for (const sub of answering) sub.unsubscribe();
  });

  it("runs a service's own durable consumer, and refuses it another app's consumer, an ephemeral one and another's acks", async () => {
    const notifications = await as('notifications');
    const { js, jsm } = await jetStreamHandles(notifications);
    const handled: string[] = [];
    const consumer = await startEventConsumer(
      js,
      jsm,
      {
        stream: paymentsStream,
        durable: durableName('notifications', Events.paymentCompleted.subject),
        event: Events.paymentCompleted,
        deadLetterSubject: 'deadletter.notifications.payments.payment.completed',
        newConsumerCatchUpMs: 60_000,
        handle: (envelope) => {
          handled.push(envelope.id);
          return Promise.resolve();
        },
      },
      silent,
    );
    await consumer.attached;
    await waitFor('the event to reach notifications', () => Promise.resolve(handled.length >= 1), 10_000);
    await consumer.stop();

    const orders = await as('orders');
    const ordersJsm = (await jetStreamHandles(orders)).jsm;
    const config = { ack_policy: AckPolicy.Explicit, filter_subject: Events.paymentCompleted.subject };
    // Its own durable on payments' stream is fine (orders marks orders paid from it).
    await ordersJsm.consumers.add(paymentsStream, { ...config, durable_name: durableName('orders', Events.paymentCompleted.subject) });
    // Notifications' consumer: neither taken over, nor deleted, nor read.
    await assert.rejects(
      ordersJsm.consumers.add(paymentsStream, {
        ...config,
        durable_name: durableName('notifications', Events.paymentCompleted.subject),
        max_deliver: 1,
      }),
    );
    await assert.rejects(ordersJsm.consumers.delete(paymentsStream, durableName('notifications', Events.paymentCompleted.subject)));
    await assert.rejects(
      ordersJsm.consumers.add(paymentsStream, { ...config, durable_name: 'orders-spy', deliver_subject: '_INBOX_orders.spy' } as never),
    );
    await assert.rejects(ordersJsm.consumers.add(paymentsStream, config));
    // Acking (dropping) notifications' deliveries.
    const errors = permissionErrors(orders);
    orders.publish(
      `$JS.ACK.${paymentsStream}.${durableName('notifications', Events.paymentCompleted.subject)}.1.1.1.${Date.now()}000000.0`,
      '+TERM',
    );
    await orders.flush();
    await waitFor('the ack violation', () => Promise.resolve(errors.length > 0), 5000);
    const adminJsm = (await jetStreamHandles(admin)).jsm;
    assert.deepEqual(
      (await adminJsm.consumers.info(paymentsStream, durableName('notifications', Events.paymentCompleted.subject))).config.max_deliver,
      15,
    );
  });

  it('refuses a service the streams of others: no declaring, changing or deleting them', async () => {
    const orders = await as('orders');
    const ordersJsm = (await jetStreamHandles(orders)).jsm;
    await assert.rejects(ordersJsm.streams.add({ name: 'FORGED', subjects: ['payments.>'] }));
    const info = await ordersJsm.streams.info(paymentsStream);
    await assert.rejects(ordersJsm.streams.update(paymentsStream, { ...info.config, max_msgs: 1 }));
    await assert.rejects(ordersJsm.streams.purge(paymentsStream));
    await assert.rejects(ordersJsm.streams.delete(paymentsStream));
    assert.equal(await messagesIn(paymentsStream), 1);
  });

  it('refuses every app the declaring and changing of any stream, its own included; the provisioner alone may', async () => {
    const adminJsm = (await jetStreamHandles(admin)).jsm;
    for (const user of BusUsers) {
      const { jsm } = await jetStreamHandles(await as(user));
      const tries: Array<[string, () => Promise<unknown>]> = [
        // A stream of its own making that reads another app's events (sources) or takes its subjects.
        [
          'a new stream sourcing payments',
          () => jsm.streams.add({ name: `SPY_${user.toUpperCase()}`, subjects: [], sources: [{ name: paymentsStream }] }),
        ],
        ['a new stream on payments subjects', () => jsm.streams.add({ name: `FORGED_${user.toUpperCase()}`, subjects: ['payments.>'] })],
      ];
      const own = provisionedStreams().find((s) => s.owner === user && s.kind === 'events');
      for (const stream of provisionedStreams().filter((s) => s.owner === user)) {
        const info = await adminJsm.streams.info(stream.name);
        tries.push(
          [
            `${stream.name}: sourcing payments`,
            () => jsm.streams.update(stream.name, { ...info.config, sources: [{ name: paymentsStream }] }),
          ],
          [`${stream.name}: kept a minute`, () => jsm.streams.update(stream.name, { ...info.config, max_age: 60_000_000_000 })],
          [`${stream.name}: declared again`, () => jsm.streams.add({ name: stream.name, subjects: stream.subjects })],
        );
      }
      if (own) tries.push([`${own.name} deleted`, () => jsm.streams.delete(own.name)]);
      for (const [what, attempt] of tries) await assert.rejects(attempt(), `${user} may: ${what}`);
      // What it may do: look at the streams it writes into (and wait for them).
      for (const stream of provisionedStreams().filter((s) => s.owner === user))
        await assert.doesNotReject(jsm.streams.info(stream.name), `${user} may look at ${stream.name}`);
    }
    // Nothing changed: no new stream, and every stream as the provisioner declared it.
    const names: string[] = [];
    for await (const name of adminJsm.streams.names()) names.push(name);
    assert.deepEqual(
      names.sort(),
      provisionedStreams()
        .map((s) => s.name)
        .sort(),
    );
    for (const { name } of provisionedStreams()) {
      const config = (await adminJsm.streams.info(name)).config;
      assert.equal(config.sources?.length ?? 0, 0, name);
      assert.equal(config.retention, RetentionPolicy.Limits, name);
      assert.ok(config.max_age > 60_000_000_000, name);
    }
    // The provisioner may change them (and puts them back as declared), but may do nothing else on the bus.
    const provisioner = await as(STREAM_PROVISIONER);
    const { js: provisionerJs, jsm: provisionerJsm } = await jetStreamHandles(provisioner);
    const info = await provisionerJsm.streams.info(paymentsStream);
    await provisionerJsm.streams.update(paymentsStream, { ...info.config, max_age: 3_600_000_000_000 });
    assert.deepEqual(
      (await provisionStreams(provisionerJsm)).filter((d) => d.result !== 'unchanged').map((d) => d.name),
      [paymentsStream],
    );
    await assert.rejects(provisionerJsm.streams.add({ name: 'PROVISIONER_OWN', subjects: ['provisioner.>'] }), 'a stream not declared');
    await assert.rejects(provisionerJsm.streams.purge(paymentsStream));
    await assert.rejects(provisionerJsm.streams.delete(paymentsStream));
    await assert.rejects(provisionerJs.publish(Events.paymentCompleted.subject, payment(), { timeout: 1500 }));
    const errors = permissionErrors(provisioner);
    await assert.rejects(provisioner.request(Rpc.getAccount.subject, '{}', { timeout: 1000 }));
    await waitFor('the request refused', () => Promise.resolve(errors.length > 0), 5000);
  });

  it("does not believe an event another service's stream republished into the owner's subject", async () => {
    // No app may configure a stream (above), yet a stream that republishes what it stores to any subject (an
    // operator's slip) makes the server, not orders, publish into payments' subject, and payments' stream keeps it.
    // Consumers refuse it all the same.
    const orders = await as('orders');
    const { js: ordersJs } = await jetStreamHandles(orders);
    const adminJsm = (await jetStreamHandles(admin)).jsm;
    const { name, subjects } = streamFor('orders');
    await adminJsm.streams.delete(name);
    await adminJsm.streams.add({ name, subjects, republish: { src: Events.orderPaid.subject, dest: Events.paymentCompleted.subject } });
    const before = await messagesIn(paymentsStream);
    await ordersJs.publish(Events.orderPaid.subject, payment());
    await waitFor('the republished copy in payments stream', async () => (await messagesIn(paymentsStream)) === before + 1, 5000);

    const notifications = await as('notifications');
    const { js, jsm } = await jetStreamHandles(notifications);
    const deadLetters = deadLetterStreamFor('notifications').name;
    const handled: string[] = [];
    const consumer = await startEventConsumer(
      js,
      jsm,
      {
        stream: paymentsStream,
        durable: durableName('notifications', Events.paymentCompleted.subject),
        event: Events.paymentCompleted,
        deadLetterSubject: deadLetterStreamFor('notifications').subjectFor(Events.paymentCompleted.subject),
        handle: (envelope) => {
          handled.push(envelope.id);
          return Promise.resolve();
        },
      },
      silent,
    );
    await waitFor('the forged event dead-lettered', async () => (await messagesIn(deadLetters)) === 1, 10_000);
    await consumer.stop();
    assert.deepEqual(handled, []);
  });
});
