// Fails when a service's drizzle schema has changes that no committed migration holds
// (someone edited src/db/schema.ts and forgot `nx run <service>:db-generate`).
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, fail, log } from './lib.mjs';

const services = ['identity', 'profiles', 'teams', 'orders', 'payments', 'notifications'];
const drift = [];
for (const service of services) {
  const dir = join(ROOT, 'apps', service);
  // drizzle-kit wants a path relative to the project (it prefixes absolute ones with "./").
  const scratch = '.migrations-check';
  rmSync(join(dir, scratch), { recursive: true, force: true });
  cpSync(join(dir, 'drizzle'), join(dir, scratch), { recursive: true });
  const result = spawnSync(
    'npx',
    [
      'drizzle-kit',
      'generate',
      '--dialect',
      'postgresql',
      '--schema',
      './dist/src/db/schema.js',
      '--out',
      scratch,
      '--name',
      'drift-check',
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  rmSync(join(dir, scratch), { recursive: true, force: true });
  const output = `${result.stdout}\n${result.stderr}`;
  if (/No schema changes/i.test(output)) continue;
  if (/migration file/i.test(output)) drift.push(service);
  else fail(`drizzle-kit generate failed for ${service} (exit ${result.status}):\n${output}`);
}
if (drift.length > 0)
  fail(
    `Schema changes without a committed migration in: ${drift.join(', ')}. Run \`npx nx run <service>:db-generate\` and commit apps/<service>/drizzle.`,
  );
log(`migrations match the schemas of ${services.length} services.`);
