import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { retry } from '@digicard/config';

export type Database = NodePgDatabase<Record<string, never>>;
export type Pool = pg.Pool;

interface PoolLogger {
  warn(obj: object, msg?: string): void;
}

/**
 * A pool that survives the database going away (a terminated backend, a restart, a failover): every connection,
 * idle or checked out, has an 'error' listener, so a cut connection is dropped and replaced instead of raising an
 * unhandled 'error' event that would end the process. Only the error's code is logged: PostgreSQL's messages may
 * carry query parameters.
 */
export function createPool(databaseUrl: string, applicationName: string, max = 10, logger?: PoolLogger): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    application_name: applicationName,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  const report = (where: string) => (error: unknown) =>
    logger?.warn({ code: errorCodeOf(error), where }, 'database connection lost; it will be replaced');
  // An idle connection that dies is removed by the pool, which then emits 'error' on itself.
  pool.on('error', report('idle'));
  // A checked-out connection (inside a transaction) emits 'error' on the client: its queries fail with it, and the
  // connection is not given back for reuse (pg-pool drops clients that are no longer queryable).
  pool.on('connect', (client) => {
    client.on('error', report('in use'));
  });
  return pool;
}

const CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
  '25006', // read_only_sql_transaction: a former primary after a failover
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|Client was closed and is not queryable|Client has encountered a connection error|timeout exceeded when trying to connect|Connection terminated due to connection timeout/i;

/** The errors of a cause chain (drizzle wraps the driver's error in `cause`). */
function* chain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  let current = error as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    yield current;
    current = current.cause as typeof current;
  }
}

/** The SQLSTATE or system error code of an error or its causes, for logs that must not carry its message. */
export function errorCodeOf(error: unknown): string | undefined {
  for (const e of chain(error)) if (typeof e.code === 'string') return e.code;
  return undefined;
}

/** The database could not be reached or cut the connection: nothing of the statement can be relied on, retry later. */
export function isConnectionError(error: unknown): boolean {
  for (const e of chain(error)) {
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** A serialization failure or a deadlock: PostgreSQL rolled the transaction back, and running it again is the cure. */
export function isSerializationFailure(error: unknown): boolean {
  for (const e of chain(error)) if (e.code === '40001' || e.code === '40P01') return true;
  return false;
}

export interface TransactionRetryOptions {
  /** Attempts in all, the first included. */
  attempts?: number;
  /** No new attempt starts after this long since the first: a caller waiting on an answer (the gateway) gives up then. */
  budgetMs?: number;
}

/**
 * Runs a transaction again when it failed without committing: a connection error before COMMIT was sent (nothing
 * was written), or a serialization failure or deadlock (PostgreSQL rolled it back, also at COMMIT). A connection lost
 * during COMMIT is not retried: the transaction may have committed, and only the caller knows whether doing it
 * again is safe (event handlers are: their processed-message record makes a second run a no-op on redelivery).
 * The work must not have effects outside the database that cannot be repeated (queue jobs use ids derived from
 * their cause, events are recorded in the outbox of the same transaction).
 */
export async function retryTransaction<T>(
  run: (markBodyDone: () => void) => Promise<T>,
  { attempts = 5, budgetMs = 3000 }: TransactionRetryOptions = {},
): Promise<T> {
  const started = Date.now();
  let bodyDone = false;
  let wait = 0;
  return retry(
    () => {
      bodyDone = false;
      return run(() => {
        bodyDone = true;
      });
    },
    {
      attempts,
      // Safe to run again, and the wait (jittered, doubling up to 1 s) ends within the budget.
      retryOn: (error, attempt) => {
        wait = Math.min(1000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2);
        const safe = isSerializationFailure(error) || (isConnectionError(error) && !bodyDone);
        return safe && Date.now() - started + wait <= budgetMs;
      },
      delayMs: () => wait,
    },
  );
}

const transactionScope = new AsyncLocalStorage<{ what: string }>();

/**
 * Runs `work` marked as inside a database transaction (rows it locked stay locked until it returns), named `what`
 * for the error of whoever refuses to run there (a queue producer: see `currentTransaction`). Every transaction of
 * `createDatabase` marks its work so; the event consumer names it after the event it handles.
 */
export function insideTransaction<T>(what: string, work: () => Promise<T>): Promise<T> {
  return transactionScope.run({ what }, work);
}

/** The database transaction the caller runs inside (see `insideTransaction`), if any. */
export function currentTransaction(): { what: string } | undefined {
  return transactionScope.getStore();
}

/**
 * The drizzle database over a pool, whose top-level transactions are retried where that is safe (see
 * `retryTransaction`). Nested transactions (savepoints) are part of their outer one and are not retried alone. The work
 * of each runs `insideTransaction`, so that what must not run while it holds its rows (a queue add) can refuse.
 */
export function createDatabase(pool: pg.Pool, retry: TransactionRetryOptions = {}): Database {
  const db = drizzle({ client: pool });
  const transaction = db.transaction.bind(db);
  db.transaction = (work, config) =>
    retryTransaction(
      (markBodyDone) =>
        transaction(async (tx) => {
          const result = await insideTransaction('a database transaction', () => work(tx));
          markBodyDone();
          return result;
        }, config),
      retry,
    );
  return db;
}

/** A stable 64-bit advisory-lock key for a name, so that replicas and services never migrate at once. */
function lockKey(name: string): bigint {
  return createHash('sha256').update(name).digest().readBigInt64BE(0);
}

/**
 * A service's committed drizzle migrations, found from any of its modules: the same definition then serves the
 * built process (`dist/src/...`) and its in-process tests run from the sources (`src/...`).
 */
export function migrationsFolderOf(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'drizzle', 'meta', '_journal.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no drizzle migrations folder above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return join(dir, 'drizzle');
}

/**
 * Applies the service's committed drizzle migrations. Safe to run twice and from several replicas at once: the
 * migration table records what ran, and an advisory lock serialises the runners. The migrations table stays in
 * drizzle's own schema (see toolchain notes), one table per service.
 */
export async function runMigrations(pool: pg.Pool, service: string, migrationsFolder: string): Promise<void> {
  const client = await pool.connect();
  const key = lockKey(`digicard:migrate`);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key.toString()]);
    await migrate(drizzle({ client }), { migrationsFolder, migrationsTable: `__migrations_${service}` });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [key.toString()]).catch(() => undefined);
    client.release();
  }
}

/** Creates the database named in the URL when it does not exist (development and tests). */
export async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[a-z0-9_]+$/i.test(name)) throw new Error(`Unusual database name "${name}"; create it by hand.`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another runner
      });
    }
  } finally {
    await client.end();
  }
}

export async function pingDatabase(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1');
}
