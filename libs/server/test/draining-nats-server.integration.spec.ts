import 'reflect-metadata';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, ServerNats } from '@nestjs/microservices';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DrainingNatsServer } from '../src/draining-nats-server.js';

// A service process that stops while requests are on their way to it or in its handlers still answers each of them,
// and the other members of its queue group take what comes after (the rolling restart of the production layout lost
// one request in 489 to Nest's own close). Against a NATS server of this file's own, as every test's (the machine's
// is npm start's; this file used it, and failed when it was down). Started here, not with @digicard/testing's
// PrivateNats: a type:server library may not depend on a testing one.

const NATS_BIN = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
let natsServer: ChildProcess | null = null;
let NATS_URL = '';

async function startNats(): Promise<string> {
  if (!NATS_BIN) throw new Error('nats-server is not installed: apt-get install nats-server');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  natsServer = spawn(NATS_BIN, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const url = `nats://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    const nc = await connect({ servers: [url], reconnect: false }).catch((error: unknown) => {
      if (tries >= 100) throw error;
      return null;
    });
    if (nc) {
      await nc.close();
      return url;
    }
    await sleep(50);
  }
}
const run = randomBytes(4).toString('hex');
const SUBJECT = `test.drain.${run}.slow`;
const HANDLER_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Controller()
class SlowController {
  @MessagePattern(SUBJECT)
  async slow(@Payload() body: { n: number }): Promise<{ n: number }> {
    await sleep(HANDLER_MS);
    return { n: body.n };
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

const opened: INestMicroservice[] = [];
const clients: NatsConnection[] = [];

async function instance(strategy: ServerNats): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(SlowModule, { strategy, logger: false });
  await app.listen();
  opened.push(app);
  return app;
}

const options = () => ({ servers: [NATS_URL], queue: `drain-${run}`, name: `drain-test-${run}` });

/** Sends `n` as Nest's client would ({ pattern, data, id }) and returns the answer's `n`, or the error's name. */
async function ask(nc: NatsConnection, n: number): Promise<number | string> {
  try {
    const reply = await nc.request(SUBJECT, JSON.stringify({ pattern: SUBJECT, data: { n }, id: `${run}-${n}` }), { timeout: 3000 });
    const body = reply.json<{ response?: { n: number }; err?: unknown }>();
    return body.response?.n ?? `error ${JSON.stringify(body.err)}`;
  } catch (error) {
    return (error as Error).name;
  }
}

beforeAll(async () => {
  NATS_URL = await startNats();
});

afterAll(async () => {
  for (const app of opened) await app.close().catch(() => undefined);
  for (const nc of clients) await nc.close().catch(() => undefined);
  natsServer?.kill('SIGTERM');
});

describe('a service that stops answers what was sent to it', () => {
  it('a request in its handler when it stops gets its answer; requests sent meanwhile go to the other instance', async () => {
    const nc = await connect({ servers: [NATS_URL] });
    clients.push(nc);
    const leaving = await instance(new DrainingNatsServer(options()));
    // Only the leaving instance answers the first requests.
    const first = [1, 2, 3].map((n) => ask(nc, n));
    await sleep(100);
    const staying = await instance(new DrainingNatsServer(options()));
    const closing = leaving.close();
    // While it drains, more requests: the staying instance takes them.
    const later = [4, 5, 6, 7].map((n) => ask(nc, n));
    await closing;
    assert.deepEqual(await Promise.all([...first, ...later]), [1, 2, 3, 4, 5, 6, 7]);
    await staying.close();
  });

  it('the check can fail: Nest’s own close loses the request in the handler', async () => {
    const nc = await connect({ servers: [NATS_URL] });
    clients.push(nc);
    const plain = await instance(new ServerNats(options()));
    const answer = ask(nc, 8);
    await sleep(100);
    await plain.close();
    assert.notEqual(await answer, 8);
  });

  it('a stop with nothing in flight is quick, and a handler that does not end is waited for at most the grace period', async () => {
    const idle = await instance(new DrainingNatsServer(options(), 100));
    let t0 = Date.now();
    await idle.close();
    assert.ok(Date.now() - t0 < HANDLER_MS, `an idle close took ${Date.now() - t0} ms`);

    const nc = await connect({ servers: [NATS_URL] });
    clients.push(nc);
    const busy = await instance(new DrainingNatsServer(options(), 100));
    const answer = ask(nc, 9);
    await sleep(50);
    t0 = Date.now();
    await busy.close();
    assert.ok(Date.now() - t0 < HANDLER_MS - 50, `a close with a ${HANDLER_MS} ms handler and a 100 ms grace took ${Date.now() - t0} ms`);
    await answer;
  });
});
