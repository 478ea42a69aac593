#!/usr/bin/env node
// The restore drill: a base backup plus the WAL archive (what CloudNativePG's barman backups are), taken while orders,
// payments and leads are written, restored into a fresh data directory to a named restore point, and checked: every
// write acknowledged before the point is there, none acknowledged after it is.
//
//   npm run build:all && node tools/drill/restore.mjs [--seconds 6] [--writers 4] [--keep]
//
// Runs its own PostgreSQL (the machine's /usr/lib/postgresql/<v>/bin, as the `postgres` OS user when run as root)
// on spare ports, with its data, backup and archive under /tmp; it never touches the shared servers.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SERVICE_SCHEMAS, ensureServiceRoles, runMigrations, serviceDatabaseUrl } from '../../libs/db/dist/src/index.js';
import { TestSystem, freePort, waitFor } from '../../libs/testing/dist/src/index.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '6' },
    writers: { type: 'string', default: '4' },
    keep: { type: 'boolean', default: false },
  },
});
const WRITE_SECONDS = Number(args.seconds);
const WRITERS = Number(args.writers);

const started = Date.now();
const log = (msg, extra = {}) =>
  process.stdout.write(
    `${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${msg}${Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ''}\n`,
  );
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const bin = (() => {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => join(root, v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
  if (!dir) throw new Error('no PostgreSQL server programs under /usr/lib/postgresql (apt-get install postgresql)');
  return dir;
})();
const asRoot = process.getuid?.() === 0;
const pgUser = asRoot
  ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) }
  : null;
/** Runs a PostgreSQL program as the `postgres` OS user (the server refuses to run as root). */
const run = (program, programArgs) =>
  execFileSync(join(bin, program), programArgs, { stdio: ['ignore', 'pipe', 'pipe'], cwd: tmpdir(), ...(pgUser ?? {}) }).toString();
/** The same, without blocking the event loop (the writers go on meanwhile). */
const runAsync = (program, programArgs) => promisify(execFile)(join(bin, program), programArgs, { cwd: tmpdir(), ...(pgUser ?? {}) });
/** The apps that own the tables written: started on the primary (their migrations make the schema) and on the restored copy. */
const APPS = /** @type {const} */ (['profiles', 'orders', 'payments']);
const DATABASE = 'digicard';
/** @type {TestSystem[]} */
const systems = [];

const root = mkdtempSync(join(tmpdir(), 'digicard-drill-'));
const dirs = {
  primary: join(root, 'primary'),
  archive: join(root, 'wal-archive'),
  backup: join(root, 'base-backup'),
  restored: join(root, 'restored'),
};
for (const d of [root, dirs.archive]) {
  mkdirSync(d, { recursive: true });
  if (pgUser) chownSync(d, pgUser.uid, pgUser.gid);
}

/** A cluster of this drill: its data directory and port. */
class Cluster {
  constructor(dataDir, port) {
    this.dataDir = dataDir;
    this.port = port;
  }
  url(db = 'postgres') {
    return `postgres://postgres@127.0.0.1:${this.port}/${db}`;
  }
  async start() {
    run('pg_ctl', [
      '-D',
      this.dataDir,
      '-o',
      `-p ${this.port} -k ${this.dataDir} -c listen_addresses=127.0.0.1`,
      '-l',
      join(this.dataDir, 'server.log'),
      '-w',
      '-t',
      '120',
      'start',
    ]);
    await waitFor(`postgres on ${this.port}`, () => canQuery(this.url()), 60_000, 200);
  }
  stop(mode = 'fast') {
    try {
      run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
    } catch {
      /* not running */
    }
  }
}

async function canQuery(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** @returns {Promise<Record<string, any>[]>} */
async function query(url, text, params = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Writes what the services write when a visitor leaves a lead, an order is placed and PayFast confirms a payment. */
async function writer(urls, acknowledged, stopAt, phase) {
  const clients = Object.fromEntries(
    await Promise.all(
      Object.entries(urls).map(async ([service, url]) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        return [service, client];
      }),
    ),
  );
  const accountId = randomUUID();
  try {
    for (let i = 0; Date.now() < stopAt(); i++) {
      const lead = randomUUID();
      let startedIn = phase();
      await clients.profiles.query(
        `INSERT INTO profiles.leads (id, account_id, kind, first_name, last_name, email, phone, message) VALUES ($1, $2, 'lead', 'Drill', $3, 'drill@example.co.za', '0821234567', 'restore drill')`,
        [lead, accountId, String(i)],
      );
      acknowledged.push({ table: 'profiles.leads', id: lead, startedIn });
      const order = randomUUID();
      startedIn = phase();
      await clients.orders.query('BEGIN');
      await clients.orders.query(`INSERT INTO orders.orders (id, reference, account_id, total_cents) VALUES ($1, $2, $3, 19900)`, [
        order,
        `DR${order.slice(0, 8).toUpperCase()}`,
        accountId,
      ]);
      await clients.orders.query('COMMIT');
      acknowledged.push({ table: 'orders.orders', id: order, startedIn });
      const payment = randomUUID();
      startedIn = phase();
      await clients.payments.query(
        `INSERT INTO payments.payments (id, pf_payment_id, payment_request_id, account_id, kind, order_id, amount_cents, status, description, itn_id)
         VALUES ($1, $2, $3, $4, 'order', $5, 19900, 'complete', 'restore drill', $6)`,
        [payment, `pf-${payment}`, randomUUID(), accountId, order, randomUUID()],
      );
      acknowledged.push({ table: 'payments.payments', id: payment, startedIn });
    }
  } finally {
    await Promise.all(Object.values(clients).map((c) => c.end()));
  }
}

async function main() {
  const primary = new Cluster(dirs.primary, await freePort());
  log('initdb: the primary, archiving every WAL segment', { root, bin });
  run('initdb', ['-D', dirs.primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  appendFileSync(
    join(dirs.primary, 'postgresql.conf'),
    [
      '',
      '# restore drill',
      'wal_level = replica',
      'archive_mode = on',
      `archive_command = 'test ! -f ${dirs.archive}/%f && cp %p ${dirs.archive}/%f'`,
      'archive_timeout = 60',
      'max_wal_senders = 4',
      '',
    ].join('\n'),
  );
  await primary.start();
  const admin = primary.url(DATABASE);
  await query(primary.url(), `CREATE DATABASE ${DATABASE}`);
  await ensureServiceRoles(admin);
  const onPrimary = await TestSystem.start({ apps: [...APPS], postgresUrl: primary.url(), database: DATABASE });
  systems.push(onPrimary);
  for (const service of SERVICE_SCHEMAS) {
    const pool = new pg.Pool({ connectionString: serviceDatabaseUrl(admin, service), max: 1 });
    await runMigrations(pool, service, join(process.cwd(), 'apps', service, 'drizzle'));
    await pool.end();
  }
  log('the services up on the primary (they ran their migrations); the others migrated as their roles', { apps: APPS });

  const urls = {
    profiles: serviceDatabaseUrl(admin, 'profiles'),
    orders: serviceDatabaseUrl(admin, 'orders'),
    payments: serviceDatabaseUrl(admin, 'payments'),
  };
  /** @type {{ table: string, id: string, startedIn: 'before' | 'after' }[]} */
  const acknowledged = [];
  let stopWritesAt = Date.now() + 3_600_000;
  /** Whether the restore point had been made (its call answered) when a write was sent. */
  let phase = /** @type {'before' | 'after'} */ ('before');
  const writers = Array.from({ length: WRITERS }, () =>
    writer(
      urls,
      acknowledged,
      () => stopWritesAt,
      () => phase,
    ),
  );

  await sleep(1000);
  log('pg_basebackup while the writers run (-X none: the WAL comes from the archive)', { acknowledgedSoFar: acknowledged.length });
  await runAsync('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dirs.backup,
    '-X',
    'none',
    '-c',
    'fast',
  ]);
  log('base backup done', { acknowledgedSoFar: acknowledged.length });

  await sleep(WRITE_SECONDS * 1000);
  const pointName = `drill-${Date.now()}`;
  const ackedBefore = acknowledged.length; // every write counted here had its COMMIT answered before the point was asked for
  const [point] = await query(admin, 'SELECT pg_create_restore_point($1) AS lsn, now() AS at', [pointName]);
  phase = 'after'; // a write sent from now on commits after the point
  log('restore point', { name: pointName, lsn: point.lsn, acknowledgedBefore: ackedBefore });
  await sleep(1000); // writes after the point: the restore must not have them
  stopWritesAt = 0;
  await Promise.all(writers);
  const acknowledgedAfter = acknowledged.filter((e) => e.startedIn === 'after');
  const [{ wal }] = await query(admin, 'SELECT pg_walfile_name(pg_switch_wal()) AS wal');
  await waitFor(
    'the WAL holding the restore point to be archived',
    async () => {
      const [row] = await query(admin, 'SELECT last_archived_wal FROM pg_stat_archiver');
      return row.last_archived_wal !== null && row.last_archived_wal >= wal;
    },
    60_000,
    200,
  );
  const totals = await query(
    admin,
    `SELECT (SELECT count(*) FROM profiles.leads)::int AS leads, (SELECT count(*) FROM orders.orders)::int AS orders, (SELECT count(*) FROM payments.payments)::int AS payments`,
  );
  await onPrimary.stop();
  log('primary lost (immediate stop) after the writes', {
    total: acknowledged.length,
    onPrimary: totals[0],
    archived: readdirSync(dirs.archive).length,
  });
  primary.stop('immediate');

  // The restore: the base backup in a fresh data directory, WAL replayed from the archive up to the restore point.
  execFileSync('cp', ['-a', dirs.backup, dirs.restored], { ...(pgUser ?? {}) });
  appendFileSync(
    join(dirs.restored, 'postgresql.auto.conf'),
    [
      '',
      '# restore drill: point-in-time recovery from the archive',
      `restore_command = 'cp ${dirs.archive}/%f %p'`,
      `recovery_target_name = '${pointName}'`,
      "recovery_target_action = 'promote'",
      'archive_mode = off',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dirs.restored, 'recovery.signal'), '');
  if (pgUser) chownSync(join(dirs.restored, 'recovery.signal'), pgUser.uid, pgUser.gid);
  const restored = new Cluster(dirs.restored, await freePort());
  const restoreStarted = Date.now();
  await restored.start();
  const restoredAdmin = restored.url('digicard');
  await waitFor(
    'recovery to reach the point and promote',
    async () => !(await query(restoredAdmin, 'SELECT pg_is_in_recovery() AS r'))[0].r,
    120_000,
    200,
  );
  const restoreSeconds = (Date.now() - restoreStarted) / 1000;
  log('restored to the point and promoted', { port: restored.port, seconds: restoreSeconds });

  // The services start on it (their migrations find nothing to apply; their health checks query it), and the rows
  // are read with each service's own role.
  const onRestored = await TestSystem.start({ apps: [...APPS], postgresUrl: restored.url(), database: DATABASE });
  systems.push(onRestored);
  const healthy = {};
  for (const app of APPS) healthy[app] = (await fetch(`http://127.0.0.1:${onRestored.port(app)}/health`)).status;
  log('the services started on the restored cluster', { health: healthy });
  const present = async (entries) => {
    const found = new Set();
    for (const table of ['profiles.leads', 'orders.orders', 'payments.payments']) {
      const service = /** @type {any} */ (table.split('.')[0]);
      const ids = entries.filter((e) => e.table === table).map((e) => e.id);
      const rows = await query(serviceDatabaseUrl(restoredAdmin, service), `SELECT id FROM ${table} WHERE id = ANY($1::uuid[])`, [ids]);
      for (const r of rows) found.add(r.id);
    }
    return found;
  };
  const before = acknowledged.slice(0, ackedBefore);
  // Sent before the point was made but answered after: either side of it is right.
  const inFlight = acknowledged.slice(ackedBefore).filter((e) => e.startedIn === 'before');
  const foundBefore = await present(before);
  const foundAfter = await present(acknowledgedAfter);
  const foundInFlight = await present(inFlight);
  const byTable = (entries, found) =>
    Object.fromEntries(
      ['orders.orders', 'payments.payments', 'profiles.leads'].map((t) => {
        const of = entries.filter((e) => e.table === t);
        return [t, { acknowledged: of.length, restored: of.filter((e) => found.has(e.id)).length }];
      }),
    );
  const result = {
    writers: WRITERS,
    restorePoint: { name: pointName, lsn: point.lsn, at: point.at },
    archivedWalFiles: readdirSync(dirs.archive).length,
    acknowledgedBeforePoint: byTable(before, foundBefore),
    missingBeforePoint: before.filter((e) => !foundBefore.has(e.id)).length,
    acknowledgedAfterPoint: acknowledgedAfter.length,
    presentAfterPoint: acknowledgedAfter.filter((e) => foundAfter.has(e.id)).length,
    inFlightAtPoint: { count: inFlight.length, restored: foundInFlight.size },
    restoreSeconds,
    totalSeconds: (Date.now() - started) / 1000,
  };
  result.servicesHealthOnRestored = healthy;
  await onRestored.stop();
  result.verdict =
    Object.values(healthy).every((status) => status === 200) &&
    result.missingBeforePoint === 0 &&
    result.presentAfterPoint === 0 &&
    before.length > 0 &&
    acknowledgedAfter.length > 0
      ? 'passed'
      : 'FAILED';
  process.stdout.write(`\n${JSON.stringify(result, null, 2)}\n`);
  restored.stop('fast');
  return result.verdict === 'passed';
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  log('drill failed', { error: error.stack ?? String(error) });
} finally {
  for (const system of systems) await system.stop().catch(() => undefined);
  for (const dir of [dirs.primary, dirs.restored]) if (existsSync(join(dir, 'postmaster.pid'))) new Cluster(dir, 0).stop('immediate');
  if (!args.keep) rmSync(root, { recursive: true, force: true });
  else log('kept', { root });
}
process.exit(ok ? 0 : 1);
