import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import pg from 'pg';
import { ensureServiceRoles, serviceDatabaseUrl } from '../src/index.js';

const ADMIN_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function query(url: string, sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end();
  }
}

/**
 * A database an earlier version made as the admin user (every schema the admin's) moves to the per-service roles:
 * its schema, tables, serial sequences, enum types and migrations table are handed to the service's role, which can
 * then use them, while the others are refused. Running it several times at once (npm test makes databases in
 * parallel; roles are cluster-wide) neither fails nor changes the result.
 */
describe('ensureServiceRoles', () => {
  const name = `digicard_roles_${randomBytes(4).toString('hex')}`;
  const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const old = new pg.Client({ connectionString: url });
    await old.connect();
    await old.query(`
      CREATE SCHEMA orders;
      CREATE TYPE orders.state AS ENUM ('new', 'done');
      CREATE TABLE orders.enquiries (id serial PRIMARY KEY, state orders.state NOT NULL DEFAULT 'new');
      CREATE SCHEMA drizzle;
      CREATE TABLE drizzle.__migrations_orders (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint);
    `);
    await old.end();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('hands an existing schema to its role, at once from several runners, and refuses it to the others', async () => {
    await Promise.all([ensureServiceRoles(url), ensureServiceRoles(url), ensureServiceRoles(url)]);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const owners = await admin.query<{ what: string; owner: string }>(`
      SELECT 'schema' AS what, nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = 'orders'
      UNION ALL SELECT c.relname, c.relowner::regrole::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE (n.nspname = 'orders' AND c.relkind IN ('r', 'S')) OR (n.nspname = 'drizzle' AND c.relname LIKE '__migrations_orders%')
      UNION ALL SELECT 'type', typowner::regrole::text FROM pg_type WHERE typname = 'state'`);
    await admin.end();
    assert.ok(owners.rows.length >= 6, JSON.stringify(owners.rows));
    for (const row of owners.rows) assert.equal(row.owner, 'digicard_orders', row.what);

    const orders = serviceDatabaseUrl(url, 'orders');
    assert.equal(await query(orders, `INSERT INTO orders.enquiries (state) VALUES ('done')`), 'ok');
    assert.equal(await query(orders, 'ALTER TABLE orders.enquiries ADD COLUMN note text'), 'ok'); // a later migration
    assert.equal(await query(orders, 'INSERT INTO drizzle.__migrations_orders (hash, created_at) VALUES ($$x$$, 1)'), 'ok');
    assert.equal(await query(serviceDatabaseUrl(url, 'identity'), 'SELECT count(*) FROM orders.enquiries'), '42501');
    assert.equal(await query(serviceDatabaseUrl(url, 'identity'), 'SELECT count(*) FROM drizzle.__migrations_orders'), '42501');
  });
});
