import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StartedTestContainer } from 'testcontainers';

export const DEFAULTS = {
  databaseUrl: process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379',
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
    if (free && claimPort(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port found in 20000-32767');
}

/** Where the test processes of this machine mark the ports they handed out (one empty file per port). */
const PORT_CLAIMS = join(tmpdir(), 'digicard-test-ports');
/** A claim older than this is left over from a run that ended: the longest test file takes a few minutes. */
const PORT_CLAIM_MS = 15 * 60 * 1000;

/**
 * Claims a port for this process among every test process on the machine: a port free now is not bound until the
 * app that gets it listens, seconds later, and Jest runs several files at once in several processes (two of them once
 * handed the same port to two gateways, and one failed with EADDRINUSE). Creating the port's file is the claim
 * (exclusive: only one process can create it); a claim left over from an ended run is taken over.
 */
function claimPort(port: number): boolean {
  mkdirSync(PORT_CLAIMS, { recursive: true });
  const path = join(PORT_CLAIMS, String(port));
  try {
    closeSync(openSync(path, 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    if (Date.now() - statSync(path).mtimeMs < PORT_CLAIM_MS) return false;
    const now = new Date();
    utimesSync(path, now, now);
    return true;
  } catch {
    return false;
  }
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

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
  everyMs = 100,
): Promise<T> {
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

/**
 * Waits, when needed, until a fixed rate-limit window of `windowSeconds` (the gateway's `hit`: windows counted from
 * the epoch) has at least `needSeconds` left, so that the requests a limit test sends next all fall in one window.
 * Sent across a boundary, the count starts again and the expected 429 does not come (seen on loaded machines).
 */
export async function withinOneWindow(windowSeconds: number, needSeconds = 20): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const leftMs = windowMs - (Date.now() % windowMs);
  if (leftMs < Math.min(needSeconds * 1000, windowMs / 2)) await new Promise((r) => setTimeout(r, leftMs + 50));
}

/**
 * Fails with one message naming every shared server the tests need and do not reach. (NATS is not shared: each
 * test file starts its own, see PrivateNats.) `npm test` finds or starts them and sets these variables.
 */
export async function requireServers(): Promise<void> {
  const missing: string[] = [];
  if (!(await canConnect(DEFAULTS.databaseUrl))) missing.push(`PostgreSQL at ${DEFAULTS.databaseUrl} (set TEST_DATABASE_URL)`);
  if (!(await canConnect(DEFAULTS.redisUrl))) missing.push(`Redis at ${DEFAULTS.redisUrl} (set TEST_REDIS_URL)`);
  if (missing.length > 0)
    throw new Error(
      `The tests need real servers that are not there:\n - ${missing.join('\n - ')}\nnpm test finds or starts them for its own run; to run one project's tests alone, start them or set those variables.`,
    );
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
 * run's streams, and can stop and restart it to prove nothing is lost. From the nats-server program, or where it is
 * not installed, in a container (stopped and started again as it is, so its store survives).
 */
export class PrivateNats {
  private process: ChildProcess | null = null;
  private container: StartedTestContainer | null = null;
  readonly storeDir = mkdtempSync(join(tmpdir(), 'digicard-nats-'));
  host = '127.0.0.1';
  port = 0;

  /** `config`: nats-server configuration text (for example the generated per-app users), used at every start. */
  constructor(private readonly config: string | null = null) {}

  get url(): string {
    return `nats://${this.host}:${this.port}`;
  }

  /** The URL as a given user of the configuration connects. */
  urlFor(user: string, password: string): string {
    return `nats://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${this.host}:${this.port}`;
  }

  async start(): Promise<this> {
    if (this.port === 0) this.port = await freePort();
    const bin = natsServerBinary();
    if (bin) {
      const configFile = join(this.storeDir, 'nats.conf');
      if (this.config) writeFileSync(configFile, this.config);
      this.process = spawn(
        bin,
        ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir, ...(this.config ? ['-c', configFile] : [])],
        { stdio: 'ignore' },
      );
    } else if (this.container) {
      await containerAction(this.container, 'start');
    } else {
      this.container = await startInContainer('nats-server', 'nats:2.10-alpine', ['-js'], 4222, this.port);
      this.host = containerHost(this.container);
    }
    await waitFor(`nats-server on ${this.port}`, () => canConnect(this.url, 200), 10_000);
    return this;
  }

  async stop(): Promise<void> {
    if (this.container) return containerAction(this.container, 'stop');
    const child = this.process;
    this.process = null;
    await endChild(child, 'SIGTERM');
  }

  /** Kills it outright (SIGKILL), as a crash would; its store stays for the next start. */
  async kill(): Promise<void> {
    if (this.container) return containerAction(this.container, 'stop');
    const child = this.process;
    this.process = null;
    await endChild(child, 'SIGKILL');
  }

  /** Lets the test's process exit while the server runs (a shared system's watchdog then kills it). */
  unref(): void {
    this.process?.unref();
  }

  /** The server's process id while it runs from the nats-server program, or null. */
  get pid(): number | null {
    return this.process?.pid ?? null;
  }

  async destroy(): Promise<void> {
    await this.stop();
    await this.container?.stop();
    this.container = null;
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

/**
 * A Redis server of the test's own (nothing kept on disk), on a free port: a test can stop it to see the apps ride
 * out an outage, while the machine's shared Redis serves every other test. From the redis-server program, or where
 * it is not installed, in a container.
 */
export class PrivateRedis {
  private process: ChildProcess | null = null;
  private container: StartedTestContainer | null = null;
  host = '127.0.0.1';
  port = 0;
  private readonly dataDir: string | null;

  private readonly aclFile: string | null;

  /**
   * `appendOnly`: keep every write in an AOF file, as production does, so a killed server comes back with its queues.
   * `acl`: the text of an ACL file (users and their rights) the server starts with.
   */
  constructor(options: { appendOnly?: boolean; acl?: string } = {}) {
    this.dataDir = options.appendOnly ? mkdtempSync(join(tmpdir(), 'digicard-redis-')) : null;
    if (options.acl) {
      this.aclFile = join(mkdtempSync(join(tmpdir(), 'digicard-redis-acl-')), 'users.acl');
      writeFileSync(this.aclFile, options.acl);
    } else this.aclFile = null;
  }

  get url(): string {
    return `redis://${this.host}:${this.port}`;
  }

  async start(): Promise<this> {
    if (this.port === 0) this.port = await freePort();
    const nothingOnDisk = [
      ...(this.dataDir
        ? ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.dataDir]
        : ['--save', '', '--appendonly', 'no']),
      ...(this.aclFile ? ['--aclfile', this.aclFile] : []),
    ];
    const bin = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
    if (bin) {
      this.process = spawn(bin, ['--bind', '127.0.0.1', '--port', String(this.port), ...nothingOnDisk], { stdio: 'ignore' });
    } else {
      this.container = await startInContainer('redis-server', 'redis:7-alpine', ['redis-server', ...nothingOnDisk], 6379, this.port);
      this.host = containerHost(this.container);
    }
    await waitFor(`redis-server on ${this.port}`, () => canConnect(this.url, 200), 10_000);
    return this;
  }

  /** Kills it outright, as a crash would. */
  async kill(): Promise<void> {
    const container = this.container;
    this.container = null;
    await container?.stop({ timeout: 0 });
    const child = this.process;
    this.process = null;
    await endChild(child, 'SIGKILL');
  }
}

/**
 * A PostgreSQL cluster of the test's own (`initdb` + `pg_ctl` from the machine's PostgreSQL), on a free port with
 * trust authentication: a test can terminate the apps' connections, restart it or kill it outright, while the
 * machine's shared PostgreSQL serves every other test. As root, the programs run as the `postgres` user.
 */
export class PrivatePostgres {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'digicard-pg-'));
  readonly host = '127.0.0.1';
  port = 0;
  private readonly bin = postgresBinDir();
  private readonly user = process.getuid?.() === 0 ? systemUser('postgres') : null;

  /** The admin URL (database `postgres`, superuser `postgres`). */
  get url(): string {
    return `postgres://postgres@${this.host}:${this.port}/postgres`;
  }

  async start(): Promise<this> {
    if (this.port === 0) {
      this.port = await freePort();
      if (this.user) chownSync(this.dataDir, this.user.uid, this.user.gid);
      this.run('initdb', ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    }
    const options = `-p ${this.port} -k ${this.dataDir} -c listen_addresses=${this.host} -c fsync=off -c max_connections=200`;
    this.run('pg_ctl', ['-D', this.dataDir, '-o', options, '-l', join(this.dataDir, 'server.log'), '-w', '-t', '30', 'start']);
    await waitFor(`postgres on ${this.port}`, () => canConnect(this.url, 200), 10_000);
    return this;
  }

  /** Stops it: `fast` rolls back open transactions and closes connections, `immediate` is a crash. */
  stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    this.run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
    return Promise.resolve();
  }

  /** Restarts it as a failover or an upgrade would: every connection is cut. */
  async restart(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.stop(mode);
    await this.start();
  }

  destroy(): Promise<void> {
    try {
      this.run('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      /* not running */
    }
    rmSync(this.dataDir, { recursive: true, force: true });
    return Promise.resolve();
  }

  private run(program: string, args: string[]): void {
    execFileSync(join(this.bin, program), args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: tmpdir(),
      ...(this.user ? { uid: this.user.uid, gid: this.user.gid } : {}),
    });
  }
}

function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (!found)
    throw new Error('PostgreSQL server programs are not installed (apt-get install postgresql): no initdb under /usr/lib/postgresql');
  return found;
}

function systemUser(name: string): { uid: number; gid: number } {
  const [uid, gid] = [execFileSync('id', ['-u', name], { encoding: 'utf8' }), execFileSync('id', ['-g', name], { encoding: 'utf8' })].map(
    (v) => Number(v.trim()),
  );
  return { uid: uid!, gid: gid! };
}

/**
 * The server a test needs in a container (Docker, through testcontainers) where its program is not installed,
 * published on the host port chosen for it so that a restart keeps its address. Containers a test leaves behind are
 * removed by testcontainers' reaper (Ryuk) when the test process ends.
 */
async function startInContainer(
  program: string,
  image: string,
  command: string[],
  containerPort: number,
  hostPort: number,
): Promise<StartedTestContainer> {
  const { GenericContainer } = await import('testcontainers');
  try {
    return await new GenericContainer(image).withCommand(command).withExposedPorts({ container: containerPort, host: hostPort }).start();
  } catch (error) {
    throw new Error(
      `${program} is not installed (apt-get install ${program}), and ${image} could not run in a container either: ${(error as Error).message}`,
    );
  }
}

/** Stops or starts a container without removing it: what was written inside stays. */
async function containerAction(container: StartedTestContainer, action: 'stop' | 'start'): Promise<void> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  const client = await getContainerRuntimeClient();
  const handle = client.container.getById(container.getId());
  await (action === 'stop' ? client.container.stop(handle, { timeout: 10_000 }) : client.container.start(handle));
}

/** testcontainers says "localhost" for a local engine, which Node may try as ::1 first; Docker publishes on IPv4. */
function containerHost(container: StartedTestContainer): string {
  const host = container.getHost();
  return host === 'localhost' ? '127.0.0.1' : host;
}

/** Sends `signal` to a child process that is still running and waits until it has exited. */
async function endChild(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
