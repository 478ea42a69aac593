import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Events, Rpc, inboxPrefixFor } from '@digicard/contracts';
import { TestSystem, waitFor } from '@digicard/testing';

const enquiry = { name: 'Thabo Mokoena', email: 'thabo@example.co.za', number: '0821234567' };

/** Sends a request as a bus user and says how it ended: an answer, no responders, or a permissions violation. */
async function tryRequest(nc: NatsConnection, subject: string): Promise<string> {
  try {
    await nc.request(subject, JSON.stringify({ id: '1', pattern: subject, data: { meta: {}, body: {} } }), { timeout: 1500 });
    return 'answered';
  } catch (error) {
    const text = `${(error as Error).name} ${(error as Error).message} ${String((error as { cause?: Error }).cause?.message ?? '')}`;
    if (/permission/i.test(text)) return 'denied';
    if (/no responders|503/i.test(text)) return 'no-responders';
    return `other: ${text}`;
  }
}

describe('NATS is not one trust zone: each app is its own bus user with the contracts permissions', () => {
  let system: TestSystem;
  const opened: NatsConnection[] = [];
  const as = async (user: 'gateway' | 'notifications' | 'orders') => {
    // Replies come to the user's own inbox prefix, the only one it may subscribe to (as the apps' clients do).
    const nc = await connect({ servers: system.nats.url, user, pass: system.natsPasswords[user], inboxPrefix: inboxPrefixFor(user) });
    opened.push(nc);
    return nc;
  };

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['identity', 'orders', 'gateway'] });
  });
  afterAll(async () => {
    for (const nc of opened) await nc.close().catch(() => undefined);
    await system?.stop();
  });

  it('lets the apps do their work under their own users: an enquiry is stored and its event leaves the outbox', async () => {
    const res = await system.api('/api/enquiries/call-back', { body: enquiry });
    assert.equal(res.status, 202);
    await waitFor(
      'the outbox to drain',
      async () => (await system.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.outbox WHERE sent_at IS NULL'))[0]!.n === 0,
    );
    assert.equal((await system.api('/api/health')).status === 500, false);
  });

  it('refuses the gateway the service-only subjects, which a stolen gateway credential would use to mint reset tokens', async () => {
    const gateway = await as('gateway');
    assert.equal(await tryRequest(gateway, Rpc.issuePasswordResetToken.subject), 'denied');
    assert.equal(await tryRequest(gateway, Rpc.issueVerificationToken.subject), 'denied');
    assert.equal(await tryRequest(gateway, Rpc.orderForPayment.subject), 'denied');
    // What it needs still answers.
    assert.equal(await tryRequest(gateway, Rpc.listCatalogue.subject), 'answered');
  });

  it('refuses a service the events of another and the subjects of others it does not call', async () => {
    const notifications = await as('notifications');
    const errors: string[] = [];
    void (async () => {
      for await (const s of notifications.status())
        if (s.type === 'error') errors.push(String((s as { error?: Error }).error?.message ?? s.type));
    })();
    notifications.publish(Events.enquiryReceived.subject, '{}');
    await notifications.flush();
    await waitFor('the permissions violation', () => Promise.resolve(errors.some((e) => /permission/i.test(e))), 5000);
    assert.equal(await tryRequest(notifications, Rpc.placeOrder.subject), 'denied');
    // Only its own calls: issuing a reset token is one of them.
    assert.equal(await tryRequest(notifications, Rpc.issuePasswordResetToken.subject), 'answered');
  });

  it('refuses to let the gateway listen to events other than the page invalidations', async () => {
    const gateway = await as('gateway');
    const errors: string[] = [];
    void (async () => {
      for await (const s of gateway.status())
        if (s.type === 'error') errors.push(String((s as { error?: Error }).error?.message ?? s.type));
    })();
    gateway.subscribe(Events.leadCaptured.subject);
    await gateway.flush();
    await waitFor('the subscription violation', () => Promise.resolve(errors.some((e) => /permission/i.test(e))), 5000);
  });

  it('refuses a connection without a valid password for an app user', async () => {
    await assert.rejects(
      connect({ servers: system.nats.url, user: 'orders', pass: 'wrong-password', maxReconnectAttempts: 0, reconnect: false }),
    );
  });
});
