import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DEFAULTS = {
  databaseUrl: process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379',
  natsUrl: process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222',
};

const handedOut = new Set<number>();

/**
 * A port nobody listens on, from 20000-32767: below Linux's ephemeral range, so an outgoing connection of some
 * other process cannot take it between now and the moment our app binds it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (handedOut.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port found in 20000-32767');
}

export async function canConnect(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port), hostname, () => done(true));
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${lastError instanceof Error ? `: ${lastError.message}` : ''}`);
}

/** Fails with one message naming every real server the tests need and do not reach. */
export async function requireServers(): Promise<void> {
  const missing: string[] = [];
  if (!(await canConnect(DEFAULTS.databaseUrl))) missing.push(`PostgreSQL at ${DEFAULTS.databaseUrl} (start it: tools/dev/servers.mjs, or set TEST_DATABASE_URL)`);
  if (!(await canConnect(DEFAULTS.redisUrl))) missing.push(`Redis at ${DEFAULTS.redisUrl} (set TEST_REDIS_URL)`);
  if (!natsServerBinary() && !(await canConnect(DEFAULTS.natsUrl))) missing.push(`NATS: neither a nats-server binary nor a server at ${DEFAULTS.natsUrl}`);
  if (missing.length > 0) throw new Error(`The tests need real servers that are not there:\n - ${missing.join('\n - ')}\nRun \`node tools/dev/servers.mjs\` to start them.`);
}

export function natsServerBinary(): string | null {
  for (const candidate of [process.env['NATS_SERVER_BIN'], '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('which', ['nats-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * A NATS server with JetStream of the test's own, on a free port with its own store: tests never see another
 * run's streams, and can stop and restart it to prove nothing is lost.
 */
export class PrivateNats {
  private process: ChildProcess | null = null;
  readonly storeDir = mkdtempSync(join(tmpdir(), 'digicard-nats-'));
  port = 0;

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const bin = natsServerBinary();
    if (!bin) throw new Error('nats-server is not installed (apt-get install nats-server)');
    if (this.port === 0) this.port = await freePort();
    this.process = spawn(bin, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: 'ignore' });
    await waitFor(`nats-server on ${this.port}`, () => canConnect(this.url, 200), 10_000);
    return this;
  }

  async stop(): Promise<void> {
    const child = this.process;
    this.process = null;
    await endChild(child, 'SIGTERM');
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

/**
 * A Redis server of the test's own (nothing kept on disk), on a free port: a test can stop it to see the apps ride
 * out an outage, while the machine's shared Redis serves every other test.
 */
export class PrivateRedis {
  private process: ChildProcess | null = null;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const bin = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
    if (!bin) throw new Error('redis-server is not installed (apt-get install redis-server)');
    if (this.port === 0) this.port = await freePort();
    this.process = spawn(bin, ['--bind', '127.0.0.1', '--port', String(this.port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitFor(`redis-server on ${this.port}`, () => canConnect(this.url, 200), 10_000);
    return this;
  }

  /** Kills it outright, as a crash would. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = null;
    await endChild(child, 'SIGKILL');
  }
}

/** Sends `signal` to a child process that is still running and waits until it has exited. */
async function endChild(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
