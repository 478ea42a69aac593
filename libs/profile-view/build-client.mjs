// Bundles the public profile page's vanilla script (src/client/profile-page.ts) to dist/client/profile-page.js.
// Run after `tsc -b` (the project's build target does both). Fails when the script outgrows its 4 kB budget.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const entry = fileURLToPath(new URL('./src/client/profile-page.ts', import.meta.url));
const outfile = fileURLToPath(new URL('./dist/client/profile-page.js', import.meta.url));
const BUDGET = 4096;

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2019',
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
});

const size = statSync(outfile).size;
if (size >= BUDGET) {
  console.error(`profile-page.js is ${size} bytes: over its ${BUDGET}-byte budget.`);
  process.exit(1);
}
console.log(`dist/client/profile-page.js: ${size} bytes`);
