import pg from 'pg';
import { retry } from '@digicard/config';

/** The services that keep data, each in the PostgreSQL schema of its name. */
export const SERVICE_SCHEMAS = ['identity', 'profiles', 'teams', 'orders', 'payments', 'notifications'] as const;
export type ServiceSchema = (typeof SERVICE_SCHEMAS)[number];

/** The login role a service connects as when nothing else names it (development and tests). */
export const serviceRoleName = (service: ServiceSchema): string => `digicard_${service}`;

export interface ServiceRole {
  service: ServiceSchema;
  /** The login role; `digicard_<service>` by default. */
  role?: string;
  /** Set as the role's password when given (compose, Kubernetes); local trust authentication needs none. */
  password?: string;
}

/**
 * The URL a service connects with: the admin URL's server and database, as the service's own role (and password).
 */
export function serviceDatabaseUrl(adminUrl: string, service: ServiceSchema, password?: string): string {
  const url = new URL(adminUrl);
  url.username = serviceRoleName(service);
  url.password = password ? encodeURIComponent(password) : '';
  return url.toString();
}

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Catalog updates of two runners at once (roles are cluster-wide; tests make databases in parallel) can collide. */
function retryCatalog<T>(work: () => Promise<T>): Promise<T> {
  return retry(work, {
    attempts: 5,
    delayMs: (attempt) => 50 * attempt,
    retryOn: (error) => ['XX000', '40001', '40P01', '23505'].includes((error as { code?: string }).code ?? ''),
  });
}

/**
 * One PostgreSQL role per service, with rights on its own schema only. Idempotent, and safe to run from several
 * places at once. `adminUrl` names the application's database and a user that may create roles and owns the
 * database (a superuser in development, tests and compose). For each service it:
 *
 * - creates the login role when it is missing (roles are cluster-wide: a fixed name, created once), and sets its
 *   password when one is given;
 * - grants it CONNECT and CREATE on this database: drizzle's migrator runs `CREATE SCHEMA IF NOT EXISTS`, which
 *   PostgreSQL checks against the database's CREATE right even when the schema exists, and the first migration
 *   creates the service's schema, which the role then owns. It gets no right on any other schema;
 * - lets it create its migrations table in the shared `drizzle` schema (created here, owned by the admin), where it
 *   owns only its own `__migrations_<service>` table;
 * - hands it a schema (and its tables, sequences, types and functions) and migrations table that an earlier
 *   version created as the admin user, so that an existing database moves to per-service roles on the next start.
 */
export async function ensureServiceRoles(
  adminUrl: string,
  roles: ServiceRole[] = SERVICE_SCHEMAS.map((service) => ({ service })),
): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ db: string; superuser: boolean }>(
      'SELECT current_database() AS db, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser',
    );
    const { db, superuser } = rows[0]!;
    for (const { service, role = serviceRoleName(service), password } of roles) {
      await retryCatalog(() =>
        client.query(`DO $$ BEGIN CREATE ROLE ${ident(role)} LOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`),
      );
      if (password) await retryCatalog(() => client.query(`ALTER ROLE ${ident(role)} LOGIN PASSWORD ${client.escapeLiteral(password)}`));
      // Without superuser, handing objects to the role needs membership in it (PostgreSQL's rule for ALTER ... OWNER).
      if (!superuser) await retryCatalog(() => client.query(`GRANT ${ident(role)} TO CURRENT_USER`)).catch(() => undefined);
      await retryCatalog(() => client.query(`GRANT CONNECT, CREATE ON DATABASE ${ident(db)} TO ${ident(role)}`));
    }
    await retryCatalog(async () => {
      await client.query('BEGIN');
      try {
        // One runner at a time per database for the schema work.
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('digicard:service-roles'))`);
        await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
        for (const { service, role = serviceRoleName(service) } of roles) {
          await client.query(`GRANT USAGE, CREATE ON SCHEMA drizzle TO ${ident(role)}`);
          await adopt(client, service, role);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  } finally {
    await client.end();
  }
}

/** Makes `role` the owner of the service's schema and everything in it, and of its migrations table. */
async function adopt(client: pg.Client, service: ServiceSchema, role: string): Promise<void> {
  const owned = await client.query<{ owner: string }>('SELECT nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = $1', [
    service,
  ]);
  if (owned.rows[0] && owned.rows[0].owner.replace(/"/g, '') !== role) {
    await client.query(`ALTER SCHEMA ${ident(service)} OWNER TO ${ident(role)}`);
  }
  const statements = async (sql: string, params: unknown[]) => {
    for (const { statement } of (await client.query<{ statement: string }>(sql, params)).rows) await client.query(statement);
  };
  // Tables first: a table's new owner takes the sequences of its serial columns with it.
  await statements(
    `SELECT format('ALTER %s %I.%I OWNER TO %I', CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, n.nspname, c.relname, $2::text) AS statement
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relowner <> $2::regrole`,
    [service, role],
  );
  await statements(
    `SELECT format('ALTER SEQUENCE %I.%I OWNER TO %I', n.nspname, c.relname, $2::text) AS statement
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'S' AND c.relowner <> $2::regrole
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))`,
    [service, role],
  );
  await statements(
    `SELECT format('ALTER TYPE %I.%I OWNER TO %I', n.nspname, t.typname, $2::text) AS statement
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typtype IN ('e', 'd', 'r', 'm') AND t.typowner <> $2::regrole`,
    [service, role],
  );
  await statements(
    `SELECT format('ALTER ROUTINE %I.%I(%s) OWNER TO %I', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), $2::text) AS statement
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND p.proowner <> $2::regrole`,
    [service, role],
  );
  await statements(
    `SELECT format('ALTER TABLE drizzle.%I OWNER TO %I', c.relname, $2::text) AS statement
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'drizzle' AND c.relname = $1 AND c.relkind = 'r' AND c.relowner <> $2::regrole`,
    [`__migrations_${service}`, role],
  );
}
