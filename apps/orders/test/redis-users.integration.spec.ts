import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueName, RedisKeyFamilies, RedisUsers, redisAclFile, redisRightsTable, type RedisUser } from '@digicard/contracts';
import { PrivateRedis } from '@digicard/testing';

/**
 * Orders, notifications and the gateway share one Redis, each as its own ACL user (libs/contracts redis-users.ts):
 * against a real redis-server started with the generated users, code running in orders cannot make a session.
 */
describe('each app is its own Redis user, limited to its own keys', () => {
  const passwords = Object.fromEntries(RedisUsers.map((u) => [u, randomBytes(12).toString('hex')])) as Record<RedisUser, string>;
  const redis = new PrivateRedis({ acl: redisAclFile({ prefix: 'digicard', passwords }) });
  const opened: Redis[] = [];
  const as = (user: RedisUser, options: { maxRetriesPerRequest?: number | null } = {}) => {
    const connection = new Redis({
      host: redis.host,
      port: redis.port,
      username: user,
      password: passwords[user],
      maxRetriesPerRequest: 1,
      ...options,
    });
    opened.push(connection);
    return connection;
  };

  beforeAll(async () => {
    await redis.start();
  });
  afterAll(async () => {
    for (const c of opened) c.disconnect();
    await redis.kill();
  });

  it('refuses orders a session key, another app queue, and admin commands', async () => {
    const orders = as('orders');
    await assert.rejects(orders.set('digicard:session:abc', '{"role":"staff"}'), /NOPERM/);
    await assert.rejects(orders.get('digicard:account-sessions:x'), /NOPERM/);
    await assert.rejects(orders.set(`digicard:${QueueName.Email}:1`, 'x'), /NOPERM/);
    await assert.rejects(orders.keys('*'), /NOPERM/);
    await assert.rejects(orders.flushall(), /NOPERM/);
    await assert.rejects(orders.call('CONFIG', 'SET', 'aclfile', '/tmp/x'), /NOPERM/);
    // The gateway writes sessions; notifications cannot.
    assert.equal(await as('gateway').set('digicard:session:abc', 'v1.x'), 'OK');
    await assert.rejects(as('notifications').del('digicard:session:abc'), /NOPERM/);
    await assert.rejects(as('gateway').set(`digicard:${QueueName.ProofRender}:1`, 'x'), /NOPERM/);
    // Profiles (Apple Wallet's pushes) writes its own queue only.
    assert.equal(await as('profiles').set(`digicard:${QueueName.ApplePassPush}:1`, 'x'), 'OK');
    await assert.rejects(as('profiles').get('digicard:session:abc'), /NOPERM/);
    await assert.rejects(as('profiles').set(`digicard:${QueueName.Email}:1`, 'x'), /NOPERM/);
  });

  it('refuses a connection without a user, and with a wrong password', async () => {
    /** What the server answers one inline command on a fresh connection. */
    const answer = (command: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = createConnection(redis.port, redis.host, () => socket.write(`${command}\r\n`));
        socket.once('data', (data) => {
          socket.destroy();
          resolve(data.toString());
        });
        socket.once('error', reject);
      });
    assert.match(await answer('GET digicard:session:abc'), /^-NOAUTH/);
    assert.match(await answer('AUTH orders wrong-password'), /^-WRONGPASS/);
    assert.match(await answer(`AUTH orders ${passwords.orders}`), /^\+OK/);
  });

  it("runs orders' own queue under its user: BullMQ adds and works a job", async () => {
    const queue = new Queue(QueueName.ProofRender, { connection: as('orders'), prefix: 'digicard' });
    const done: string[] = [];
    const worker = new Worker(
      QueueName.ProofRender,
      (job) => {
        done.push(String(job.id));
        return Promise.resolve();
      },
      { connection: as('orders', { maxRetriesPerRequest: null }), prefix: 'digicard' },
    );
    await queue.add('render', { orderId: 'o1' }, { jobId: 'o1' });
    for (let i = 0; i < 100 && done.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(done, ['o1']);
    await worker.close();
    await queue.close();
  });

  it("lists every key family each app's sources write: a new one is added to RedisKeyFamilies, or the app is refused it", () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const sourcesOf = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? sourcesOf(path) : name.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
      });
    const gateway = new Set<string>();
    for (const text of sourcesOf(join(root, 'apps/gateway/src')))
      for (const m of text.matchAll(/REDIS_KEY_PREFIX\}:([\w-]+)/g)) gateway.add(m[1]!);
    assert.ok(gateway.has('session'));
    for (const family of gateway)
      assert.ok(RedisKeyFamilies.gateway.includes(family), `the gateway writes ${family}: add it to RedisKeyFamilies`);
    for (const app of ['orders', 'notifications', 'profiles'] as const) {
      const queues = new Set<string>();
      for (const text of sourcesOf(join(root, 'apps', app, 'src')))
        for (const m of text.matchAll(/QueueName\.(\w+)/g)) queues.add((QueueName as Record<string, string>)[m[1]!]!);
      for (const queue of queues)
        assert.ok(RedisKeyFamilies[app].includes(queue), `${app} uses the queue ${queue}: add it to RedisKeyFamilies`);
    }
  });

  it('is what docs/security.md says each Redis user may do, and what compose and Kubernetes load', () => {
    for (const file of ['redis/users.acl', 'k8s/base/redis-users.acl']) {
      assert.equal(
        readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8'),
        redisAclFile(),
        `${file} is out of date: run node tools/dev/redis-config.mjs`,
      );
    }
    const doc = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    assert.equal(/<!-- redis-rights:start -->\n([\s\S]*?)\n<!-- redis-rights:end -->/.exec(doc)?.[1], redisRightsTable());
  });
});
