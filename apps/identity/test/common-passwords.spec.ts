import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { commonPasswordCount, isCommonPassword } from '../src/accounts/passwords.js';

// The list is one sorted file searched by halving (src/accounts/passwords.ts). These prove the search finds every
// entry (a file out of order would lose some), that zxcvbn's list was merged into it, and that case and spaces
// around a password do not matter.

const lines = gunzipSync(readFileSync(new URL('../data/common-passwords.txt.gz', import.meta.url)))
  .toString('utf8')
  .split('\n')
  .filter(Boolean);

describe('the common-password list', () => {
  it('finds every one of its entries, and only its entries', () => {
    expect(commonPasswordCount()).toBe(lines.length);
    const missed = lines.filter((entry) => !isCommonPassword(entry));
    expect(missed.slice(0, 5).join(', ')).toBe('');
    // Between two neighbours, and past either end, nothing is found.
    for (const entry of [lines[100]!, lines[lines.length - 1]!]) expect(isCommonPassword(`${entry}\u0001`)).toBe(false);
    expect(isCommonPassword('\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000')).toBe(false);
    expect(isCommonPassword('\uffff\uffff\uffff\uffff\uffff\uffff\uffff\uffff')).toBe(false);
  });

  it("holds zxcvbn's common passwords of 8 characters or more", () => {
    const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
    const long = (dictionary['passwords-common'] ?? []).filter((p) => p.trim().length >= 8);
    expect(long.length).toBeGreaterThan(17_000);
    expect(long.filter((p) => !isCommonPassword(p)).join(', ')).toBe('');
  });

  it('compares without case and surrounding spaces', () => {
    expect(isCommonPassword('  PassWord1 ')).toBe(true);
    expect(isCommonPassword('fynbos-kettle-ridge')).toBe(false);
  });
});
