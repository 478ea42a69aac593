// `npm test`: the whole suite. Build and typecheck; then, side by side against the real servers, the checks (lint,
// formatting, contract and migration drift, deployment files: tools/dev/checks.mjs) followed by the unit and service
// lanes, the system lane, and the browser lane; npm start's own test last.
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
function start(name, cmd, args, { show = false } = {}) {
  const logFile = join(logs, `${name}.log`);
  const timesFile = join(logs, `${name}.times.json`);
  const fd = show ? null : openSync(logFile, 'w');
  const out = fd ?? 'inherit';
  const child = spawn(process.execPath, [join(ROOT, 'tools/dev/timed.mjs'), timesFile, cmd, ...args], {
    cwd: ROOT,
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
  // Every lane needs only the build, so all start now, in three streams side by side: the checks (mostly one core of
  // lint), then the unit and service lanes (they mostly wait on PostgreSQL, Redis and NATS); the system lane; the
  // browser lane, the longest. Measured on 2 cores (docs/benchmarks.md, "The suite's schedule"): the lanes use less
  // than one core each when alone, so the run is bounded by the CPU the whole suite needs, not by one lane after
  // another. The system lane runs two projects at a time: the gateway's files take most of it, and the other
  // projects' (notifications' email-worker-killed alone is over a minute) then run beside them, not after.
  step('three streams side by side: checks, unit and service; system; browser');
  const checksThenFast = (async () => [
    await start('checks', 'node', ['tools/dev/checks.mjs']),
    await lane('unit', 2),
    await lane('service', 2),
  ])();
  const streams = await Promise.all([checksThenFast, lane('system', 2, {}, ['--exclude=web-e2e']), lane('browser', 1)]);
  finished.push(...streams.flat());
  // npm start's own test (web-e2e's system lane) builds the tree as `npm start` does, and Nx may put a build's outputs
  // back from its cache meanwhile: an app another file starts at that moment is not there (seen: profiles' main.js).
  // So it runs after the others, on its own.
  finished.push(await lane('system', 1, { show: true, logName: 'system-npm-start' }, ['--projects=web-e2e']));
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
for (const s of summaries.filter((x) => x.failed > 0))
  log(`failed in ${s.project}: ${s.failedFiles.map((f) => relative(ROOT, f.file)).join(', ')}`);
log(
  `finished in ${Math.round((Date.now() - started) / 1000)} s (${laneTimes.join('; ')}); ${total('files')} test files in ${summaries.length} project lanes; screenshots in test-results/screenshots`,
);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
await servers.stop();
// A skipped test is a test that did not run: it fails the suite rather than hiding.
if (checksFailed) log('the checks failed: see their output above (test-results/logs/checks.log)');
if (checksFailed || jestFailed || failed > 0 || passed === 0 || skipped > 0) process.exit(1);
