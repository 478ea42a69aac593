/**
 * Creates (or updates) one PostgreSQL role per service with rights on its own schema only (see `ensureServiceRoles`).
 * Run once before the services start, by an account that may create roles and owns the database: compose's
 * `db-roles` service and the Kubernetes Job `db-roles` run it from the image.
 *
 *   DATABASE_ADMIN_URL=postgres://admin:…@host:5432/digicard \
 *   IDENTITY_DATABASE_URL=postgres://digicard_identity:…@host:5432/digicard … \
 *   node libs/db/dist/src/service-roles-main.js
 *
 * Each `<SERVICE>_DATABASE_URL` is the URL that service connects with: its user is the role created, its password the
 * role's password. A service without one gets the role `digicard_<service>` without a password (trust
 * authentication, development only). Nothing secret is logged. Exit codes: 0 done, 78 bad settings, 1 failure.
 */
import { SERVICE_SCHEMAS, ensureServiceRoles, type ServiceRole } from './roles.js';

function settings(env: NodeJS.ProcessEnv): { adminUrl: string; roles: ServiceRole[] } {
  const adminUrl = env['DATABASE_ADMIN_URL'];
  if (!adminUrl) throw new Error('DATABASE_ADMIN_URL is required');
  const roles = SERVICE_SCHEMAS.map((service): ServiceRole => {
    const own = env[`${service.toUpperCase()}_DATABASE_URL`];
    if (!own) return { service };
    const url = new URL(own);
    if (!url.username) throw new Error(`${service.toUpperCase()}_DATABASE_URL names no user`);
    return { service, role: decodeURIComponent(url.username), ...(url.password ? { password: decodeURIComponent(url.password) } : {}) };
  });
  return { adminUrl, roles };
}

let parsed: ReturnType<typeof settings>;
try {
  parsed = settings(process.env);
} catch (error) {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', msg: `bad settings: ${(error as Error).message}` })}\n`);
  process.exit(78);
}
try {
  await ensureServiceRoles(parsed.adminUrl, parsed.roles);
  process.stdout.write(
    `${JSON.stringify({ level: 'info', msg: 'service roles ready', roles: parsed.roles.map((r) => r.role ?? `digicard_${r.service}`) })}\n`,
  );
} catch (error) {
  process.stderr.write(
    `${JSON.stringify({ level: 'error', msg: 'service roles failed', code: (error as { code?: string }).code ?? null, error: (error as Error).message })}\n`,
  );
  process.exit(1);
}
