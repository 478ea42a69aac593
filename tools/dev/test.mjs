// `npm test`: the whole suite, against the real servers. Build and typecheck; the checks (lint, formatting, contract and
// migration drift, deployment files: tools/dev/checks.mjs) beside the unit and service lanes; the system and browser
// files of every project in one pool; last, npm start's own test and the short run of the production layout, each alone.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, ensureChromium, ensureDebianPackages, ensureInstalled, ensureServers, fail, log, run } from './lib.mjs';

const started = Date.now();
// Node's on-disk compile cache (V8 code cache) for every Node process of the run: Nx, Jest, tsc, ESLint and the apps
// the tests start (several hundred starts of the same nine bundles) compile each file once.
process.env.NODE_COMPILE_CACHE ??= join(ROOT, 'node_modules', '.cache', 'node-compile-cache');
const step = (name) => log(`── ${name} (${Math.round((Date.now() - started) / 1000)} s)`);

step('dependencies and servers');
ensureInstalled();
// Sets TEST_DATABASE_URL and TEST_REDIS_URL for the tests to wherever each server was found or started.
const servers = await ensureServers('test');
ensureDebianPackages([
  ['docker-compose', 'docker-compose'],
  ['zbarimg', 'zbar-tools'],
  // The print proofs' tests read the PDFs (pdfinfo, pdftotext) and turn them into images for zbarimg (pdftoppm).
  ['pdftoppm', 'poppler-utils'],
  // The short run of the production layout (tools/cluster's system test): HAProxy in front of PostgreSQL and the
  // gateways, Sentinel watching Redis.
  ['haproxy', 'haproxy'],
  ['redis-sentinel', 'redis-sentinel'],
]);
ensureChromium();

step('build and typecheck every project');
run('npx', ['nx', 'run-many', '-t', 'build', 'typecheck', '--parallel=2', '--output-style=static']);

// What runs when: see the streams below. DIGICARD_TEST_SERIAL=1 runs everything one after another (when a failure
// looks like contention).
// Jest through Nx, lane by lane (jest.preset.cjs says which file is in which lane). Every lane runs even when an
// earlier one or a check failed, so one run shows every failure. Each lane target writes its counts to
// test-results/jest/<project>.<lane>.json (restored by Nx when the result comes from its cache).
const results = join(ROOT, 'test-results', 'jest');
const logs = join(ROOT, 'test-results', 'logs');
rmSync(results, { recursive: true, force: true });
rmSync(logs, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
mkdirSync(logs, { recursive: true });
const serial = process.env.DIGICARD_TEST_SERIAL === '1';

/**
 * Starts a command through tools/dev/timed.mjs with its output to test-results/logs/<name>.log; resolves when it
 * ends, with its exit code and its wall and CPU seconds. `show` streams the output here as it comes instead.
 */
function start(name, cmd, args, { show = false, env = {}, cwd = ROOT } = {}) {
  const logFile = join(logs, `${name}.log`);
  const timesFile = join(logs, `${name}.times.json`);
  const fd = show ? null : openSync(logFile, 'w');
  const out = fd ?? 'inherit';
  const child = spawn(process.execPath, [join(ROOT, 'tools/dev/timed.mjs'), timesFile, cmd, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
  });
  if (fd !== null) closeSync(fd);
  return new Promise((resolve) => {
    child.once('exit', () => {
      const times = existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : { status: 1, wallSeconds: 0, cpuSeconds: 0 };
      if (!show) {
        log(`── output of ${name}`);
        process.stdout.write(readFileSync(logFile, 'utf8'));
      }
      log(
        `── ${name} ${times.status === 0 ? 'passed' : 'FAILED'} in ${Math.round(times.wallSeconds)} s, ${Math.round(times.cpuSeconds)} CPU-s`,
      );
      resolve({ name, ...times });
    });
  });
}

/** A lane of every project, `parallel` projects at once; the builds it depends on were made above. */
const lane = (name, parallel, options = {}, extra = []) =>
  start(
    options.logName ?? name,
    'npx',
    ['nx', 'run-many', '-t', name, `--parallel=${parallel}`, '--excludeTaskDependencies', '--output-style=static', ...extra],
    options,
  );

/**
 * The files of `lanes` (comma-separated) of every project in one Jest run, `workers` at a time, the slowest first
 * (tools/dev/jest.pool.config.cjs; each file keeps its lane's time-out); `exclude`: project roots or files left out.
 */
const pool = (name, lanes, workers, { exclude = '', show = false } = {}) =>
  start(
    name,
    process.execPath,
    [
      '--experimental-vm-modules',
      '--disable-warning=ExperimentalWarning',
      join(ROOT, 'node_modules/jest/bin/jest.js'),
      '--config',
      join(ROOT, 'tools/dev/jest.pool.config.cjs'),
      `--maxWorkers=${workers}`,
      '--forceExit',
    ],
    { show, env: { DIGICARD_TEST_LANE: lanes, DIGICARD_POOL_EXCLUDE: exclude } },
  );

const finished = [];
if (serial) {
  step('checks, then every lane one after the other');
  for (const run of [
    () => start('checks', 'node', ['tools/dev/checks.mjs'], { show: true }),
    () => lane('unit', 2, { show: true }),
    () => lane('service', 2, { show: true }),
    () => lane('system', 1, { show: true }),
    () => lane('browser', 1, { show: true }),
  ])
    finished.push(await run());
} else {
  // After the build: the checks (mostly one core of lint) beside the unit and service lanes (they mostly wait on
  // PostgreSQL, Redis and NATS); then the system and browser files in one pool. Until 2026-11-29 those were two Nx
  // lanes side by side (the system lane two projects at a time, two files each; the browser lane two files): up to six
  // systems at the peak, then the browser lane's last files alone for over a minute. The pool keeps four files going
  // to the end, the slowest first (docs/benchmarks.md, "The suite's schedule"). Starting every lane at once after the
  // build was tried (2026-11-28): the load reached 40 and apps took over 30 s to answer their health checks; 96 tests
  // failed on it.
  step('checks beside the unit and service files in one pool');
  const checks = start('checks', 'node', ['tools/dev/checks.mjs']);
  // One Jest run for the unit and service files of every project, not an Nx task per project and lane: each of those
  // started Jest of its own (26 projects; the unit lane 45 s and 52 CPU-s for 170 tests, as a pool 23 s and 32 CPU-s).
  // The per-project lane targets stay for `nx affected` and a developer's runs.
  finished.push(await pool('unit+service', 'unit,service', process.env.DIGICARD_SERVICE_POOL_WORKERS ?? '3', { show: true }));
  finished.push(await checks);
  step('the system and browser files in one pool');
  // npm start's test and the production layout's run stay out, for after.
  finished.push(
    await pool('system+browser', 'system,browser', process.env.DIGICARD_POOL_WORKERS ?? '4', {
      exclude: 'tools/cluster,apps/web-e2e/test/npm-start.e2e.spec.ts',
    }),
  );
  // Last, each on its own: npm start's own test (web-e2e's system lane), which builds the tree as `npm start` does (Nx
  // may put a build's outputs back from its cache meanwhile, and an app another file started at that moment was not
  // there: profiles' main.js, seen once); then the short run of the production layout (tools/cluster: 3 NATS servers,
  // Redis with Sentinel, PostgreSQL with a replica, 14 app processes), which needs the machine's cores to itself to
  // keep its recovery targets.
  step("npm start's test, then the production layout under faults");
  // That one file, not web-e2e's whole system lane: its other system file (shared-system.e2e) ran in the pool.
  finished.push(
    await start('system-npm-start', process.execPath, [join(ROOT, 'tools/dev/jest-lane.cjs'), 'system', 'test/npm-start.e2e.spec.ts'], {
      show: true,
      cwd: join(ROOT, 'apps/web-e2e'),
    }),
  );
  finished.push(await lane('system', 1, { show: true, logName: 'system-cluster' }, ['--projects=cluster']));
}
const laneTimes = finished.map((f) => `${f.name} ${Math.round(f.wallSeconds)} s, ${Math.round(f.cpuSeconds)} CPU-s`);
const checksFailed = finished.some((f) => f.name === 'checks' && f.status !== 0);
const jestFailed = finished.some((f) => f.name !== 'checks' && f.status !== 0);
const summaries = readdirSync(results)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')));
if (summaries.length === 0) fail('no test results were written: did the test targets run?');
const total = (key) => summaries.reduce((sum, s) => sum + s[key], 0);
const passed = total('passed');
// A project whose run crashed before writing its counts is one failure too.
const failed = total('failed') + (jestFailed && total('failed') === 0 ? 1 : 0);
const skipped = total('skipped');
for (const s of summaries.filter((x) => x.failed > 0)) {
  log(`failed in ${s.project}: ${s.failedFiles.map((f) => relative(ROOT, f.file)).join(', ')}`);
  for (const f of s.failedFiles)
    for (const t of f.tests?.length ? f.tests : f.error ? [{ name: '(the file did not run)', message: f.error }] : [])
      process.stdout.write(`  ✕ ${relative(ROOT, f.file)} › ${t.name}\n${t.message.replace(/^/gm, '      ')}\n`);
}
log(
  `finished in ${Math.round((Date.now() - started) / 1000)} s (${laneTimes.join('; ')}); ${total('files')} test files in ${summaries.length} project lanes; screenshots in test-results/screenshots`,
);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
await servers.stop();
// A skipped test is a test that did not run: it fails the suite rather than hiding.
if (checksFailed) log('the checks failed: see their output above (test-results/logs/checks.log)');
if (checksFailed || jestFailed || failed > 0 || passed === 0 || skipped > 0) process.exit(1);
