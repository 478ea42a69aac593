import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { SALES_INBOX, TestSystem, waitFor } from '@digicard/testing';

describe('no enquiry is lost while the notifications service is down', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'orders', 'gateway'] });
    // The worker's shared system runs every app: notifications is down here until the test starts it.
    if (system.isRunning('notifications')) await system.stopApp('notifications');
  });
  afterAll(() => system?.stop());

  it('accepts 50 submissions without notifications, then sends exactly 50 emails once it starts', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const body =
        i % 2 === 0
          ? { name: `Caller ${i}`, email: `caller${i}@example.co.za`, number: `08200000${String(i).padStart(2, '0')}` }
          : { name: `Writer ${i}`, email: `writer${i}@example.co.za`, message: `Message number ${i}` };
      const res = await system.api(i % 2 === 0 ? '/api/enquiries/call-back' : '/api/enquiries/message', { body });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      ids.add(res.body.id);
    }
    assert.equal(ids.size, 50);
    const [stored] = await system.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.enquiries');
    assert.equal(stored!.n, 50);
    // Every event left the outbox for JetStream, where it waits for a consumer.
    await waitFor('the outbox to drain', async () => {
      const [row] = await system.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.outbox WHERE sent_at IS NULL');
      return row!.n === 0;
    });
    assert.equal((await system.mail.list()).length, 0);

    await system.startApp('notifications');
    const mails = await system.mail.waitForCount((m) => m.to.includes(SALES_INBOX), 50, 60_000, 2000);
    assert.equal(mails.length, 50);
    const references = new Set(mails.map((m) => /Reference: ([0-9a-f-]{36})/.exec(m.text)?.[1]));
    assert.deepEqual([...references].sort(), [...ids].sort());
    const [log] = await system.sql<{ n: number }>(`SELECT count(*)::int AS n FROM notifications.mail_log WHERE status = 'sent'`);
    assert.equal(log!.n, 50);
  });

  it('sends nothing twice: not after a restart, not when an event is delivered again', async () => {
    assert.equal(await system.stopApp('notifications'), 0);
    await system.startApp('notifications');
    // The same event published again under a new message id, as a redelivery after a lost ack would be.
    const [event] = await system.sql<{ subject: string; payload: unknown }>('SELECT subject, payload FROM orders.outbox LIMIT 1');
    const nc = await connect({ servers: system.nats.url });
    await jetstream(nc).publish(event!.subject, JSON.stringify(event!.payload), { msgID: 'redelivery-test' });
    await nc.close();
    await waitFor('the duplicate to be seen', () =>
      Promise.resolve(system.logsOf('notifications').some((l) => l.includes('duplicate event skipped'))),
    );
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await system.mail.list(SALES_INBOX)).length, 50);
  });
});
