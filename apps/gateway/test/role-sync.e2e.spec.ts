import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Events, type Role } from '@digicard/contracts';
import { DEFAULTS, TestSystem, createStaffAccount, registerOwner, waitFor, type TestOwner } from '@digicard/testing';

describe('role changes reach the sessions of a signed-in account, even when no gateway was up to hear them', () => {
  let system: TestSystem;
  let staff: TestOwner;
  let owner: TestOwner;
  let nc: NatsConnection;
  const redis = new Redis(DEFAULTS.redisUrl);

  /**
   * The role the owner's session carries: what the gateway checks each request against (GET /api/session answers
   * identity's account instead, so the record in Redis is read).
   */
  const sessionRecord = async (): Promise<Record<string, unknown>> => {
    const id = decodeURIComponent(owner.client.cookie!.split('=')[1]!);
    const raw = await redis.get(`${system.redisPrefix}:session:${createHash('sha256').update(id).digest('base64url')}`);
    assert.ok(raw, 'the session is live');
    // `v1.<mac>.<json>`: the record after its MAC (the gateway checks the MAC; role changes keep it valid).
    return JSON.parse(raw.slice(44)) as Record<string, unknown>;
  };
  const roleOfSession = async (): Promise<Role> => (await sessionRecord())['role'] as Role;
  /** What identity's outbox relay publishes for a role change (the envelope, the message id it de-duplicates on). */
  const publishRoleChange = async (role: Role, changedAt: Date, signOut?: boolean) => {
    const id = randomUUID();
    const envelope = {
      id,
      type: Events.roleChanged.subject,
      occurredAt: changedAt.toISOString(),
      data: { accountId: owner.accountId, role, changedAt: changedAt.toISOString(), ...(signOut === undefined ? {} : { signOut }) },
    };
    return (await jetstream(nc).publish(Events.roleChanged.subject, JSON.stringify(envelope), { msgID: id })).seq;
  };

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'] });
    staff = await createStaffAccount(system, { email: 'thandi@digicard.test', role: 'staff', username: 'thandi-staff' });
    owner = await registerOwner(system, { username: 'lindiwe', firstName: 'Lindiwe', lastName: 'Zulu', email: 'lindiwe@example.co.za' });
    nc = await connect({ servers: system.nats.url });
  });
  afterAll(async () => {
    redis.disconnect();
    await nc?.close();
    await system?.stop();
  });

  it('gives the signed-in owner the role staff chose, from their next request, without signing in again', async () => {
    const before = await sessionRecord();
    assert.equal(before['role'], 'user');
    const leader = await staff.client.request(`/api/staff/accounts/${owner.accountId}/role`, {
      method: 'PUT',
      body: { role: 'teamLeader' },
    });
    assert.equal(leader.status, 200, JSON.stringify(leader.body));
    await waitFor('the session to carry teamLeader', async () => (await roleOfSession()) === 'teamLeader');
    // The rest of the record is as it was (its times to the millisecond, its CSRF token), and it still works.
    assert.deepEqual(await sessionRecord(), { ...before, role: 'teamLeader' });
    // Only that account's sessions: the staff member who made the change keeps theirs.
    const staffId = decodeURIComponent(staff.client.cookie!.split('=')[1]!);
    const staffRecord = await redis.get(`${system.redisPrefix}:session:${createHash('sha256').update(staffId).digest('base64url')}`);
    assert.equal((JSON.parse(staffRecord!.slice(44)) as { role: string }).role, 'staff');
    const renamed = await owner.client.request('/api/accounts/me/name', {
      method: 'PUT',
      body: { firstName: 'Lindiwe', lastName: 'Zulu' },
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  });

  it('applies a change published while the gateway was down as soon as a gateway starts', async () => {
    await system.stopApp('gateway');
    await publishRoleChange('user', new Date());
    await system.startApp('gateway');
    await waitFor('the session to carry user again', async () => (await roleOfSession()) === 'user', 15_000);
  });

  it('never lets an older change, delivered late, bring an earlier role back', async () => {
    // Older than the change the previous test applied: handled (acknowledged) and skipped.
    const seq = await publishRoleChange('teamLeader', new Date(Date.now() - 60_000));
    const jsm = await jetstreamManager(nc);
    await waitFor(
      'the gateway to acknowledge the older change',
      async () => (await jsm.consumers.info('EVENTS_IDENTITY', 'gateway--identity-user-role-changed')).ack_floor.stream_seq >= seq,
    );
    assert.equal(await roleOfSession(), 'user');
    // A newer one is applied.
    await publishRoleChange('teamMember', new Date());
    await waitFor('the newer change', async () => (await roleOfSession()) === 'teamMember');
  });

  it('puts a change it can never apply in its dead-letter stream, and the system report tells an operator', async () => {
    const id = randomUUID();
    const bad = {
      id,
      type: Events.roleChanged.subject,
      occurredAt: new Date().toISOString(),
      data: { accountId: 'not-an-account', role: 'king' },
    };
    await jetstream(nc).publish(Events.roleChanged.subject, JSON.stringify(bad), { msgID: id });
    const alerts = await waitFor('the alert', async () => {
      const report = (await (await fetch(`${system.gatewayHealthUrl}/health/system`)).json()) as { alerts?: string[] };
      return report.alerts?.find((a) => a.includes('DEADLETTER_GATEWAY')) ?? null;
    });
    assert.equal(alerts, 'gateway deadLetters: 1 events in DEADLETTER_GATEWAY need an operator');
    assert.equal(await roleOfSession(), 'teamMember', 'the sessions are as they were');
  });

  it('ends the sessions signed in before a role was taken away (signOut), even when no gateway was up to hear it', async () => {
    // Staff took a print or staff role away while Redis failed the console's own sign-out: the event still ends them.
    await system.stopApp('gateway');
    await publishRoleChange('user', new Date(), true);
    await system.startApp('gateway');
    const id = decodeURIComponent(owner.client.cookie!.split('=')[1]!);
    const key = `${system.redisPrefix}:session:${createHash('sha256').update(id).digest('base64url')}`;
    await waitFor('the session to end', async () => (await redis.get(key)) === null, 15_000);
    assert.equal((await owner.client.request('/api/session')).body.user, null, 'signed out');
    // Signing in again is the way back, with the role identity holds.
    const again = system.client();
    const signedIn = await again.request('/api/session', { body: { email: 'lindiwe@example.co.za', password: owner.password } });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  });
});
