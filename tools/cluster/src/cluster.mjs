// The whole system as production runs it, on one machine and spare ports, from Debian's programs: a 3-server NATS
// cluster (JetStream file storage on each, every stream at 3 replicas), Redis primary + replica watched by 3
// Sentinels (the apps connect through the Sentinels), PostgreSQL primary + streaming replica behind HAProxy (a
// primary check, so the apps' one address follows a promotion), two replicas of every app and the two gateways
// behind HAProxy as the HTTP load balancer. The outside world (mail, PayFast) is the usual one-copy fakes.
//
// Everything lives under one directory in /tmp and on ports from 20000-32767; `stop()` ends every process it
// started (by its own handle) and removes the directory. The machine's shared servers are not touched, except that
// TestSystem checks they answer (it also starts one private NATS server it does not need here).
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { BusUsers, STREAM_PROVISIONER, natsAuthorizationConfig } from '../../../libs/contracts/dist/src/index.js';
import {
  APP_ENTRY,
  REPO_ROOT,
  STREAMS_ENTRY,
  TestSystem,
  appProcessEnv,
  canConnect,
  freePort,
  natsServerBinary,
  waitFor,
} from '../../../libs/testing/dist/src/index.js';

/** The apps that run as two replicas each (the gateway behind the load balancer, the services on the bus). */
export const SERVICES = /** @type {const} */ (['identity', 'profiles', 'teams', 'orders', 'payments', 'notifications']);
export const REPLICATED = /** @type {const} */ ([...SERVICES, 'gateway']);
export const SENTINEL_NAME = 'digicard';
const PG_SUPERUSER = 'postgres';

function postgresBin() {
  const root = '/usr/lib/postgresql';
  const version = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  if (!version) throw new Error('PostgreSQL server programs are missing (apt-get install postgresql)');
  return join(root, version, 'bin');
}

function requireProgram(path, pkg) {
  if (!existsSync(path)) throw new Error(`${path} is missing: apt-get install -y ${pkg}`);
  return path;
}

/** A child process of the cluster, its output appended to a log file; `kill` waits until it is gone. */
class Proc {
  /**
   * @param {string} name
   * @param {string} command
   * @param {string[]} args
   * @param {{ env?: Record<string, string>, log: string, cwd?: string }} options
   */
  constructor(name, command, args, options) {
    this.name = name;
    const out = openSync(options.log, 'a');
    this.child = spawn(command, args, {
      cwd: options.cwd ?? tmpdir(),
      env: options.env ?? { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', out, out],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve(code ?? signal)));
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** @param {NodeJS.Signals} signal */
  async kill(signal = 'SIGKILL') {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}

/** Sends one command to HAProxy's runtime API (its stats socket) and returns the answer. */
export function haproxyCommand(socket, command) {
  return new Promise((resolve, reject) => {
    const conn = netConnect(socket);
    let answer = '';
    conn.on('data', (d) => (answer += d.toString()));
    conn.on('end', () => resolve(answer));
    conn.on('error', reject);
    conn.write(`${command}\n`);
  });
}

export class Cluster {
  /** @param {{ dir?: string, logLevel?: string, env?: Record<string, Record<string, string>> }} options */
  constructor(options = {}) {
    this.options = options;
    this.dir = options.dir ?? mkdtempSync(join(tmpdir(), 'digicard-cluster-'));
    /** @type {Proc[]} */
    this.procs = [];
    /** @type {Map<string, number>} */
    this.ports = new Map();
    this.pgBin = postgresBin();
    this.pgUser =
      process.getuid?.() === 0
        ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) }
        : null;
    /** @type {Array<{ name: string, port: number, monitor: number, dir: string, proc: Proc | null }>} */
    this.nats = [];
    /** @type {Array<{ name: string, port: number, dir: string, proc: Proc | null }>} */
    this.redis = [];
    /** @type {Array<{ name: string, port: number, proc: Proc | null }>} */
    this.sentinels = [];
    /** @type {Array<{ name: string, port: number, dir: string, running: boolean }>} */
    this.postgres = [];
    /** Every app instance ever started, the running ones with `proc.running`. @type {AppInstance[]} */
    this.instances = [];
    this.instanceCounter = 0;
    /** The gateway slots of the load balancer: a rolling restart starts the new gateway in a free slot. */
    /** @type {Array<{ name: string, port: number, health: number, instance: AppInstance | null }>} */
    this.gatewaySlots = [];
    /** @type {TestSystem | null} */
    this.system = null;
  }

  async port(key) {
    if (!this.ports.has(key)) this.ports.set(key, await freePort());
    return /** @type {number} */ (this.ports.get(key));
  }

  log(name) {
    return join(this.dir, 'logs', `${name}.log`);
  }

  spawn(name, command, args, options = {}) {
    const proc = new Proc(name, command, args, { log: this.log(name), ...options });
    this.procs.push(proc);
    return proc;
  }

  /** Starts everything and returns once the gateways answer through the load balancer. */
  async start() {
    mkdirSync(join(this.dir, 'logs'), { recursive: true });
    if (this.pgUser) chownSync(this.dir, this.pgUser.uid, this.pgUser.gid);
    await this.startPostgres();
    await this.startPgProxy();
    await this.startRedis();
    await this.startNats();
    this.system = await TestSystem.start({
      apps: ['mail-catcher', 'payfast-simulator'],
      postgresUrl: this.postgresUrl,
      env: { 'mail-catcher': { KEEP_MESSAGES: '200000' } },
    });
    for (let i = 0; i < 4; i++)
      this.gatewaySlots.push({ name: `gw${i}`, port: await freePort(), health: await freePort(), instance: null });
    await this.startHttpProxy();
    for (const app of REPLICATED) {
      await Promise.all([this.startInstance(app), this.startInstance(app)]);
    }
    await waitFor('the load balancer to see both gateways', async () => (await this.gatewaysUp()).length === 2, 20_000, 200);
    return this;
  }

  // ---------------------------------------------------------------- PostgreSQL

  pgRun(program, args) {
    return execFileSync(join(this.pgBin, program), args, {
      cwd: tmpdir(),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(this.pgUser ? { uid: this.pgUser.uid, gid: this.pgUser.gid } : {}),
    }).toString();
  }

  pgStart(node, extra = '') {
    const options = `-p ${node.port} -k ${node.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400 -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on -c wal_keep_size=256MB ${extra}`;
    this.pgRun('pg_ctl', ['-D', node.dir, '-o', options, '-l', this.log(node.name), '-w', '-t', '60', 'start']);
    node.running = true;
  }

  async startPostgres() {
    const logs = join(this.dir, 'logs');
    if (this.pgUser) chownSync(logs, this.pgUser.uid, this.pgUser.gid);
    for (const name of ['pg0', 'pg1']) {
      const dir = join(this.dir, name);
      mkdirSync(dir, { mode: 0o700 });
      if (this.pgUser) chownSync(dir, this.pgUser.uid, this.pgUser.gid);
      this.postgres.push({ name, port: await this.port(name), dir, running: false });
    }
    const [primary, replica] = this.postgres;
    this.pgRun('initdb', ['-D', primary.dir, '-U', PG_SUPERUSER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    // Synchronous commit to the replica: what the primary acknowledged is on the replica too, so a promotion after
    // the primary dies loses nothing acknowledged (CloudNativePG's `minSyncReplicas: 1`). Set on the primary's
    // command line only, so that the promoted replica does not wait for a standby it no longer has.
    this.pgStart(primary, "-c synchronous_standby_names='*'");
    this.pgRun('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      PG_SUPERUSER,
      '-D',
      replica.dir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    chmodSync(replica.dir, 0o700);
    this.pgStart(replica);
    await waitFor(
      'the PostgreSQL replica to stream',
      async () => (await this.pgQuery(primary, "SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'"))[0].n === 1,
      30_000,
      200,
    );
  }

  async pgQuery(node, text) {
    const client = new pg.Client({
      connectionString: `postgres://${PG_SUPERUSER}@127.0.0.1:${node.port}/postgres`,
      connectionTimeoutMillis: 2000,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** The node that is primary now (not in recovery), or null. */
  async pgPrimary() {
    for (const node of this.postgres) {
      if (!node.running) continue;
      const rows = await this.pgQuery(node, 'SELECT pg_is_in_recovery() AS r').catch(() => null);
      if (rows && rows[0].r === false) return node;
    }
    return null;
  }

  /** The admin URL the apps and the checks use: HAProxy's PostgreSQL port, which leads to the primary. */
  get postgresUrl() {
    return `postgres://${PG_SUPERUSER}@127.0.0.1:${this.ports.get('pg-proxy')}/postgres`;
  }

  async startPgProxy() {
    const check = join(this.dir, 'pg-primary-check.sh');
    // HAProxy's external check: arguments are proxy address, proxy port, server address, server port. Healthy only
    // where PostgreSQL answers and is not in recovery (the primary), as CloudNativePG's -rw Service selects it.
    writeFileSync(
      check,
      `#!/bin/sh\n[ "$(psql -h "$3" -p "$4" -U ${PG_SUPERUSER} -d postgres -tAXc 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ]\n`,
    );
    chmodSync(check, 0o755);
    const port = await this.port('pg-proxy');
    const config = [
      'global',
      '  maxconn 2000',
      '  external-check',
      '  insecure-fork-wanted',
      `  stats socket ${join(this.dir, 'pg-proxy.sock')} mode 600 level admin`,
      'defaults',
      '  mode tcp',
      '  timeout connect 2s',
      '  timeout client 1h',
      '  timeout server 1h',
      '  timeout check 5s',
      'listen postgres',
      `  bind 127.0.0.1:${port}`,
      '  option external-check',
      `  external-check command ${check}`,
      '  external-check path "/usr/bin:/bin"',
      // A node that stops being primary loses its connections at once, instead of keeping them on a demoted server.
      '  default-server inter 2s fall 2 rise 1 on-marked-down shutdown-sessions',
      ...this.postgres.map((node) => `  server ${node.name} 127.0.0.1:${node.port} check`),
      '',
    ].join('\n');
    const file = join(this.dir, 'pg-proxy.cfg');
    writeFileSync(file, config);
    this.pgProxy = this.spawn('haproxy-pg', requireProgram('/usr/sbin/haproxy', 'haproxy'), ['-db', '-f', file]);
    await waitFor(
      'HAProxy to lead to the PostgreSQL primary',
      () => this.pgQuery({ port }, 'SELECT 1 AS one').then(() => true),
      20_000,
      200,
    );
  }

  /** Kills the primary as a crash would (`pg_ctl stop -m immediate`). */
  async killPostgresPrimary() {
    const primary = await this.pgPrimary();
    if (!primary) throw new Error('no PostgreSQL primary to kill');
    this.pgRun('pg_ctl', ['-D', primary.dir, '-m', 'immediate', '-w', 'stop']);
    primary.running = false;
    return primary;
  }

  /** Promotes the replica (what CloudNativePG's operator does when the primary is gone) and waits until it takes writes. */
  async promotePostgresReplica() {
    const replica = this.postgres.find((n) => n.running);
    if (!replica) throw new Error('no PostgreSQL replica to promote');
    this.pgRun('pg_ctl', ['-D', replica.dir, '-w', 'promote']);
    await waitFor('the promoted replica to take writes', async () => (await this.pgPrimary()) === replica, 20_000, 100);
    return replica;
  }

  // ---------------------------------------------------------------- Redis + Sentinel

  async startRedis() {
    requireProgram('/usr/bin/redis-server', 'redis-server');
    for (const name of ['redis0', 'redis1']) {
      const dir = join(this.dir, name);
      mkdirSync(dir);
      this.redis.push({ name, port: await this.port(name), dir, proc: null });
    }
    for (const node of this.redis) this.startRedisNode(node, node === this.redis[0] ? null : this.redis[0]);
    for (const node of this.redis) await waitFor(`redis ${node.name}`, () => canConnect(`redis://127.0.0.1:${node.port}`, 200), 10_000);
    requireProgram('/usr/bin/redis-sentinel', 'redis-sentinel');
    for (let i = 0; i < 3; i++) {
      const name = `sentinel${i}`;
      const port = await this.port(name);
      const file = join(this.dir, `${name}.conf`);
      // Sentinel rewrites its own file (the primary it follows now, the other Sentinels): it must be writable.
      writeFileSync(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${this.dir}`,
          `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${this.redis[0].port} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_NAME} 1500`,
          `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
          `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
          '',
        ].join('\n'),
      );
      const sentinel = { name, port, file, proc: null };
      sentinel.proc = this.spawn(name, '/usr/bin/redis-sentinel', [file]);
      this.sentinels.push(sentinel);
    }
    for (const s of this.sentinels) await waitFor(`redis ${s.name}`, () => canConnect(`redis://127.0.0.1:${s.port}`, 200), 10_000);
    await waitFor(
      'the Sentinels to know each other and the replica',
      async () => {
        const r = new Redis({ port: this.sentinels[0].port, lazyConnect: true, maxRetriesPerRequest: 0 });
        try {
          const [master] = /** @type {string[][]} */ (await r.call('SENTINEL', 'MASTERS'));
          const info = Object.fromEntries(master.flatMap((_, i, a) => (i % 2 === 0 ? [[a[i], a[i + 1]]] : [])));
          return Number(info['num-slaves']) === 1 && Number(info['num-other-sentinels']) === 2;
        } finally {
          r.disconnect();
        }
      },
      30_000,
      250,
    );
  }

  /** Persistence as production: an AOF fsynced on every write, on both nodes. */
  startRedisNode(node, primaryOf) {
    node.proc = this.spawn(node.name, '/usr/bin/redis-server', [
      '--bind',
      '127.0.0.1',
      '--port',
      String(node.port),
      '--dir',
      node.dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      ...(primaryOf ? ['--replicaof', '127.0.0.1', String(primaryOf.port)] : []),
    ]);
  }

  get redisSentinels() {
    return this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',');
  }

  /** The Redis primary the Sentinels name now. */
  async redisPrimary() {
    for (const s of this.sentinels) {
      if (!s.proc?.running) continue;
      const r = new Redis({ port: s.port, lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        const [, port] = /** @type {string[]} */ (await r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_NAME));
        return this.redis.find((n) => n.port === Number(port)) ?? null;
      } catch {
        /* try the next Sentinel */
      } finally {
        r.disconnect();
      }
    }
    return null;
  }

  /** Kills the Redis primary (SIGKILL) and waits until the Sentinels have promoted the replica; returns ms taken. */
  async failRedisOver() {
    const primary = await this.redisPrimary();
    if (!primary?.proc) throw new Error('no Redis primary to kill');
    const started = Date.now();
    await primary.proc.kill('SIGKILL');
    await waitFor(
      'the Sentinels to promote the Redis replica',
      async () => {
        const now = await this.redisPrimary();
        return now && now !== primary;
      },
      30_000,
      100,
    );
    const promotedMs = Date.now() - started;
    // The old primary comes back as a replica of the new one (Sentinel reconfigures it when it sees it again).
    const next = /** @type {any} */ (await this.redisPrimary());
    this.startRedisNode(primary, next);
    return promotedMs;
  }

  // ---------------------------------------------------------------- NATS cluster

  async startNats() {
    const bin = natsServerBinary();
    if (!bin) throw new Error('nats-server is missing: apt-get install -y nats-server');
    /** @type {Record<string, string>} */
    this.natsPasswords = Object.fromEntries(
      [...BusUsers, STREAM_PROVISIONER].map((u) => [u, `${u}-${Math.random().toString(36).slice(2)}`]),
    );
    const auth = natsAuthorizationConfig({ passwords: this.natsPasswords, admin: { password: 'cluster-admin', noAuthAdmin: true } });
    for (let i = 0; i < 3; i++) {
      const name = `nats${i}`;
      const dir = join(this.dir, name);
      mkdirSync(dir);
      this.nats.push({ name, port: await this.port(name), monitor: await this.port(`${name}-monitor`), dir, proc: null });
      await this.port(`${name}-route`);
    }
    const routes = this.nats.map((n) => `nats-route://127.0.0.1:${this.ports.get(`${n.name}-route`)}`).join(', ');
    for (const node of this.nats) {
      writeFileSync(
        join(node.dir, 'nats.conf'),
        [
          `server_name: ${node.name}`,
          `listen: 127.0.0.1:${node.port}`,
          `http: 127.0.0.1:${node.monitor}`,
          `jetstream { store_dir: ${JSON.stringify(node.dir)}, max_memory_store: 256MB, max_file_store: 4GB }`,
          `cluster { name: digicard, listen: 127.0.0.1:${this.ports.get(`${node.name}-route`)}, routes: [${routes}] }`,
          auth,
        ].join('\n'),
      );
      this.startNatsNode(node, bin);
    }
    await Promise.all(this.nats.map((n) => this.waitNatsHealthy(n)));
    // Every stream with three copies, declared by the stream provisioner (nats-streams) before any app starts.
    execFileSync(process.execPath, [STREAMS_ENTRY], {
      cwd: REPO_ROOT,
      env: { ...appProcessEnv(), NATS_URL: this.natsUrlFor(STREAM_PROVISIONER), JETSTREAM_REPLICAS: '3' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }

  startNatsNode(node, bin = natsServerBinary()) {
    node.proc = this.spawn(node.name, /** @type {string} */ (bin), ['-c', join(node.dir, 'nats.conf')]);
  }

  async waitNatsHealthy(node, timeoutMs = 30_000) {
    await waitFor(
      `${node.name} to be healthy (JetStream meta leader known)`,
      async () => {
        const res = await fetch(`http://127.0.0.1:${node.monitor}/healthz`).catch(() => null);
        return res?.ok ?? false;
      },
      timeoutMs,
      200,
    );
  }

  /** NATS_URL for a bus user: every server of the cluster, comma-separated. */
  natsUrlFor(user) {
    const pass = encodeURIComponent(this.natsPasswords[user]);
    return this.nats.map((n) => `nats://${user}:${pass}@127.0.0.1:${n.port}`).join(',');
  }

  /** Every stream with its replica count and the servers holding it, from a server's monitoring endpoint. */
  async streamReplicas() {
    const node = this.nats.find((n) => n.proc?.running) ?? this.nats[0];
    const res = await fetch(`http://127.0.0.1:${node.monitor}/jsz?streams=true&config=true`);
    const body = /** @type {any} */ (await res.json());
    const out = {};
    for (const account of body.account_details ?? []) {
      for (const s of account.stream_detail ?? []) {
        out[s.name] = { replicas: s.config?.num_replicas, peers: 1 + (s.cluster?.replicas?.length ?? 0), leader: s.cluster?.leader };
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- apps

  async envFor(app, slot) {
    const system = /** @type {TestSystem} */ (this.system);
    const base = system.envFor(app);
    /** @type {Record<string, string | undefined>} */
    const env = {
      ...base,
      LOG_LEVEL: this.options.logLevel ?? 'warn',
      NATS_URL: this.natsUrlFor(app),
      DATABASE_URL: app === 'gateway' ? undefined : system.serviceDatabaseUrl(app),
      HEALTH_PORT: String(slot ? slot.health : await freePort()),
      // Production's time-out for calls between the apps (TestSystem gives its tests 15 s): recovery is measured with it.
      REQUEST_TIMEOUT_MS: '5000',
      RPC_TIMEOUT_MS: '5000',
    };
    if (app === 'gateway' || app === 'orders' || app === 'notifications') {
      Object.assign(env, {
        REDIS_URL: `redis://127.0.0.1:${this.redis[0].port}`,
        REDIS_SENTINELS: this.redisSentinels,
        REDIS_SENTINEL_NAME: SENTINEL_NAME,
      });
    }
    if (app === 'gateway') {
      Object.assign(env, {
        PORT: String(slot.port),
        // Load from one address: limits that would stop it are raised (they are tested elsewhere).
        ENQUIRY_RATE_LIMIT: '100000000/60',
        RATE_LIMIT_REGISTER_IP: '100000000/60',
        RATE_LIMIT_LOGIN_IP: '100000000/60',
        RATE_LIMIT_LEAD_PROFILE: '100000000/60',
        RATE_LIMIT_LEAD_EMAIL: '100000000/60',
        RATE_LIMIT_CLICK_IP: '100000000/60',
      });
    }
    if (app === 'notifications') env.EMAIL_CONCURRENCY = '20';
    const own = this.options.env?.[app] ?? {};
    return Object.fromEntries(Object.entries({ ...env, ...own }).filter(([, v]) => v !== undefined));
  }

  /**
   * Starts one more replica of an app and waits until it is ready; a gateway takes a free slot of the load
   * balancer and is put in service there once ready.
   */
  async startInstance(app) {
    const slot = app === 'gateway' ? this.gatewaySlots.find((s) => !s.instance) : null;
    if (app === 'gateway' && !slot) throw new Error('no free gateway slot');
    if (slot) slot.instance = /** @type {any} */ ({ reserved: true }); // two gateways starting at once take two slots
    const env = await this.envFor(app, slot);
    const id = `${app}-${++this.instanceCounter}`;
    const launch = () => this.spawn(id, process.execPath, [APP_ENTRY[app]], { env: { ...appProcessEnv(), ...env }, cwd: REPO_ROOT });
    /** @type {AppInstance} */
    const instance = { id, app, proc: launch(), healthPort: Number(env.HEALTH_PORT), slot };
    if (slot) slot.instance = instance;
    this.instances.push(instance);
    // A process that exits while starting (a JetStream request timing out on a busy machine, say) is started again,
    // as Kubernetes restarts a crashed container; three tries.
    let restarts = 0;
    await waitFor(
      `${id} to be ready`,
      async () => {
        if (!instance.proc.running) {
          if (++restarts > 3) throw new Error(`${id} exited ${restarts - 1} times: ${this.tail(id)}`);
          instance.proc = launch();
          return false;
        }
        const res = await fetch(`http://127.0.0.1:${instance.healthPort}/health`).catch(() => null);
        return res?.ok ?? false;
      },
      120_000,
      200,
    );
    instance.restarts = restarts;
    if (slot) {
      await this.lb(`set server gateways/${slot.name} state ready`);
      await waitFor(`the load balancer to put ${id} in service`, async () => (await this.gatewaysUp()).includes(slot.name), 15_000, 100);
    }
    return instance;
  }

  tail(name, lines = 10) {
    try {
      return readFileSync(this.log(name), 'utf8').trim().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  running(app) {
    return this.instances.filter((i) => i.app === app && i.proc.running);
  }

  /** Kills one replica outright (SIGKILL, a crash or an OOM kill). */
  async killInstance(instance) {
    await instance.proc.kill('SIGKILL');
    if (instance.slot) {
      await this.lb(`set server gateways/${instance.slot.name} state maint`);
      instance.slot.instance = null;
    }
  }

  /**
   * Stops one replica as an orchestrator does: out of the load balancer first (a gateway: its slot drained, then
   * in maintenance), then SIGTERM, and waits until it has exited.
   */
  async stopInstance(instance) {
    if (instance.slot) {
      await this.lb(`set server gateways/${instance.slot.name} state drain`);
      await this.lb(`set server gateways/${instance.slot.name} state maint`);
      // What the gateway is answering now completes; nothing new is sent to it. `show stat` is CSV: proxy, server,
      // queued now, queued most, sessions now (scur), ...
      await waitFor(
        `${instance.id} to finish its requests`,
        async () => {
          const stat = await this.lb('show stat');
          const row = stat
            .split('\n')
            .map((l) => l.split(','))
            .find((f) => f[0] === 'gateways' && f[1] === instance.slot.name);
          return !row || row[4] === '0';
        },
        10_000,
        100,
      ).catch(() => undefined);
    }
    const code = await instance.proc.kill('SIGTERM');
    if (instance.slot) instance.slot.instance = null;
    return code;
  }

  /** Every app in turn: a new replica started and ready before each old one is stopped. */
  async rollingRestart(onStep = (_message) => undefined) {
    for (const app of REPLICATED) {
      for (const old of this.running(app)) {
        const fresh = await this.startInstance(app);
        onStep(`${app}: ${fresh.id} ready, stopping ${old.id}`);
        const code = await this.stopInstance(old);
        if (code !== 0) onStep(`${old.id} exited with ${code}`);
      }
    }
  }

  // ---------------------------------------------------------------- the HTTP load balancer

  get url() {
    return /** @type {TestSystem} */ (this.system).gatewayUrl;
  }

  async startHttpProxy() {
    const system = /** @type {TestSystem} */ (this.system);
    const config = [
      'global',
      '  maxconn 4000',
      `  stats socket ${join(this.dir, 'lb.sock')} mode 600 level admin`,
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 30s',
      '  timeout server 30s',
      '  timeout check 3s',
      '  option forwardfor',
      // A request never sent (connection refused) goes to the other gateway; one that was sent is not repeated.
      '  retries 3',
      '  option redispatch 1',
      '  retry-on conn-failure',
      'frontend web',
      `  bind 127.0.0.1:${system.port('gateway')}`,
      '  default_backend gateways',
      'backend gateways',
      '  balance roundrobin',
      '  option http-server-close',
      '  option httpchk GET /health',
      // A gateway's health is given 3 s and three misses: on a loaded machine 1 s and two misses took both gateways out at once.
      '  default-server inter 1s fall 3 rise 1',
      // Slots not yet holding a gateway start in maintenance; a gateway is put in service once ready.
      ...this.gatewaySlots.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check port ${s.health} disabled`),
      '',
    ].join('\n');
    const file = join(this.dir, 'lb.cfg');
    writeFileSync(file, config);
    this.httpProxy = this.spawn('haproxy-lb', '/usr/sbin/haproxy', ['-db', '-f', file]);
    await waitFor('the load balancer', () => canConnect(this.url, 200), 10_000);
  }

  lb(command) {
    return haproxyCommand(join(this.dir, 'lb.sock'), command);
  }

  /** The gateway slots HAProxy has in service (UP) now. */
  async gatewaysUp() {
    const stat = await this.lb('show stat');
    return stat
      .split('\n')
      .map((l) => l.split(','))
      .filter((f) => f[0] === 'gateways' && f[1] !== 'BACKEND' && f[1] !== 'FRONTEND' && f[17] === 'UP')
      .map((f) => f[1]);
  }

  // ---------------------------------------------------------------- faults on NATS

  /** Kills one NATS server (SIGKILL); not the one holding most stream leaders, so that the kill costs elections. */
  async killNatsServer(index = 0) {
    const node = this.nats[index];
    await node.proc?.kill('SIGKILL');
    return node;
  }

  async restartNatsServer(node) {
    this.startNatsNode(node);
    await this.waitNatsHealthy(node, 60_000);
  }

  async stop() {
    // Apps first (they drain), then the fakes and the system's database, then the servers.
    for (const i of this.instances) if (i.proc.running) await i.proc.kill('SIGTERM');
    await this.system?.stop().catch(() => undefined);
    for (const p of [...this.procs].reverse()) if (p.running) await p.kill('SIGKILL');
    for (const node of this.postgres) {
      if (!node.running) continue;
      try {
        this.pgRun('pg_ctl', ['-D', node.dir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        /* already gone */
      }
    }
    if (!this.options.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** @typedef {{ id: string, app: string, proc: Proc, healthPort: number, restarts?: number, slot: { name: string, port: number, health: number, instance: any } | null }} AppInstance */
