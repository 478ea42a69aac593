// The one Jest setup every project shares: native ESM (NestJS 12 is ESM-only), TypeScript through @swc/jest with
// legacy decorators and their metadata (Nest's dependency injection reads it), `.js` import suffixes mapped back to
// the TypeScript sources. Workspace libraries are imported as built (`@digicard/*` resolves to their dist), which
// is why the test targets depend on `^build`. Run through `node --experimental-vm-modules` (see project.json).
//
// Test lanes, chosen by the file's name (`DIGICARD_TEST_LANE`, set by each project's Nx lane target; without it every
// file of the project runs, as when a developer runs one file by hand):
// - `unit`     `*.spec.ts(x)`: no I/O beyond the file's own memory (no server, no socket, no child process): seconds;
// - `service`  `*.integration.spec.ts`: in the test's process, on real PostgreSQL, Redis and a private NATS
//              (libs/service-testing, the gateway's in-process harness, a local HTTP or SMTP server), or real heavy
//              work that takes more than seconds (image codecs, memory measurements);
// - `system`   `*.e2e.spec.ts`: the apps as real processes (libs/testing TestSystem);
// - `browser`  `*.browser.spec.ts`: Chromium through the running system.
// Each lane has its own time-out per test.
const { join } = require('node:path');

const LANES = {
  unit: { testRegex: '/(src|test)/.*(?<!\\.(integration|e2e|browser))\\.spec\\.tsx?$', testTimeout: 30_000 },
  service: { testRegex: '/(src|test)/.*\\.integration\\.spec\\.tsx?$', testTimeout: 120_000 },
  system: { testRegex: '/(src|test)/.*\\.e2e\\.spec\\.tsx?$', testTimeout: 300_000 },
  browser: { testRegex: '/(src|test)/.*\\.browser\\.spec\\.tsx?$', testTimeout: 300_000 },
};
const ALL = { testRegex: '/(src|test)/.*\\.spec\\.tsx?$', testTimeout: 300_000 };

/**
 * A lane, or several joined by commas (`system,browser`: one Jest run over the files of both, as `npm test` runs its
 * pool, tools/dev/jest.pool.config.cjs): the files of any of them, with the longest time-out.
 * @param {string} value
 */
function laneOf(value) {
  const names = value.split(',');
  const unknown = names.filter((n) => !(n in LANES));
  if (unknown.length > 0) throw new Error(`DIGICARD_TEST_LANE=${value}: ${unknown.join(', ')} not one of ${Object.keys(LANES).join(', ')}`);
  if (names.length === 1) return LANES[names[0]];
  return {
    testRegex: names.map((n) => LANES[n].testRegex),
    testTimeout: Math.max(...names.map((n) => LANES[n].testTimeout)),
  };
}

/** @param {string} projectRoot @param {string} name */
const preset = (projectRoot, name) => {
  const laneName = process.env.DIGICARD_TEST_LANE;
  const lane = laneName ? laneOf(laneName) : ALL;
  const id = laneName ? `${name}:${laneName}` : name;
  return {
    displayName: id,
    rootDir: projectRoot,
    testEnvironment: join(__dirname, 'tools/dev/jest-environment.cjs'),
    roots: ['<rootDir>'],
    testRegex: lane.testRegex,
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    modulePathIgnorePatterns: ['<rootDir>/dist/'],
    extensionsToTreatAsEsm: ['.ts', '.tsx'],
    moduleNameMapper: {
      '^(\\.{1,2}/.*)\\.js$': '$1',
      // libphonenumber-js's ES build imports its metadata JSON without an import attribute, which Jest warns about
      // in every worker; its CommonJS build (same code and metadata) loads without the warning.
      '^libphonenumber-js/min$': require.resolve('libphonenumber-js/min'),
    },
    transform: {
      '^.+\\.tsx?$': [
        '@swc/jest',
        {
          jsc: {
            target: 'es2022',
            parser: { syntax: 'typescript', tsx: true, decorators: true },
            transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false, react: { runtime: 'automatic' } },
            keepClassNames: true,
          },
          module: { type: 'es6' },
          sourceMaps: 'inline',
        },
      ],
    },
    testTimeout: lane.testTimeout,
    // Console output is buffered per file (never printed as it comes), so the quiet reporter can leave it out.
    verbose: false,
    // A worker whose shared system or browser server runs exits when told to (tools/dev/jest-environment.cjs), which
    // took longer than jest-worker's 500 ms once in a pool run: it was ended with SIGTERM and a warning of leaked handles.
    workerGracefulExitTimeout: 5000,
    testSequencer: join(__dirname, 'tools/dev/jest-sequencer.cjs'),
    // The quiet reporter prints what a file logged only when one of its tests failed; the summary reporter writes the
    // counts `npm test` adds up.
    reporters: [
      join(__dirname, 'tools/dev/jest-quiet-reporter.cjs'),
      'summary',
      [join(__dirname, 'tools/dev/jest-summary-reporter.cjs'), { name: laneName ? `${name}.${laneName}` : name }],
    ],
  };
};

module.exports = Object.assign(preset, { LANES, laneOf });
