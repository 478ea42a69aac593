import { createHash } from 'node:crypto';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export type Database = NodePgDatabase<Record<string, never>>;
export type Pool = pg.Pool;

export function createPool(databaseUrl: string, applicationName: string, max = 10): pg.Pool {
  return new pg.Pool({
    connectionString: databaseUrl,
    application_name: applicationName,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
}

export function createDatabase(pool: pg.Pool): Database {
  return drizzle({ client: pool });
}

/** A stable 64-bit advisory-lock key for a name, so that replicas and services never migrate at once. */
function lockKey(name: string): bigint {
  return createHash('sha256').update(name).digest().readBigInt64BE(0);
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
