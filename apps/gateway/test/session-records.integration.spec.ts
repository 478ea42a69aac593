import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { DEFAULTS } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { SessionStore } from '../src/session/session.store.js';

const prefix = `test-session-records-${randomBytes(4).toString('hex')}`;
const redis = new Redis(DEFAULTS.redisUrl);
const store = (secret: string) =>
  new SessionStore(redis, {
    REDIS_KEY_PREFIX: prefix,
    SESSION_IDLE_MINUTES: 60,
    SESSION_ABSOLUTE_HOURS: 24,
    SESSION_SECRET: secret,
  } as Config);
const keyOf = (id: string) => `${prefix}:session:${createHash('sha256').update(id).digest('base64url')}`;
const accountId = '7d1f3c1e-4a53-4c1f-9d6b-0c7d4d3f1a11';

/**
 * Orders and notifications reach the same Redis as the gateway: what they could write there must not be a session.
 * Against the real Redis, the store as the gateway runs it.
 */
describe('session records are MACed with a key only the gateway holds', () => {
  const secret = randomBytes(32).toString('base64url');
  const sessions = store(secret);

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('reads back its own records, and across replicas with the same SESSION_SECRET', async () => {
    const session = await sessions.create(accountId, 'user');
    assert.equal((await sessions.get(session.id))?.data.role, 'user');
    assert.equal((await store(secret).get(session.id))?.data.role, 'user');
    assert.equal(await store(randomBytes(32).toString('base64url')).get(session.id), null, 'another key reads no session');
  });

  it('reads a record written by someone else as signed out: a plain JSON staff session, or one with a made-up MAC', async () => {
    const now = Date.now();
    const forged = JSON.stringify({ accountId, role: 'staff', csrfToken: 'x'.repeat(43), createdAt: now, lastSeenAt: now });
    const id = randomBytes(32).toString('base64url');
    await redis.set(keyOf(id), forged, 'PX', 60_000);
    assert.equal(await sessions.get(id), null);
    await redis.set(keyOf(id), `v1.${'0'.repeat(40)}.${forged}`, 'PX', 60_000);
    assert.equal(await sessions.get(id), null);
  });

  it('reads a tampered record (its role raised) as signed out', async () => {
    const session = await sessions.create(accountId, 'user');
    const raw = (await redis.get(keyOf(session.id)))!;
    await redis.set(keyOf(session.id), raw.replace('"role":"user"', '"role":"staff"'), 'KEEPTTL');
    assert.notEqual(await redis.get(keyOf(session.id)), raw);
    assert.equal(await sessions.get(session.id), null);
  });

  it('keeps a role change signed (the script re-MACs in Redis), and never signs a forged record of the account', async () => {
    const session = await sessions.create(accountId, 'user');
    const forgedId = randomBytes(32).toString('base64url');
    const now = Date.now();
    await redis.set(
      keyOf(forgedId),
      JSON.stringify({ accountId, role: 'user', csrfToken: 'x'.repeat(43), createdAt: now, lastSeenAt: now }),
      'PX',
      60_000,
    );
    await redis.sadd(`${prefix}:account-sessions:${accountId}`, createHash('sha256').update(forgedId).digest('base64url'));
    assert.ok((await sessions.setRoleFor(accountId, 'teamLeader', new Date().toISOString())) >= 1);
    assert.equal((await sessions.get(session.id))?.data.role, 'teamLeader');
    assert.equal(await sessions.get(forgedId), null);
  });

  it('ends, on a role taken away (signOut), the sessions signed in before the change and keeps one signed in after it', async () => {
    const revoked = 'c3a9e0d2-5b1f-4e77-8a0c-2f4d6b8e1a22';
    const before = [await sessions.create(revoked, 'print'), await sessions.create(revoked, 'print')];
    const changedAt = new Date(Date.now() + 5).toISOString();
    await new Promise((r) => setTimeout(r, 10));
    // Signed in again after the change (identity said 'user' then): the change, arriving late, leaves it alone.
    const after = await sessions.create(revoked, 'user');
    const other = await sessions.create(accountId, 'print');
    assert.equal(await sessions.setRoleFor(revoked, 'user', changedAt, { signOut: true }), 2);
    for (const session of before) assert.equal(await sessions.get(session.id), null, 'signed out');
    assert.equal((await sessions.get(after.id))?.data.role, 'user');
    assert.equal((await sessions.get(other.id))?.data.role, 'print', "another account's session is untouched");
    assert.deepEqual(await redis.smembers(`${prefix}:account-sessions:${revoked}`), [
      createHash('sha256').update(after.id).digest('base64url'),
    ]);
    // Delivered again (JetStream redelivers until acknowledged): nothing more to end.
    assert.equal(await sessions.setRoleFor(revoked, 'user', changedAt, { signOut: true }), 0);
  });
});
