// The shared system of a Jest worker (libs/testing `TestSystem.shared`): the next file gets it as a new system would be,
// without another start of the apps. A whole-system file because what it shows is about the apps as processes: which
// of them are started again, what their databases, Redis keys, mail and output hold between two files.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { Events } from '@digicard/contracts';
import { DEFAULTS, TestSystem, registerOwner, waitFor } from '@digicard/testing';

describe('a shared system handed to the next file', () => {
  const systems: TestSystem[] = [];
  // What this file shows holds even where the run gives every other file its own system.
  const sharing = process.env['DIGICARD_SHARED_SYSTEM'];
  delete process.env['DIGICARD_SHARED_SYSTEM'];
  afterAll(async () => {
    for (const system of systems) await system.stop();
    if (sharing !== undefined) process.env['DIGICARD_SHARED_SYSTEM'] = sharing;
  });
  const shared = async () => {
    const system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'] });
    systems.push(system);
    return system;
  };
  const count = async (system: TestSystem, table: string) =>
    Number((await system.sql<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n);

  it('is reset between files: no accounts, profiles, sessions, mail or output of the file before, the seeded rows as they were', async () => {
    const first = await shared();
    const seeded = await count(first, 'orders.catalogue_items');
    assert.ok(seeded > 0, 'the migrations seed the catalogue');
    const owner = await registerOwner(first, {
      username: 'naledi',
      firstName: 'Naledi',
      lastName: 'Dlamini',
      email: 'naledi@example.co.za',
    });
    await first.sql('DELETE FROM orders.catalogue_items WHERE id = (SELECT id FROM orders.catalogue_items ORDER BY sort_order LIMIT 1)');
    const redis = new Redis(DEFAULTS.redisUrl);
    await redis.set(`${first.redisPrefix}:left-behind`, '1');
    const before = { runId: first.runId, gateway: first.pidOf('gateway'), identity: first.pidOf('identity') };
    assert.ok((await first.mail.list()).length > 0);
    assert.ok(first.logsOf('gateway').length > 0);
    await first.stop();

    const next = await shared();
    assert.equal(next.runId, before.runId, 'the same system');
    assert.equal(next.pidOf('identity'), before.identity, 'the services keep running');
    assert.notEqual(next.pidOf('gateway'), before.gateway, 'a new gateway process: its caches start empty');
    assert.equal(await count(next, 'identity.accounts'), 0);
    assert.equal(await count(next, 'profiles.profiles'), 0);
    assert.equal(await count(next, 'orders.catalogue_items'), seeded, 'the seeded rows are back');
    assert.equal(await redis.exists(`${next.redisPrefix}:left-behind`), 0);
    assert.deepEqual(await next.mail.list(), []);
    assert.ok(!next.logs.some((l) => l.line.includes(owner.accountId)), 'no output of the file before');
    assert.equal((await owner.client.request('/api/session')).body.user, null, "the file before's session is gone");
    // The same username registers again, as it would on a new system.
    const again = await registerOwner(next, {
      username: 'naledi',
      firstName: 'Naledi',
      lastName: 'Dlamini',
      email: 'naledi@example.co.za',
    });
    assert.notEqual(again.accountId, owner.accountId);
    await redis.quit();
  });

  it("starts again, with the file's own settings, an app whose settings differ from what it runs with", async () => {
    const environ = (pid: number | null) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const plain = await shared();
    const before = { notifications: plain.pidOf('notifications'), identity: plain.pidOf('identity') };
    await plain.stop();
    const own = await TestSystem.shared({ apps: ['notifications'], env: { notifications: { CRM_WEBHOOK_ALLOW_LOCAL: 'true' } } });
    systems.push(own);
    assert.notEqual(own.pidOf('notifications'), before.notifications);
    assert.ok(environ(own.pidOf('notifications')).includes('CRM_WEBHOOK_ALLOW_LOCAL=true'));
    assert.equal(own.pidOf('identity'), before.identity, 'the apps whose settings are the same keep running');
    const withOwn = own.pidOf('notifications');
    await own.stop();
    const again = await shared();
    assert.notEqual(again.pidOf('notifications'), withOwn, 'the next file without them gets it as it was');
    assert.ok(!environ(again.pidOf('notifications')).includes('CRM_WEBHOOK_ALLOW_LOCAL=true'));
  });

  it('does not wait for an event its consumers failed on and get again only after a back-off: its stream is purged', async () => {
    const current = await shared();
    const runId = current.runId;
    // An event no handler can apply (role-sync.e2e leaves one on purpose): the gateway and profiles fail on it and get it
    // again after their back-off, longer than the reset waits for work to settle (20 s).
    const nc = await connect({ servers: current.nats.url });
    try {
      const id = randomUUID();
      const bad = {
        id,
        type: Events.roleChanged.subject,
        occurredAt: new Date().toISOString(),
        data: { accountId: 'nobody', role: 'king' },
      };
      await jetstream(nc).publish(Events.roleChanged.subject, JSON.stringify(bad), { msgID: id });
      const jsm = await jetstreamManager(nc);
      const gatewayConsumer = () => jsm.consumers.info('EVENTS_IDENTITY', 'gateway--identity-user-role-changed');
      await waitFor('the gateway to have it and not acknowledge it', async () => {
        const info = await gatewayConsumer();
        return info.num_pending === 0 && info.num_ack_pending === 1;
      });
      await current.stop();
      const next = await shared();
      assert.equal(next.runId, runId, 'the same system, not a new one after the 20 s');
      assert.equal((await jsm.streams.info('EVENTS_IDENTITY')).state.messages, 0, 'the stream purged');
      assert.equal((await gatewayConsumer()).num_ack_pending, 0);
      await next.stop();
    } finally {
      await nc.close();
    }
  });

  it('starts again an app the file before killed, and is replaced by a new system when its reset fails', async () => {
    const current = await shared();
    const runId = current.runId;
    await current.killApp('teams');
    await current.stop();
    const next = await shared();
    assert.equal(next.runId, runId, 'the same system');
    assert.ok(next.isRunning('teams'));
    assert.equal((await fetch(`http://127.0.0.1:${next.port('teams')}/health`)).status, 200, 'teams answers');
    // Its copy of the seeded rows gone, the reset cannot put them back.
    await next.sql('DROP SCHEMA digicard_seed CASCADE');
    await next.stop();
    const replaced = await shared();
    assert.notEqual(replaced.runId, runId);
    const old = await replaced.sql<{ n: string }>('SELECT count(*) AS n FROM pg_database WHERE datname = $1', [`digicard_t_${runId}`]);
    assert.equal(Number(old[0]?.n), 0, 'the replaced system is stopped and its database dropped');
  });
});
