// `npm run checks`: the checks of the tree that need its builds but run no test: lint (type-aware, zero warnings,
// module boundaries), formatting, contract and migration drift, deployment files. Each runs even when one before it
// failed, so one run names every failure; the exit code is 1 when any failed. `npm test` runs this beside its unit and
// service lanes (they mostly wait on PostgreSQL, Redis and NATS; lint is one busy core), after the build.
import { spawnSync } from 'node:child_process';
import { ROOT, log } from './lib.mjs';

/** @type {{ name: string, cmd: string, args: string[], quiet?: boolean }[]} */
const CHECKS = [
  // Computes the project graph the module-boundary rule reads.
  { name: 'project graph', cmd: 'npx', args: ['nx', 'show', 'projects'], quiet: true },
  { name: 'lint (type-aware, zero warnings, module boundaries)', cmd: 'npx', args: ['eslint', '--max-warnings=0', '.'] },
  {
    name: 'formatting (Prettier; `npm run format` writes it)',
    cmd: 'npx',
    args: ['prettier', '--check', '--log-level=warn', '**/*.{ts,tsx,mjs,cjs,js,css}'],
  },
  { name: 'OpenAPI description', cmd: 'node', args: ['tools/dev/openapi.mjs', '--check'] },
  { name: 'NATS permissions', cmd: 'node', args: ['tools/dev/nats-config.mjs', '--check'] },
  { name: 'Redis users', cmd: 'node', args: ['tools/dev/redis-config.mjs', '--check'] },
  { name: 'migrations', cmd: 'node', args: ['tools/dev/migrations-check.mjs'] },
  { name: 'deployment files', cmd: 'node', args: ['tools/deploy-check/check.mjs'] },
];

const started = Date.now();
const failed = [];
for (const { name, cmd, args, quiet } of CHECKS) {
  const stepStarted = Date.now();
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: quiet ? 'ignore' : 'inherit' });
  const seconds = Math.round((Date.now() - stepStarted) / 1000);
  if (result.error || result.status !== 0) {
    failed.push(name);
    log(`✗ ${name} failed (${result.error?.message ?? `exit code ${result.status}`}, ${seconds} s)`);
  } else log(`✓ ${name} (${seconds} s)`);
}
log(`checks finished in ${Math.round((Date.now() - started) / 1000)} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
