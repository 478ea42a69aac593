import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import pg from 'pg';
import { PrivatePostgres, canConnect, SALES_INBOX, TestSystem, waitFor } from '@digicard/testing';

const enquiry = (n: string) => ({ name: `Thabo Mokoena ${n}`, email: 'thabo@example.co.za', number: '0821234567' });

/**
 * What a PostgreSQL failover or restart does to the apps: every connection is cut (pg_terminate_backend), then the
 * server is away for a while. The services must drop the dead connections and carry on, never exit; what they
 * could not do meanwhile is answered 503 (never 500) or retried, and every accepted enquiry is emailed once.
 */
describe('orders and notifications when PostgreSQL cuts their connections or restarts', () => {
  const postgres = new PrivatePostgres();
  let system: TestSystem;
  const accepted: string[] = [];

  const send = async (n: string) => {
    const res = await system.api('/api/enquiries/call-back', { body: enquiry(n) });
    if (res.status === 202) accepted.push(res.body.id as string);
    return res.status;
  };
  const terminateAppConnections = async () => {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      const rows = await admin.query(
        `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = $1 AND application_name IN ('orders', 'notifications')`,
        [system.databaseName],
      );
      return rows.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  };
  const health = async (app: 'orders' | 'notifications') => {
    const res = await fetch(`http://127.0.0.1:${system.port(app)}/health`);
    return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, { status: string }> } };
  };

  beforeAll(async () => {
    await postgres.start();
    system = await TestSystem.start({
      apps: ['mail-catcher', 'orders', 'notifications', 'gateway'],
      postgresUrl: postgres.url,
      env: { orders: { READINESS_GRACE_SECONDS: '30' }, notifications: { READINESS_GRACE_SECONDS: '30' } },
    });
    assert.equal(await send('before'), 202);
    // A private PostgreSQL, then the apps, each given 90 s to be ready: 90 s for the whole was too little beside the
    // browser lane (2026-11-29).
  }, 240_000);
  afterAll(async () => {
    // A failed test may have left the server stopped; the system's database is dropped from it.
    if (!(await canConnect(postgres.url))) await postgres.start();
    await system?.stop();
    await postgres.destroy();
  });

  it('stays up when PostgreSQL terminates every connection of orders and notifications', async () => {
    // Both services hold pooled connections (the outbox relays run every second): cut them all.
    await waitFor('pooled connections of both services', async () => (await terminateAppConnections()) >= 2, 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(system.isRunning('orders'), `orders exited:\n${system.logsOf('orders').slice(-5).join('\n')}`);
    assert.ok(system.isRunning('notifications'), `notifications exited:\n${system.logsOf('notifications').slice(-5).join('\n')}`);
    assert.equal(await send('after-terminate'), 202);
    // Cut them again while enquiries flow, so transactions in progress lose their connection too.
    const flow = Promise.all(
      Array.from({ length: 20 }, (_, i) => new Promise((r) => setTimeout(r, i * 50)).then(() => send(`during-terminate-${i}`))),
    );
    await terminateAppConnections();
    const statuses = await flow;
    assert.ok(
      statuses.every((s) => s === 202 || s === 503),
      `only 202 or 503: ${statuses.join(',')}`,
    );
    assert.ok(system.isRunning('orders') && system.isRunning('notifications'));
  }, 60_000);

  it('rides out a PostgreSQL restart: 503 while it is away, degraded health, then everything accepted is emailed once', async () => {
    await postgres.stop('fast');
    const whileDown = await send('while-down');
    assert.equal(whileDown, 503, 'a service whose database is away answers 503 through the gateway, not 500');
    const report = await waitFor(
      'orders to report the database down',
      async () => {
        const h = await health('orders');
        return h.body.checks['postgres']?.status === 'down' ? h : null;
      },
      10_000,
    );
    assert.equal(report.status, 200, 'a short outage keeps the replica ready');
    assert.equal(report.body.status, 'degraded');
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(system.isRunning('orders') && system.isRunning('notifications'), 'no process exits while the database is away');
    await postgres.start();
    await waitFor('orders to be healthy again', async () => (await health('orders')).body.status === 'ok', 15_000);
    await waitFor('notifications to be healthy again', async () => (await health('notifications')).body.status === 'ok', 15_000);
    assert.equal(await send('after-restart'), 202);

    const stored = await system.sql<{ id: string }>('SELECT id FROM orders.enquiries');
    const storedIds = new Set(stored.map((r) => r.id));
    for (const id of accepted) assert.ok(storedIds.has(id), `accepted enquiry ${id} stored`);
    const mails = await system.mail.waitForCount((m) => m.to.includes(SALES_INBOX), stored.length, 45_000, 2000);
    for (const id of storedIds) {
      assert.equal(mails.filter((m) => m.text.includes(id)).length, 1, `enquiry ${id} emailed exactly once`);
    }
    for (const app of ['orders', 'notifications', 'gateway'] as const) {
      assert.ok(!system.logsOf(app).some((l) => /"level":60/.test(l)), `${app} logged nothing fatal`);
      assert.ok(system.isRunning(app), `${app} is running`);
    }
    assert.ok(!system.logsOf('gateway').some((l) => /"status":500/.test(l)), 'the gateway answered no 500');
  }, 120_000);
});
