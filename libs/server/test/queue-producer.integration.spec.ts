import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, connect } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createLogger } from '@digicard/config';
import { createDatabase } from '@digicard/db';
import type { ServiceContext } from '../src/context.js';
import { HealthRegistry } from '../src/health.js';
import {
  EnqueueInTransactionError,
  openQueueProducer,
  QueueProducer,
  QueueUnavailableError,
  insideTransaction,
  producerRedis,
} from '../src/queue-producer.js';

// The one queue producer, against a Redis of this file's own: it adds while Redis answers, fails within its time-out
// while Redis is away (nothing waits for Redis to come back), adds again once it is back, and refuses to be called
// inside a database transaction.

/** A redis-server of this file's own (libs/server sits beneath libs/testing, so not its PrivateRedis). */
class OwnRedis {
  private child: ChildProcess | null = null;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.port = (server.address() as { port: number }).port;
      await new Promise((resolve) => server.close(resolve));
    }
    this.child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(this.port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let tries = 0; ; tries++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = connect(this.port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (up) return;
      if (tries > 100) throw new Error('redis-server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
  }
}

describe('QueueProducer', () => {
  const redis = new OwnRedis();
  const prefix = `producer-${randomBytes(4).toString('hex')}`;
  let producer: QueueProducer<{ n: number }>;
  let connection: ReturnType<typeof producerRedis>;

  beforeAll(async () => {
    await redis.start();
    connection = producerRedis(redis.url);
    producer = new QueueProducer(new Queue('unit', { connection, prefix }), 500);
  });
  afterAll(async () => {
    await producer.queue.close();
    connection.disconnect();
    await redis.kill();
  });

  it('adds a job once per id', async () => {
    await producer.add('job', { n: 1 }, { jobId: 'one' });
    await producer.add('job', { n: 2 }, { jobId: 'one' });
    const job = await producer.queue.getJob('one');
    assert.deepEqual(job?.data, { n: 1 });
    assert.equal(await producer.queue.count(), 1);
  });

  it('refuses inside a database transaction, and queues nothing', async () => {
    await assert.rejects(
      insideTransaction('a test', () => producer.add('job', { n: 3 }, { jobId: 'in-tx' })),
      (error: unknown) => error instanceof EnqueueInTransactionError && /inside a database transaction \(a test\)/.test(error.message),
    );
    assert.equal(await producer.queue.getJob('in-tx'), undefined);
    // Outside it (after the commit) the same add goes through.
    await insideTransaction('a test', () => Promise.resolve());
    await producer.add('job', { n: 3 }, { jobId: 'in-tx' });
    assert.ok(await producer.queue.getJob('in-tx'));
  });

  it('refuses inside any transaction of the database, a lock held, and queues once it has committed', async () => {
    const pool = new pg.Pool({
      connectionString: process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      max: 1,
    });
    try {
      const db = createDatabase(pool, { attempts: 1 });
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${prefix}, 0))`);
          await producer.add('job', { n: 5 }, { jobId: 'in-db-tx' });
        }),
        (error: unknown) => error instanceof EnqueueInTransactionError && /\(a database transaction\)/.test(error.message),
      );
      assert.equal(await producer.queue.getJob('in-db-tx'), undefined);
      await db.transaction(async (tx) => void (await tx.execute(sql`SELECT 1`)));
      await producer.add('job', { n: 5 }, { jobId: 'in-db-tx' });
      assert.ok(await producer.queue.getJob('in-db-tx'));
    } finally {
      await pool.end();
    }
  });

  it('fails within its time-out while Redis is away, and adds again once it is back', async () => {
    await redis.kill();
    const started = Date.now();
    await assert.rejects(producer.add('job', { n: 4 }, { jobId: 'outage' }), QueueUnavailableError);
    assert.ok(Date.now() - started < 1500, `gave up after ${Date.now() - started} ms`);
    await redis.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await producer.add('job', { n: 4 }, { jobId: 'outage' });
    assert.deepEqual((await producer.queue.getJob('outage'))?.data, { n: 4 });
  }, 30_000);

  it('reports its Redis as a readiness check, or for an optional feature as an alert only', async () => {
    const contextWith = (health: HealthRegistry) =>
      ({
        config: { REDIS_URL: redis.url },
        logger: createLogger('test', 'silent'),
        health,
        onShutdown: (close: () => Promise<void>) => closers.push(close),
      }) as unknown as ServiceContext<{ REDIS_URL: string }>;
    const closers: Array<() => Promise<void>> = [];
    const readiness = new HealthRegistry('orders');
    const alerting = new HealthRegistry('profiles');
    openQueueProducer(contextWith(readiness), 'ready-queue', { prefix, timeoutMs: 500 });
    openQueueProducer(contextWith(alerting), 'optional-queue', { prefix, timeoutMs: 500, redisHealth: 'alert' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await readiness.report()).checks['redis']?.status, 'up');
      assert.equal((await alerting.report()).checks['redis'], undefined);
      await redis.kill();
      const down = await readiness.report();
      assert.equal(down.checks['redis']?.status, 'down');
      assert.notEqual(down.status, 'ok');
      const alerted = await alerting.report();
      assert.equal(alerted.status, 'ok', 'an optional feature’s Redis does not make the replica unready');
      assert.match(alerted.alerts?.join('\n') ?? '', /^redis \(optional-queue queue\): Redis does not answer/);
    } finally {
      await redis.start();
      // The connections find Redis again before they are closed (as the test above waits for).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (const close of closers) await close();
    }
  }, 30_000);
});
