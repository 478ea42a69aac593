// `npm test`: the whole suite. Lint (type-aware, module boundaries), typecheck and build, contract and migration
// drift, deployment files, then the test lanes (unit, service, system, browser) against the real servers.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, ensureChromium, ensureDebianPackages, ensureInstalled, ensureServers, fail, log, run } from './lib.mjs';

const started = Date.now();
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
]);
ensureChromium();

step('build and typecheck every project');
run('npx', ['nx', 'run-many', '-t', 'build', 'typecheck', '--parallel=2', '--output-style=static']);

step('lint (type-aware, zero warnings, module boundaries)');
run('npx', ['nx', 'show', 'projects'], { stdio: 'ignore' }); // computes the project graph the boundary rule reads
run('npx', ['eslint', '--max-warnings=0', '.']);

step('formatting (Prettier; `npm run format` writes it)');
run('npx', ['prettier', '--check', '--log-level=warn', '**/*.{ts,tsx,mjs,cjs,js,css}']);

step('contract and migration drift');
run('node', ['tools/dev/openapi.mjs', '--check']);
run('node', ['tools/dev/nats-config.mjs', '--check']);
run('node', ['tools/dev/redis-config.mjs', '--check']);
run('node', ['tools/dev/migrations-check.mjs']);

step('deployment files');
run('node', ['tools/deploy-check/check.mjs']);

step('tests');
// Jest through Nx, lane by lane, cheapest first (jest.preset.cjs says which file is in which lane): unit tests of every
// project, then the in-process service tests, then the whole-system tests (the apps as processes), then the browser.
// Every lane runs even when an earlier one failed, so one run shows every failure. Each lane target writes its counts
// to test-results/jest/<project>.<lane>.json (restored by Nx when the result comes from its cache).
const results = join(ROOT, 'test-results', 'jest');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const LANES = [
  // Unit files are quick and independent: two projects at a time.
  { lane: 'unit', parallel: 2 },
  // Each service file has its own database and NATS server: two projects at a time.
  { lane: 'service', parallel: 2 },
  // Processes and Chromium: one project at a time, DIGICARD_SYSTEM_WORKERS (system) or DIGICARD_BROWSER_WORKERS (browser) files of it at once (tools/dev/jest-lane.cjs).
  { lane: 'system', parallel: 1 },
  { lane: 'browser', parallel: 1 },
];
// CPU seconds of everything a lane ran (the processes it waited for, Chromium and the apps included), from this
// process's children times: a lane far below two CPU-seconds per second on 2 cores mostly waits, and more files at
// once would shorten it.
const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const childCpuSeconds = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // After the name: state is field 3, cutime 16 and cstime 17 (proc(5)).
  return (Number(fields[13]) + Number(fields[14])) / ticks;
};
const laneTimes = [];
let jestFailed = false;
for (const { lane, parallel } of LANES) {
  const laneStarted = Date.now();
  const laneCpu = childCpuSeconds();
  step(`${lane} tests`);
  const run = spawnSync('npx', ['nx', 'run-many', '-t', lane, `--parallel=${parallel}`, '--output-style=static'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) jestFailed = true;
  const wall = (Date.now() - laneStarted) / 1000;
  const cpu = childCpuSeconds() - laneCpu;
  laneTimes.push(`${lane} ${Math.round(wall)} s, ${Math.round(cpu)} CPU-s`);
}
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
  `finished in ${Math.round((Date.now() - started) / 1000)} s (lanes: ${laneTimes.join(', ')}); ${total('files')} test files in ${summaries.length} project lanes; screenshots in test-results/screenshots`,
);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
await servers.stop();
// A skipped test is a test that did not run: it fails the suite rather than hiding.
if (jestFailed || failed > 0 || passed === 0 || skipped > 0) process.exit(1);
