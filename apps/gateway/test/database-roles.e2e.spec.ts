import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import pg from 'pg';
import { TestSystem } from '@digicard/testing';

const SERVICE_SCHEMAS = ['identity', 'profiles', 'teams', 'orders', 'payments', 'notifications'] as const;
type ServiceSchema = (typeof SERVICE_SCHEMAS)[number];
const serviceRoleName = (service: ServiceSchema) => `digicard_${service}`;

/** Runs one statement as a role; says `ok` or the SQLSTATE it was refused with. */
async function as(url: string, sql: string): Promise<string> {
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
 * One database role per service with rights on its own schema only: every service runs (and migrates) as its own
 * role, owns its schema, and is refused every other service's schema. Before, every service connected as the
 * admin user and could read, for example, identity's password hashes from orders.
 */
describe('one PostgreSQL role per service', () => {
  let system: TestSystem;
  /** One table of each service's schema, and its migrations table. */
  const tables: Record<ServiceSchema, string> = {
    identity: 'identity.accounts',
    profiles: 'profiles.profiles',
    teams: 'teams.outbox',
    orders: 'orders.enquiries',
    payments: 'payments.outbox',
    notifications: 'notifications.mail_log',
  };

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['identity', 'profiles', 'teams', 'orders', 'payments', 'notifications'] });
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('runs each service as its own role, which owns its schema and migrations table', async () => {
    const connected = await system.sql<{ usename: string; application_name: string }>(
      'SELECT DISTINCT usename, application_name FROM pg_stat_activity WHERE datname = current_database() AND application_name = ANY($1)',
      [[...SERVICE_SCHEMAS]],
    );
    for (const service of SERVICE_SCHEMAS) {
      assert.deepEqual(
        connected.filter((c) => c.application_name === service).map((c) => c.usename),
        [serviceRoleName(service)],
        service,
      );
    }
    const owners = await system.sql<{ nspname: string; owner: string }>(
      'SELECT nspname, nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = ANY($1)',
      [[...SERVICE_SCHEMAS]],
    );
    assert.deepEqual(
      Object.fromEntries(owners.map((o) => [o.nspname, o.owner])),
      Object.fromEntries(SERVICE_SCHEMAS.map((s) => [s, serviceRoleName(s)])),
    );
    const migrations = await system.sql<{ relname: string; owner: string }>(
      `SELECT c.relname, c.relowner::regrole::text AS owner FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'drizzle' AND c.relkind = 'r'`,
    );
    for (const service of SERVICE_SCHEMAS)
      assert.equal(migrations.find((m) => m.relname === `__migrations_${service}`)?.owner, serviceRoleName(service), service);
  });

  it('lets each role read its own schema and refuses it every other service schema (SELECT, INSERT) and their migrations tables', async () => {
    const refused: string[] = [];
    const allowed: string[] = [];
    for (const role of SERVICE_SCHEMAS) {
      const url = system.serviceDatabaseUrl(role);
      assert.equal(await as(url, `SELECT count(*) FROM ${tables[role]}`), 'ok', `${role} reads its own ${tables[role]}`);
      for (const other of SERVICE_SCHEMAS.filter((s) => s !== role)) {
        const select = await as(url, `SELECT count(*) FROM ${tables[other]}`);
        const insert = await as(url, `INSERT INTO ${tables[other]} DEFAULT VALUES`);
        const history = await as(url, `SELECT count(*) FROM drizzle.__migrations_${other}`);
        // 42501: insufficient_privilege.
        for (const [what, code] of [
          ['SELECT', select],
          ['INSERT', insert],
          ['migrations', history],
        ] as const) {
          (code === '42501' ? refused : allowed).push(`${role} ${what} ${other}: ${code}`);
        }
      }
    }
    assert.deepEqual(allowed, []);
    assert.equal(refused.length, 6 * 5 * 3);
  });

  it('gives a role no right to take over another schema or the public schema', async () => {
    const orders = system.serviceDatabaseUrl('orders');
    assert.equal(await as(orders, 'CREATE TABLE identity.stolen (x int)'), '42501');
    assert.equal(await as(orders, 'ALTER TABLE identity.accounts ADD COLUMN x int'), '42501');
    assert.equal(await as(orders, 'GRANT USAGE ON SCHEMA identity TO digicard_orders'), '42501');
    assert.equal(await as(orders, 'CREATE TABLE public.stolen (x int)'), '42501');
    assert.equal(await as(orders, 'SET ROLE digicard_identity'), '42501');
  });
});
