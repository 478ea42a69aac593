// The one Jest setup every project shares: native ESM (NestJS 12 is ESM-only), TypeScript through @swc/jest with
// legacy decorators and their metadata (Nest's dependency injection reads it), `.js` import suffixes mapped back to
// the TypeScript sources. Workspace libraries are imported as built (`@digicard/*` resolves to their dist), which
// is why the `test` target depends on `^build`. Run through `node --experimental-vm-modules` (see project.json).
const { join } = require('node:path');

/** @param {string} projectRoot @param {string} name */
module.exports = (projectRoot, name) => ({
  displayName: name,
  rootDir: projectRoot,
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testMatch: ['<rootDir>/{src,test}/**/*.spec.{ts,tsx}'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
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
  // Whole-system and browser tests start real processes: one file at a time within a project, generous time-outs.
  testTimeout: 300_000,
  testSequencer: join(__dirname, 'tools/dev/jest-sequencer.cjs'),
  reporters: ['default', [join(__dirname, 'tools/dev/jest-summary-reporter.cjs'), { name }]],
});
