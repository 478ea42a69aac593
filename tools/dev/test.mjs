// `npm test`: the whole suite. Lint (type-aware, module boundaries), typecheck and build, contract and migration
// drift, deployment files, then unit, integration and browser tests against the real servers.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, ensureChromium, ensureDebianPackages, ensureInstalled, ensureServers, fail, log, run } from './lib.mjs';

const started = Date.now();
const step = (name) => log(`── ${name} (${Math.round((Date.now() - started) / 1000)} s)`);

step('dependencies and servers');
ensureInstalled();
await ensureServers({
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
});
ensureDebianPackages([
  ['nats-server', 'nats-server'],
  ['docker-compose', 'docker-compose'],
  ['zbarimg', 'zbar-tools'],
]);
ensureChromium();

step('build and typecheck every project');
run('npx', ['nx', 'run-many', '-t', 'build', 'typecheck', '--parallel=2', '--output-style=static']);

step('lint (type-aware, zero warnings, module boundaries)');
run('npx', ['nx', 'show', 'projects'], { stdio: 'ignore' }); // computes the project graph the boundary rule reads
run('npx', ['eslint', '--max-warnings=0', '.']);

step('contract and migration drift');
run('node', ['tools/dev/openapi.mjs', '--check']);
run('node', ['tools/dev/migrations-check.mjs']);

step('deployment files');
run('node', ['tools/deploy-check/check.mjs']);

step('tests');
const roots = ['libs', 'apps', 'tools'];
const files = [];
for (const root of roots) {
  for (const project of readdirSync(join(ROOT, root))) {
    const dir = join(ROOT, root, project, 'dist', 'test');
    try {
      if (!statSync(dir).isDirectory()) continue;
    } catch {
      continue;
    }
    const walk = (d) => {
      for (const entry of readdirSync(d)) {
        const path = join(d, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.spec\.js$/.test(entry)) files.push(path);
      }
    };
    walk(dir);
  }
}
// Fast unit tests first, then whole-system tests, then the browser.
const rank = (f) => (f.includes('.browser.') ? 2 : f.includes('.integration.') || f.includes('.e2e.') ? 1 : 0);
files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
if (files.length === 0) fail('no test files found: did the build run?');
log(`${files.length} test files:\n${files.map((f) => `   ${relative(ROOT, f)}`).join('\n')}`);

mkdirSync(join(ROOT, 'test-results'), { recursive: true });
const tap = join(ROOT, 'test-results', 'tests.tap');
const result = spawnSync(
  process.execPath,
  [
    '--test',
    '--test-concurrency=1',
    '--test-timeout=300000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files,
  ],
  { cwd: ROOT, stdio: 'inherit' },
);
const report = readFileSync(tap, 'utf8');
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(report)?.[1] ?? 0);
const passed = count('pass');
const failed = count('fail') + count('cancelled');
log(`finished in ${Math.round((Date.now() - started) / 1000)} s; screenshots in test-results/screenshots`);
process.stdout.write(`${passed} passed, ${failed} failed, ${count('skipped')} skipped\n`);
// A skipped test is a test that did not run: it fails the suite rather than hiding.
if (result.status !== 0 || failed > 0 || passed === 0 || count('skipped') > 0 || count('todo') > 0) process.exit(1);
