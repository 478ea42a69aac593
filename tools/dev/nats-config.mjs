// Writes nats/auth.conf (one NATS user per app, permissions generated from libs/contracts bus.ts, passwords read by
// nats-server from its environment: NATS_PASSWORD_GATEWAY, NATS_PASSWORD_IDENTITY, ...) and the table of those rights
// in docs/security.md, or with --check fails when a committed file drifts from the contracts (a new RPC or event
// changes them).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, fail, log } from './lib.mjs';

const { busRightsTable, natsAuthorizationConfig } = await import('../../libs/contracts/dist/src/index.js');
const file = join(ROOT, 'nats', 'auth.conf');
// The same file for Kubernetes: kustomize reads files only from inside the kustomization (the ConfigMap nats-auth).
const k8sFile = join(ROOT, 'k8s', 'base', 'nats-auth.conf');
const text = natsAuthorizationConfig();
const docFile = join(ROOT, 'docs', 'security.md');
const doc = readFileSync(docFile, 'utf8');
const markers = /(<!-- bus-rights:start -->\n)[\s\S]*?(\n<!-- bus-rights:end -->)/;
if (!markers.test(doc)) fail('docs/security.md has no bus-rights markers for the table of NATS rights.');
const docText = doc.replace(markers, (_, start, end) => `${start}${busRightsTable()}${end}`);

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    fail(`${file} is missing: run \`node tools/dev/nats-config.mjs\` and commit it.`);
  }
  if (committed !== text)
    fail('nats/auth.conf is out of date with libs/contracts: run `node tools/dev/nats-config.mjs` and commit the result.');
  let k8sCommitted = '';
  try {
    k8sCommitted = readFileSync(k8sFile, 'utf8');
  } catch {
    /* reported below */
  }
  if (k8sCommitted !== text)
    fail('k8s/base/nats-auth.conf is out of date with libs/contracts: run `node tools/dev/nats-config.mjs` and commit the result.');
  if (doc !== docText)
    fail(
      "docs/security.md's table of NATS rights is out of date with libs/contracts: run `node tools/dev/nats-config.mjs` and commit the result.",
    );
  log('NATS users match the contracts.');
} else {
  mkdirSync(join(ROOT, 'nats'), { recursive: true });
  writeFileSync(file, text);
  writeFileSync(k8sFile, text);
  writeFileSync(docFile, docText);
  log(`wrote ${file}, ${k8sFile} and the table in ${docFile}`);
}
