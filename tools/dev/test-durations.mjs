// Writes tools/dev/test-durations.json from the last `npm test` (the seconds each file took, in test-results/jest):
// the order in which a machine that has never run the suite starts its files, the slowest first (jest-sequencer.cjs).
// Run it after a clean-clone `npm test` whose durations should become the reference: `node tools/dev/test-durations.mjs`.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, fail, log } from './lib.mjs';

const results = join(ROOT, 'test-results', 'jest');
/** @type {Record<string, number>} */
const seconds = {};
for (const file of readdirSync(results).filter((f) => f.endsWith('.json'))) {
  const summary = JSON.parse(readFileSync(join(results, file), 'utf8'));
  Object.assign(seconds, summary.seconds ?? {});
}
if (Object.keys(seconds).length === 0) fail(`no durations in ${results}: run npm test first`);
const note = process.argv[2] ?? `npm test of ${new Date().toISOString().slice(0, 16)}Z`;
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(ROOT, 'tools/dev/test-durations.json'), `${JSON.stringify({ measured: note, seconds: sorted }, null, 2)}\n`);
log(`wrote ${Object.keys(sorted).length} files' durations to tools/dev/test-durations.json`);
