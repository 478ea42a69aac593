import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, connect } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Queue } from 'bullmq';
import {
  EnqueueInTransactionError,
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
});
