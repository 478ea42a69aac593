// Writes the gateway's OpenAPI document from the contracts, or with --check fails when the committed one drifts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, fail, log } from './lib.mjs';

const { buildOpenApiDocument } = await import('../../libs/contracts/dist/src/index.js');
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const file = join(ROOT, 'apps', 'gateway', 'openapi.json');
const text = `${JSON.stringify(buildOpenApiDocument(version), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    fail(`${file} is missing: run \`npm run openapi\` and commit it.`);
  }
  if (committed !== text)
    fail('apps/gateway/openapi.json is out of date with libs/contracts: run `npm run openapi` and commit the result.');
  log('OpenAPI document matches the contracts.');
} else {
  writeFileSync(file, text);
  log(`wrote ${file}`);
}
