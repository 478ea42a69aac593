// Writes redis/users.acl (one Redis ACL user per app that uses Redis, limited to its own keys, generated from
// libs/contracts redis-users.ts; passwords as ${REDIS_PASSWORD_GATEWAY}, ... which the server's start fills in from
// its environment) and the same file for Kubernetes (k8s/base/redis-users.acl), or with --check fails when a
// committed file drifts from the contracts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, fail, log } from './lib.mjs';

const { redisAclFile } = await import('../../libs/contracts/dist/src/index.js');
const files = [join(ROOT, 'redis', 'users.acl'), join(ROOT, 'k8s', 'base', 'redis-users.acl')];
const text = redisAclFile();

if (process.argv.includes('--check')) {
  for (const file of files) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      /* reported below */
    }
    if (committed !== text)
      fail(`${file} is out of date with libs/contracts: run \`node tools/dev/redis-config.mjs\` and commit the result.`);
  }
  log('Redis users match the contracts.');
} else {
  mkdirSync(join(ROOT, 'redis'), { recursive: true });
  for (const file of files) writeFileSync(file, text);
  log(`wrote ${files.join(' and ')}`);
}
