import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { BusUsers, STREAM_PROVISIONER, natsAuthorizationConfig, type BusUser, type ServiceName } from '@digicard/contracts';
// The roles only (`@digicard/db/roles`): the package's index brings drizzle, which a whole-system test does not use
// (about half a CPU-second of imports in every test file that imports this library).
import { SERVICE_SCHEMAS, ensureServiceRoles, serviceDatabaseUrl, type ServiceSchema } from '@digicard/db/roles';
import { DEFAULTS, PrivateNats, freePort, requireServers, waitFor } from './infra.js';
import { ApiClient } from './client.js';
import { MailClient } from './mail.js';
import { testLogDestination } from './test-log.js';

/** How long an app of a TestSystem waits for another's answer over NATS (see `envFor`). */
export const TEST_CALL_TIMEOUT_MS = 15_000;

export type AppName = 'gateway' | 'mail-catcher' | 'payfast-simulator' | ServiceName;

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * What every app process a test starts gets besides its own configuration: PATH, and Node's on-disk compile cache
 * (V8 code cache) shared by every app start of the run, so that each app's bundle is compiled once, not at every start
 * (the gateway's start: about 1.0 CPU-second of import without it, 0.6 with it; docs/benchmarks.md).
 */
export function appProcessEnv(): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    NODE_COMPILE_CACHE: process.env['NODE_COMPILE_CACHE'] ?? join(REPO_ROOT, 'node_modules', '.cache', 'node-compile-cache'),
  };
}

/** Where each app's built entry point is, relative to the repository root. */
export const APP_ENTRY: Record<AppName, string> = {
  gateway: 'apps/gateway/dist/src/main.js',
  'mail-catcher': 'tools/mail-catcher/dist/src/main.js',
  'payfast-simulator': 'tools/payfast-simulator/dist/src/main.js',
  identity: 'apps/identity/dist/src/main.js',
  profiles: 'apps/profiles/dist/src/main.js',
  teams: 'apps/teams/dist/src/main.js',
  orders: 'apps/orders/dist/src/main.js',
  payments: 'apps/payments/dist/src/main.js',
  notifications: 'apps/notifications/dist/src/main.js',
};

/** The stream provisioner's entry point (`nats-streams`), relative to the repository root. */
export const STREAMS_ENTRY = 'libs/messaging/dist/src/streams-main.js';

/**
 * How long an app may take to answer its readiness check: 90 s, or `DIGICARD_APP_READY_MS`. A start is a few
 * CPU-seconds, but `npm test` runs the system and browser lanes side by side (nine systems and three Chromiums at the
 * peak, a load average of about 30 on 2 cores), and on 2026-11-28 (a machine of our kind with an Intel Xeon, where
 * every lane used about twice the CPU-seconds of the 2026-11-26 runs on an AMD EPYC) identity, orders and profiles took
 * over 30 s to answer: 53 gateway tests failed on that wait alone. A start that does not come at all still fails.
 */
const APP_READY_MS = Number(process.env['DIGICARD_APP_READY_MS'] ?? 90_000);

export const SALES_INBOX = 'sales@digicard.test';

/** PayFast's public sandbox merchant, which the simulator knows too; the passphrase is the tests' own. */
export const PAYFAST_TEST_MERCHANT = { id: '10000100', key: '46f0cd694581a', passphrase: 'digicard-test-passphrase' };

export interface SystemOptions {
  apps: AppName[];
  env?: Partial<Record<AppName, Record<string, string>>>;
  /** The admin URL of the PostgreSQL server the system's database lives on (a `PrivatePostgres` a test may restart); the shared one otherwise. */
  postgresUrl?: string;
  /** An existing database to run the apps on (a restored backup): neither created at start nor dropped at stop. */
  database?: string;
}

interface RunningApp {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** What makes a system itself, kept between the files of a Jest worker when it is shared (`TestSystem.shared`). */
interface SystemCore {
  runId: string;
  sessionSecret: string;
  ssoSecretKey: string;
  natsPasswords: Record<BusUser, string>;
  provisionerPassword: string;
  nats: PrivateNats;
  ports: Map<string, number>;
  running: Map<AppName, RunningApp>;
  /** The apps' output goes to `sink.lines`; a shared system gives each file a new array. */
  sink: { lines: Array<{ app: AppName; line: string }> };
  /** The settings of its own each running app was started with (JSON): a shared system restarts an app whose differ. */
  settings: Partial<Record<AppName, string>>;
  /** A shared system's clean-up process (system-watchdog.ts), told the process ids to end when the worker is gone. */
  watchdog: ChildProcess | null;
}

function newCore(): SystemCore {
  const natsPasswords = Object.fromEntries(BusUsers.map((u) => [u, randomBytes(12).toString('hex')])) as Record<BusUser, string>;
  const provisionerPassword = randomBytes(12).toString('hex');
  return {
    runId: randomBytes(4).toString('hex'),
    sessionSecret: randomBytes(32).toString('base64url'),
    ssoSecretKey: randomBytes(32).toString('base64'),
    natsPasswords,
    provisionerPassword,
    nats: new PrivateNats(
      natsAuthorizationConfig({
        passwords: { ...natsPasswords, [STREAM_PROVISIONER]: provisionerPassword },
        admin: { password: randomBytes(12).toString('hex'), noAuthAdmin: true },
      }),
    ),
    ports: new Map(),
    running: new Map(),
    sink: { lines: [] },
    settings: {},
    watchdog: null,
  };
}

/**
 * Where a Jest worker keeps its shared system between files (`globalThis.__digicardSharedSystem`, offered by
 * tools/dev/jest-environment.cjs).
 */
interface SharedSystemSlot {
  core: SystemCore | null;
  /** Whether a file has it now (from `shared` to its `stop()`). */
  lent: boolean;
}

/** Every app, as a shared system runs them. */
export const ALL_APPS: readonly AppName[] = ['mail-catcher', 'payfast-simulator', ...SERVICE_SCHEMAS, 'gateway'];

/** The schema a shared system's database keeps the seeded rows in (what the migrations wrote), to restore them. */
const SEED_SCHEMA = 'digicard_seed';
/** How long a shared system waits for the previous file's work (events, jobs) to settle before it starts afresh. */
const SETTLE_MS = 20_000;
/**
 * How long the only work left may be messages delivered and not acknowledged (none waiting to go out, no outbox row,
 * no job) before the settle takes them for what they are: events a consumer failed on and will get again after its
 * back-off, which can be longer than SETTLE_MS (role-sync.e2e leaves an event no handler can apply, on purpose, that
 * goes to the dead-letter stream after its attempts). Their streams are purged, as a new system's are empty.
 */
const REDELIVERY_WAIT_MS = 3_000;

/**
 * The real system for a test file: its own PostgreSQL database, its own NATS server with JetStream, its own Redis key
 * prefix and mail catcher, and the apps it asks for as real processes built from this tree. `start` makes one for the
 * file; `shared` hands it the Jest worker's, reset as a new one would be.
 */
export class TestSystem {
  readonly runId: string;
  /** The gateway's key for session records (SESSION_SECRET). */
  readonly sessionSecret: string;
  /** The gateway's key for teams' company sign-in client secrets (SSO_SECRET_KEY): company sign-in is on. */
  readonly ssoSecretKey: string;
  /** Each app's password on the bus: the system's NATS server knows one user per app, with the contracts' permissions. */
  readonly natsPasswords: Record<BusUser, string>;
  /** The stream provisioner's password (`nats-streams`, the only user that may declare streams). */
  readonly provisionerPassword: string;
  /** Tests connect without credentials as `admin` (every right); the apps as their own users. */
  readonly nats: PrivateNats;
  get databaseName(): string {
    return this.options.database ?? `digicard_t_${this.runId}`;
  }
  get redisPrefix(): string {
    return `t-${this.runId}`;
  }
  /** What the apps printed (of this file only, on a shared system). */
  get logs(): Array<{ app: AppName; line: string }> {
    return this.core.sink.lines;
  }
  private readonly ports: Map<string, number>;
  private readonly running: Map<AppName, RunningApp>;
  private readonly core: SystemCore;
  private pool: pg.Pool | null = null;
  /** Set on the system a file got from `TestSystem.shared`: its `stop()` hands it back instead of stopping it. */
  private sharedBy: SharedSystemSlot | null = null;
  readonly mail: MailClient;

  private constructor(
    private readonly options: SystemOptions,
    core?: SystemCore,
  ) {
    this.core = core ?? newCore();
    ({ runId: this.runId, sessionSecret: this.sessionSecret, ssoSecretKey: this.ssoSecretKey } = this.core);
    ({ natsPasswords: this.natsPasswords, provisionerPassword: this.provisionerPassword, nats: this.nats } = this.core);
    ({ ports: this.ports, running: this.running } = this.core);
    this.mail = new MailClient(() => `http://127.0.0.1:${this.port('mail-http')}`);
  }

  static async start(options: SystemOptions): Promise<TestSystem> {
    await requireServers();
    // A worker's shared system that no file has now is stopped first: a worker runs one system at a time, as before
    // there were shared ones (each holds a dozen PostgreSQL connections or more; the server has a hundred).
    const slot = (globalThis as { __digicardSharedSystem?: SharedSystemSlot }).__digicardSharedSystem;
    if (slot?.core && !slot.lent) {
      const idle = new TestSystem({ apps: [...ALL_APPS] }, slot.core);
      slot.core = null;
      await idle.stop();
    }
    const system = new TestSystem(options);
    for (const key of ['gateway', 'gateway-health', 'mail-http', 'mail-smtp', 'payfast', ...SERVICE_SCHEMAS]) {
      system.ports.set(key, await freePort());
    }
    await system.nats.start();
    const database = async () => {
      const admin = new pg.Client({ connectionString: system.postgresUrl });
      await admin.connect();
      if (!options.database) await admin.query(`CREATE DATABASE "${system.databaseName}"`);
      await admin.end();
      // Each service connects as its own role, with rights on its own schema only (as in compose and Kubernetes).
      await ensureServiceRoles(system.databaseUrl);
    };
    // Every stream, declared by the one-shot stream provisioner before the apps start (as compose and Kubernetes do),
    // while the database is made.
    await Promise.all([system.provisionStreams(), database()]);
    try {
      // The apps start side by side: none waits for another to be ready (their streams exist; the gateway answers 503
      // until a service answers), and a start is mostly waiting on its imports, its database and NATS, so on 2 cores
      // the whole system is ready in about half the time of one after another.
      const started = await Promise.allSettled(options.apps.map((app) => system.startApp(app)));
      const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
    } catch (error) {
      // The test file never gets the system to stop in its afterAll: stop what did start, or its processes outlive
      // the run (and their database connections show in every other file's pg_stat_activity).
      await system.stop().catch(() => undefined);
      throw error;
    }
    return system;
  }

  /**
   * The Jest worker's system of every app (ALL_APPS), started by its first file that asks and handed to each next one
   * as a new system would be: the previous file's events and jobs settled, every table of the services emptied and the
   * seeded rows (the catalogue: what the migrations wrote) put back, sequences as after the migrations, the Redis
   * keys of the system but BullMQ's deleted, no mail in the catcher, the simulator reset, a new gateway process (its
   * caches and rate limits start empty) and no app output from before. It saves a file the start of its own apps
   * (about 7.5 CPU-seconds for the nine on 2 cores). Its `stop()` hands it back; a watchdog process ends it when the
   * worker is gone (`handToWatchdog`).
   *
   * A file may stop, kill or restart apps of it (the next file gets them running, as they were). A file that needs an
   * app absent, or runs a service in its own process beside the system, uses `start`. An app may have settings of
   * the file's own (`env`, as for `start`): an app whose settings differ from what it runs with is started again with
   * them (the gateway is anyway). `apps`: what the file needs, which `start` runs when there is no worker to share
   * with (outside the shared environment, or `DIGICARD_SHARED_SYSTEM=0`). When the previous file's work does not
   * settle within 20 s, or the reset fails, the shared system is replaced by a new one.
   */
  static async shared(options: Pick<SystemOptions, 'apps' | 'env'>): Promise<TestSystem> {
    const slot = (globalThis as { __digicardSharedSystem?: SharedSystemSlot }).__digicardSharedSystem;
    if (!slot || process.env['DIGICARD_SHARED_SYSTEM'] === '0') return TestSystem.start(options);
    const everyApp: SystemOptions = { apps: [...ALL_APPS], ...(options.env ? { env: options.env } : {}) };
    if (slot.core) {
      const system = new TestSystem(everyApp, slot.core);
      const fresh = await system.resetForNextFile().then(
        () => true,
        (error: unknown) => {
          // To the file's log, printed when a test of it fails (the shared-system file makes a reset fail on purpose).
          testLogDestination.write(`the shared test system could not be reset, so a new one starts: ${(error as Error).message}\n`);
          return false;
        },
      );
      if (fresh) {
        system.sharedBy = slot;
        slot.lent = true;
        system.handToWatchdog();
        return system;
      }
      slot.core = null;
      await system.stop().catch(() => undefined);
    }
    const system = await TestSystem.start(everyApp);
    await system.snapshotSeeds();
    slot.core = system.core;
    slot.lent = true;
    system.sharedBy = slot;
    system.handToWatchdog();
    return system;
  }

  /**
   * A shared system outlives the files: its processes are left to a watchdog (system-watchdog.ts, started with the
   * system) that ends them, and drops the database and keys, when the Jest worker is gone however it ended; the worker
   * does not wait for them (unref), so it exits when its last file is done.
   */
  private handToWatchdog(): void {
    if (!this.core.watchdog) {
      const watchdog = spawn(
        process.execPath,
        [
          join(REPO_ROOT, 'libs/testing/dist/src/system-watchdog.js'),
          JSON.stringify({
            postgresUrl: this.postgresUrl,
            database: this.databaseName,
            redisUrl: DEFAULTS.redisUrl,
            redisPrefix: this.redisPrefix,
            storeDir: this.nats.storeDir,
          }),
        ],
        { detached: true, stdio: ['pipe', 'ignore', 'ignore'], cwd: REPO_ROOT, env: appProcessEnv() },
      );
      watchdog.unref();
      (watchdog.stdin as unknown as Socket).unref();
      this.core.watchdog = watchdog;
    }
    this.tellWatchdog();
  }

  /**
   * Tells a shared system's watchdog the process ids it is to end (again whenever an app starts or stops: a file may
   * restart one), and lets the worker exit without waiting for them.
   */
  private tellWatchdog(): void {
    const watchdog = this.core.watchdog;
    if (!watchdog) return;
    const pids = [...this.running.values()].map((r) => r.child.pid).concat(this.nats.pid ?? []);
    watchdog.stdin?.write(`${JSON.stringify({ pids: pids.filter((p): p is number => p !== undefined) })}\n`);
    for (const { child } of this.running.values()) {
      child.unref();
      for (const stream of [child.stdout, child.stderr]) (stream as Socket | null)?.unref();
    }
    this.nats.unref();
  }

  /** Copies the rows the migrations seeded (every non-empty table of the services but the messaging ones). */
  private async snapshotSeeds(): Promise<void> {
    await this.withAdmin(async (db) => {
      await db.query(`CREATE SCHEMA IF NOT EXISTS ${SEED_SCHEMA}`);
      for (const { schema, table } of await this.serviceTables(db)) {
        if (table === 'outbox' || table === 'processed_messages') continue;
        const { rows } = await db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM "${schema}"."${table}") AS any`);
        if (rows[0]?.any) await db.query(`CREATE TABLE ${SEED_SCHEMA}."${schema}.${table}" AS TABLE "${schema}"."${table}"`);
      }
      // CREATE TABLE AS takes no parameters: the schemas are the code's own names.
      const schemas = SERVICE_SCHEMAS.map((schema) => `'${schema}'`).join(', ');
      await db.query(
        `CREATE TABLE ${SEED_SCHEMA}.sequences AS SELECT schemaname, sequencename, last_value FROM pg_sequences WHERE schemaname IN (${schemas})`,
      );
    });
  }

  private async serviceTables(db: pg.Client): Promise<Array<{ schema: string; table: string }>> {
    const { rows } = await db.query<{ schema: string; table: string }>(
      'SELECT schemaname AS schema, tablename AS table FROM pg_tables WHERE schemaname = ANY($1) ORDER BY 1, 2',
      [[...SERVICE_SCHEMAS]],
    );
    return rows;
  }

  private async withAdmin<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
    const db = new pg.Client({ connectionString: this.databaseUrl });
    await db.connect();
    try {
      return await work(db);
    } finally {
      await db.end();
    }
  }

  /** See `shared`: waits for the previous file's work to settle, then makes the system as a new one. */
  private async resetForNextFile(): Promise<void> {
    // An app the file before stopped or killed (and did not start again) starts first, for what it owes to be done.
    const gone = ALL_APPS.filter((app) => app !== 'gateway' && !this.isRunning(app));
    for (const app of gone) await this.stopApp(app);
    await Promise.all(gone.map((app) => this.startApp(app)));
    // The gateway's own consumers take their part of the previous file's events too: it stops once they are done.
    await this.settle();
    await this.stopApp('gateway');
    await this.withAdmin(async (db) => {
      const tables = await this.serviceTables(db);
      const seeded = new Set(
        (await db.query<{ name: string }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = $1', [SEED_SCHEMA])).rows.map(
          (r) => r.name,
        ),
      );
      await db.query('BEGIN');
      await db.query(`TRUNCATE ${tables.map((t) => `"${t.schema}"."${t.table}"`).join(', ')} RESTART IDENTITY`);
      for (const { schema, table } of tables) {
        if (!seeded.has(`${schema}.${table}`)) continue;
        const { rows } = await db.query<{ name: string }>(
          "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND is_generated = 'NEVER' ORDER BY ordinal_position",
          [schema, table],
        );
        const columns = rows.map((r) => `"${r.name}"`).join(', ');
        await db.query(
          `INSERT INTO "${schema}"."${table}" (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM ${SEED_SCHEMA}."${schema}.${table}"`,
        );
      }
      await db.query(
        `SELECT setval(format('%I.%I', schemaname, sequencename), last_value) FROM ${SEED_SCHEMA}.sequences WHERE last_value IS NOT NULL`,
      );
      await db.query('COMMIT');
    });
    const redis = new Redis(DEFAULTS.redisUrl);
    try {
      const keys = await scanKeys(redis, `${this.redisPrefix}:*`);
      const queues = new Set(keys.filter((k) => k.endsWith(':meta')).map((k) => k.split(':')[1]));
      const others = keys.filter((k) => !queues.has(k.split(':')[1] ?? ''));
      for (let i = 0; i < others.length; i += 500) await redis.del(...others.slice(i, i + 500));
    } finally {
      redis.disconnect();
    }
    await this.mail.clear();
    const reset = await fetch(`${this.payfastUrl}/_sim/reset`, { method: 'POST' });
    if (!reset.ok) throw new Error(`the PayFast simulator's reset answered ${reset.status}`);
    // The services whose settings differ from the file's start again with its own (the gateway just below).
    const restarts = ALL_APPS.filter((app) => app !== 'gateway' && this.core.settings[app] !== this.settingsOf(app));
    await Promise.all(restarts.map((app) => this.stopApp(app)));
    this.core.sink.lines = [];
    await Promise.all([...restarts, 'gateway' as const].map((app) => this.startApp(app)));
    // Every app answers its readiness check, as after a start (one that does not makes the system replaced).
    for (const app of ALL_APPS) {
      const res = await fetch(this.readinessUrl(app)).catch(() => null);
      if (!res?.ok) throw new Error(`${app} is not ready after the reset (${res?.status ?? 'no answer'})`);
    }
  }

  /** The settings of the file's own an app starts with (see `shared`), as JSON. */
  private settingsOf(app: AppName, extraEnv: Record<string, string> = {}): string {
    return JSON.stringify({ ...this.options.env?.[app], ...extraEnv });
  }

  /**
   * Waits until nothing of the previous file is still on its way: every service's outbox sent, every durable
   * consumer's messages handled, no BullMQ job waiting, running or due (twice in a row, 100 ms apart).
   */
  private async settle(): Promise<void> {
    const nc = await connect({ servers: this.nats.url });
    const redis = new Redis(DEFAULTS.redisUrl);
    try {
      const jsm = await jetstreamManager(nc);
      await this.withAdmin(async (db) => {
        let quietChecks = 0;
        let busy = '';
        let awaitingRedeliverySince: number | null = null;
        const deadline = Date.now() + SETTLE_MS;
        while (quietChecks < 2) {
          if (Date.now() > deadline) throw new Error(`the previous file's work did not settle in ${SETTLE_MS} ms (${busy})`);
          const work = await this.busyWith(db, jsm, redis);
          busy = work.summary;
          quietChecks = busy ? 0 : quietChecks + 1;
          awaitingRedeliverySince = work.onlyUnacknowledged.length > 0 ? (awaitingRedeliverySince ?? Date.now()) : null;
          if (awaitingRedeliverySince !== null && Date.now() - awaitingRedeliverySince >= REDELIVERY_WAIT_MS) {
            testLogDestination.write(
              `the shared system's reset purged ${work.onlyUnacknowledged.join(', ')}: only messages awaiting a redelivery were left (${busy})\n`,
            );
            for (const stream of work.onlyUnacknowledged) await jsm.streams.purge(stream);
            awaitingRedeliverySince = null;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      });
    } finally {
      redis.disconnect();
      await nc.close();
    }
  }

  /**
   * What is still being worked on (`summary` empty when nothing): see `settle`. `onlyUnacknowledged`: when all that is
   * left is messages delivered to a durable consumer and not acknowledged (no outbox row, no job, no message waiting to
   * go out), their streams: the state of an event a handler failed on, until its next delivery.
   */
  private async busyWith(db: pg.Client, jsm: JetStreamManager, redis: Redis): Promise<{ summary: string; onlyUnacknowledged: string[] }> {
    const { rows } = await db.query<{ schema: string; n: number }>(
      SERVICE_SCHEMAS.map(
        (schema) => `SELECT '${schema}' AS schema, count(*)::int AS n FROM "${schema}".outbox WHERE sent_at IS NULL`,
      ).join(' UNION ALL '),
    );
    const unsent = rows.filter((r) => r.n > 0).map((r) => `${r.n} unsent in ${r.schema}'s outbox`);
    const consumers: string[] = [];
    const unacknowledged = new Set<string>();
    let waiting = false;
    for await (const stream of jsm.streams.list()) {
      for await (const consumer of jsm.consumers.list(stream.config.name)) {
        if (!consumer.config.durable_name) continue;
        if (consumer.num_pending + consumer.num_ack_pending > 0)
          consumers.push(`${consumer.num_pending + consumer.num_ack_pending} for ${stream.config.name}/${consumer.name}`);
        if (consumer.num_pending > 0) waiting = true;
        else if (consumer.num_ack_pending > 0) unacknowledged.add(stream.config.name);
      }
    }
    const jobs: string[] = [];
    for (const key of await scanKeys(redis, `${this.redisPrefix}:*`)) {
      const kind = key.slice(key.lastIndexOf(':') + 1);
      const n =
        kind === 'wait' || kind === 'active' || kind === 'paused'
          ? await redis.llen(key)
          : kind === 'delayed' || kind === 'prioritized' || kind === 'waiting-children'
            ? await redis.zcard(key)
            : 0;
      if (n > 0) jobs.push(`${n} in ${key}`);
    }
    return {
      summary: [...unsent, ...consumers, ...jobs].join(', '),
      onlyUnacknowledged: waiting || unsent.length > 0 || jobs.length > 0 ? [] : [...unacknowledged],
    };
  }

  port(key: string): number {
    const port = this.ports.get(key);
    if (port === undefined) throw new Error(`no port for ${key}`);
    return port;
  }

  /** The admin URL of the PostgreSQL server this system's database is on. */
  get postgresUrl(): string {
    return this.options.postgresUrl ?? DEFAULTS.databaseUrl;
  }

  /** The system's database as the admin (every right): what tests read and write with `sql`. */
  get databaseUrl(): string {
    const url = new URL(this.postgresUrl);
    url.pathname = `/${this.databaseName}`;
    return url.toString();
  }

  /** The system's database as a service's own role, which sees its own schema only. */
  serviceDatabaseUrl(service: ServiceSchema): string {
    return serviceDatabaseUrl(this.databaseUrl, service);
  }

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.port('gateway')}`;
  }

  /** The gateway's internal listener (HEALTH_PORT): the health reports with every check. */
  get gatewayHealthUrl(): string {
    return `http://127.0.0.1:${this.port('gateway-health')}`;
  }

  /** The PayFast simulator: its process page, validate endpoint, subscriptions API and `/_sim/*` controls. */
  get payfastUrl(): string {
    return `http://127.0.0.1:${this.port('payfast')}`;
  }

  envFor(app: AppName): Record<string, string> {
    const natsUrl = app in this.natsPasswords ? this.nats.urlFor(app, this.natsPasswords[app as BusUser]) : this.nats.url;
    const common = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      NATS_URL: natsUrl,
      // Calls between the apps wait 15 s here, not production's 5 s: a test is about what is answered, and with the
      // system and browser lanes side by side on 2 cores (load 20-30) a call sometimes took over 5 s and the test saw
      // a 503 it was not about (2026-11-29: teams.e2e's Add rep, tracing.e2e's registration). A down service is still
      // "no responders" at once; a test about the time-out sets its own (enquiries.e2e, routes.integration), and the
      // production layout's run (tools/cluster) keeps 5 s.
      RPC_TIMEOUT_MS: String(TEST_CALL_TIMEOUT_MS),
      ...((SERVICE_SCHEMAS as readonly string[]).includes(app) ? { DATABASE_URL: this.serviceDatabaseUrl(app as ServiceSchema) } : {}),
    };
    const own: Record<AppName, Record<string, string>> = {
      gateway: {
        ...common,
        PORT: String(this.port('gateway')),
        HEALTH_PORT: String(this.port('gateway-health')),
        REDIS_URL: DEFAULTS.redisUrl,
        REDIS_KEY_PREFIX: this.redisPrefix,
        // One key for every start of the gateway in this system: a restarted gateway keeps the sessions.
        SESSION_SECRET: this.sessionSecret,
        SSO_SECRET_KEY: this.ssoSecretKey,
        PUBLIC_URL: this.gatewayUrl,
        SALES_EMAIL: SALES_INBOX,
        WHATSAPP_NUMBER: '27821234567',
        ENQUIRY_RATE_LIMIT: '1000/60',
        REQUEST_TIMEOUT_MS: String(TEST_CALL_TIMEOUT_MS),
        // The simulator posts its notifications from here.
        PAYFAST_SOURCE_RANGES: '127.0.0.1/32',
      },
      'mail-catcher': { HOST: '127.0.0.1', SMTP_PORT: String(this.port('mail-smtp')), HTTP_PORT: String(this.port('mail-http')) },
      'payfast-simulator': {
        HOST: '127.0.0.1',
        PORT: String(this.port('payfast')),
        MERCHANT_ID: PAYFAST_TEST_MERCHANT.id,
        MERCHANT_KEY: PAYFAST_TEST_MERCHANT.key,
        PASSPHRASE: PAYFAST_TEST_MERCHANT.passphrase,
        PUBLIC_URL: this.payfastUrl,
      },
      notifications: {
        ...common,
        HEALTH_PORT: String(this.port('notifications')),
        REDIS_URL: DEFAULTS.redisUrl,
        QUEUE_PREFIX: this.redisPrefix,
        SMTP_URL: `smtp://127.0.0.1:${this.port('mail-smtp')}`,
        MAIL_FROM: 'DigiCard <no-reply@digicard.test>',
        SALES_INBOX,
        BRAND_NAME: 'DigiCard',
        PUBLIC_URL: this.gatewayUrl,
      },
      identity: { ...common, HEALTH_PORT: String(this.port('identity')) },
      profiles: { ...common, HEALTH_PORT: String(this.port('profiles')) },
      teams: { ...common, HEALTH_PORT: String(this.port('teams')) },
      orders: {
        ...common,
        HEALTH_PORT: String(this.port('orders')),
        REDIS_URL: DEFAULTS.redisUrl,
        QUEUE_PREFIX: this.redisPrefix,
        PUBLIC_URL: this.gatewayUrl,
        PROOF_RENDER_BACKOFF_MS: '200',
      },
      payments: {
        ...common,
        HEALTH_PORT: String(this.port('payments')),
        PUBLIC_URL: this.gatewayUrl,
        PAYFAST_PROCESS_URL: `${this.payfastUrl}/eng/process`,
        PAYFAST_VALIDATE_URL: `${this.payfastUrl}/eng/query/validate`,
        PAYFAST_API_URL: this.payfastUrl,
        PAYFAST_MERCHANT_ID: PAYFAST_TEST_MERCHANT.id,
        PAYFAST_MERCHANT_KEY: PAYFAST_TEST_MERCHANT.key,
        PAYFAST_PASSPHRASE: PAYFAST_TEST_MERCHANT.passphrase,
        PAYFAST_SOURCE_RANGES: '127.0.0.1/32',
        PAYMENTS_SWEEP_INTERVAL_MS: '1000',
      },
    };
    return { ...own[app], ...(this.options.env?.[app] ?? {}) };
  }

  private readinessUrl(app: AppName): string {
    if (app === 'mail-catcher') return `http://127.0.0.1:${this.port('mail-http')}/api/messages`;
    if (app === 'payfast-simulator') return `${this.payfastUrl}/_sim/payments`;
    if (app === 'gateway') return `${this.gatewayHealthUrl}/health`;
    return `http://127.0.0.1:${this.port(app)}/health`;
  }

  /**
   * Runs the stream provisioner (`libs/messaging/dist/src/streams-main.js`, compose's and Kubernetes' `nats-streams`)
   * as the NATS user `provisioner`: declares every events and dead-letter stream, then exits. Idempotent.
   */
  async provisionStreams(env: Record<string, string> = {}): Promise<void> {
    const child = spawn(process.execPath, [STREAMS_ENTRY], {
      cwd: REPO_ROOT,
      env: {
        ...appProcessEnv(),
        NATS_URL: this.nats.urlFor(STREAM_PROVISIONER, this.provisionerPassword),
        PROVISION_TIMEOUT_SECONDS: '20',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the stream provisioner exited with ${code}: ${output.trim().slice(-1000)}`);
  }

  /** Starts an app as a real process and waits until its health endpoint says it is ready. */
  async startApp(app: AppName, extraEnv: Record<string, string> = {}): Promise<void> {
    if (this.running.has(app)) throw new Error(`${app} is already running`);
    const child = spawn(process.execPath, [APP_ENTRY[app]], {
      cwd: REPO_ROOT,
      env: { ...appProcessEnv(), ...this.envFor(app), ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) this.logs.push({ app, line });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    this.running.set(app, { child, exited });
    this.core.settings[app] = this.settingsOf(app, extraEnv);
    this.tellWatchdog();
    const url = this.readinessUrl(app);
    try {
      await waitFor(
        `${app} to be ready at ${url}`,
        async () => {
          if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
          const res = await fetch(url).catch(() => null);
          return res?.ok ?? false;
        },
        APP_READY_MS,
      );
    } catch (error) {
      const tail = this.logsOf(app).slice(-15).join('\n');
      throw new Error(`${(error as Error).message}\nLast lines of ${app}:\n${tail}`);
    }
  }

  /** Stops an app the way an orchestrator does (SIGTERM) and waits for it to exit; returns its exit code. */
  async stopApp(app: AppName): Promise<number | null> {
    const running = this.running.get(app);
    if (!running) return null;
    this.running.delete(app);
    this.tellWatchdog();
    if (running.child.exitCode === null) running.child.kill('SIGTERM');
    return running.exited;
  }

  /** The process id of a running app (benchmarks read its CPU time from /proc), or null. */
  pidOf(app: AppName): number | null {
    return this.running.get(app)?.child.pid ?? null;
  }

  /** Whether the app's process is still running: false once it exited (or was stopped). */
  isRunning(app: AppName): boolean {
    const running = this.running.get(app);
    return !!running && running.child.exitCode === null && running.child.signalCode === null;
  }

  /** Kills an app outright (SIGKILL), as a crash or an OOM kill would; returns once it is gone. */
  async killApp(app: AppName): Promise<void> {
    const running = this.running.get(app);
    if (!running) return;
    this.running.delete(app);
    this.tellWatchdog();
    if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
    await running.exited;
  }

  logsOf(app: AppName): string[] {
    return this.logs.filter((l) => l.app === app).map((l) => l.line);
  }

  async sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    if (!this.pool) {
      this.pool = new pg.Pool({ connectionString: this.databaseUrl, max: 2 });
      // A test may restart the server under it: an idle connection cut then is dropped, not a crash of the test.
      this.pool.on('error', () => undefined);
    }
    return (await this.pool.query<T>(text, params)).rows;
  }

  /** Calls the gateway like the web app does (same-origin fetch metadata). */
  async api(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{
    status: number;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on the JSON's shape
    body: any;
  }> {
    const res = await fetch(`${this.gatewayUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
        origin: this.gatewayUrl,
        ...(init.headers ?? {}),
      },
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body };
  }

  /** A fresh client with its own cookie jar, like a new browser. */
  client(): ApiClient {
    return new ApiClient(this.gatewayUrl);
  }

  async stop(): Promise<void> {
    if (this.sharedBy) {
      // Handed back for the worker's next file, which resets it (`shared`); this file's connections end here.
      this.sharedBy.lent = false;
      this.sharedBy = null;
      await this.pool?.end();
      this.pool = null;
      return;
    }
    for (const app of [...this.running.keys()].reverse()) await this.stopApp(app);
    await this.pool?.end();
    await this.nats.destroy();
    if (!this.options.database) {
      const admin = new pg.Client({ connectionString: this.postgresUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${this.databaseName}" WITH (FORCE)`);
      await admin.end();
    }
    await dropRedisKeys(DEFAULTS.redisUrl, this.redisPrefix);
    // A shared system's watchdog finds nothing left to do, and ends.
    this.core.watchdog?.stdin?.end();
    this.core.watchdog = null;
  }
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Deletes every key of a system's Redis prefix. */
export async function dropRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    const keys = await scanKeys(redis, `${prefix}:*`);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  } finally {
    await redis.quit();
  }
}
