// `npm test`'s pool: one Jest run over the files of several lanes of every project (`DIGICARD_TEST_LANE=system,browser`),
// so that a fixed number of files run at once from the first to the last, the longest first (jest-sequencer.cjs,
// test-durations.json), instead of one Nx task per project and lane, each with workers of its own, whose last files
// ran alone at the end (2026-11-29: the browser lane ran 72 s on its own after the system lane). What stays out of the
// pool runs after it, alone: `DIGICARD_POOL_EXCLUDE`, a comma-separated list of project roots (tools/cluster) or
// files (apps/web-e2e/test/npm-start.e2e.spec.ts), relative to the repository root.
//
//   DIGICARD_TEST_LANE=system,browser node --experimental-vm-modules node_modules/jest/bin/jest.js \
//     --config tools/dev/jest.pool.config.cjs --maxWorkers=4
const { existsSync, readdirSync } = require('node:fs');
const { join, sep } = require('node:path');
const { laneOf } = require('../../jest.preset.cjs');

const ROOT = join(__dirname, '../..');
const lanes = process.env.DIGICARD_TEST_LANE;
if (!lanes) throw new Error('jest.pool.config.cjs: set DIGICARD_TEST_LANE (system,browser)');
const excluded = (process.env.DIGICARD_POOL_EXCLUDE ?? '')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);

/** Every project with a Jest configuration (apps, libs, tools), but those excluded whole. */
const roots = ['apps', 'libs', 'tools']
  .flatMap((group) => readdirSync(join(ROOT, group)).map((name) => `${group}/${name}`))
  .filter((root) => existsSync(join(ROOT, root, 'jest.config.cjs')) && !excluded.includes(root))
  .sort();

/** A file left out of the pool, as a `testPathIgnorePatterns` entry (an escaped path ending). */
const fileIgnores = excluded
  .filter((p) => /\.spec\.tsx?$/.test(p))
  .map((p) => `${`${sep}${p.split('/').join(sep)}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * A project's configuration for one lane (its files and its time-out, as its own Nx lane target has them), as its
 * jest.config.cjs makes it with `DIGICARD_TEST_LANE` set to that lane.
 * @param {string} root @param {string} lane
 */
function projectLane(root, lane) {
  const file = require.resolve(join(ROOT, root, 'jest.config.cjs'));
  const before = process.env.DIGICARD_TEST_LANE;
  process.env.DIGICARD_TEST_LANE = lane;
  try {
    delete require.cache[file];
    // What only a run as a whole may set (its order, its reporters) is set once, below.
    const { reporters: _reporters, testSequencer: _sequencer, workerGracefulExitTimeout: _exitTimeout, ...config } = require(file);
    return { ...config, testPathIgnorePatterns: [...config.testPathIgnorePatterns, ...fileIgnores] };
  } finally {
    process.env.DIGICARD_TEST_LANE = before;
    delete require.cache[file];
  }
}

module.exports = {
  rootDir: ROOT,
  // One Jest project per project and lane: each file keeps its lane's time-out (a unit test 30 s, a service test
  // 120 s) when unit and service files run in one pool.
  projects: lanes.split(',').flatMap((lane) => roots.map((root) => projectLane(root, lane))),
  testTimeout: laneOf(lanes).testTimeout,
  // A worker whose shared system or browser server runs exits when told to (tools/dev/jest-environment.cjs), which
  // took longer than jest-worker's 500 ms once in a pool run: it was ended with SIGTERM and a warning of leaked handles.
  workerGracefulExitTimeout: 5000,
  testSequencer: join(__dirname, 'jest-sequencer.cjs'),
  verbose: false,
  reporters: [
    join(__dirname, 'jest-quiet-reporter.cjs'),
    'summary',
    [join(__dirname, 'jest-summary-reporter.cjs'), { name: `pool.${lanes.replace(/,/g, '+')}` }],
  ],
};
