import { createRequire } from 'node:module';
import argon2 from 'argon2';
import { PASSWORD_MIN } from '@digicard/contracts';

/** OWASP's argon2id baseline (m = 19 MiB, t = 2, p = 1). */
export const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, HASH_OPTIONS);

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
 * The most common passwords (the zxcvbn-ts common list, about 49,000 entries; those shorter than the minimum are
 * refused by length anyway), compared case-insensitively.
 */
const common: ReadonlySet<string> = (() => {
  const require = createRequire(import.meta.url);
  const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
  const list = dictionary['passwords-common'];
  if (!list || list.length < 10_000) throw new Error('the common-password list is missing or too short');
  return new Set(list.filter((p) => p.length >= PASSWORD_MIN).map((p) => p.toLowerCase()));
})();

export const commonPasswordCount = (): number => common.size;
export const isCommonPassword = (password: string): boolean => common.has(password.toLowerCase());
