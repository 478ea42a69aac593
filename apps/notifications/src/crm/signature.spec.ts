import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { signatureHeader, verifySignature } from './signature.js';

// The test vector in docs/subsystems.md ("CRM hand-off: outgoing webhooks") was computed with openssl, not with
// this code; the doc's values are read here, so the doc and the code cannot drift apart.
const doc = readFileSync(join(import.meta.dirname, '../../../../docs/subsystems.md'), 'utf8');
const vector = (name: string) => {
  const match = new RegExp(`${name}: \`([^\`]+)\``).exec(doc);
  if (!match) throw new Error(`docs/subsystems.md has no test vector ${name}`);
  return match[1]!;
};

describe('webhook signatures', () => {
  it('match the documented test vector (openssl dgst -sha256 -hmac)', () => {
    const secret = vector('secret');
    const timestamp = Number(vector('timestamp'));
    const body = vector('body');
    expect(signatureHeader(secret, timestamp, body)).toBe(vector('header'));
  });

  it('verify as a receiver would: the right body within five minutes, nothing else', () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    const body = '{"id":"x","type":"lead.test"}';
    const header = signatureHeader('whsec_a', now / 1000, body);
    expect(verifySignature('whsec_a', header, body, 300, now)).toBe(true);
    expect(verifySignature('whsec_b', header, body, 300, now)).toBe(false);
    expect(verifySignature('whsec_a', header, `${body} `, 300, now)).toBe(false);
    expect(verifySignature('whsec_a', header, body, 300, now + 301_000)).toBe(false);
    expect(verifySignature('whsec_a', 'v1=abc', body, 300, now)).toBe(false);
  });
});
