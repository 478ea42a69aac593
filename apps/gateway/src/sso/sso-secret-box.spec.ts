import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { SsoSecretBox } from './sso-secret-box.js';

const key = () => randomBytes(32).toString('base64');

describe('SsoSecretBox (AES-256-GCM for client secrets)', () => {
  it('opens what it sealed; each seal is different (a random IV); the secret is not in the text', () => {
    const box = SsoSecretBox.fromConfig(key())!;
    const a = box.seal('the provider’s client secret');
    const b = box.seal('the provider’s client secret');
    assert.notEqual(a, b);
    assert.match(a, /^v1\.[A-Za-z0-9_-]+$/);
    assert.ok(!a.includes('secret'));
    assert.equal(box.open(a), 'the provider’s client secret');
    assert.equal(box.open(b), 'the provider’s client secret');
  });

  it('refuses a changed byte, another key, and text that is no ciphertext', () => {
    const box = SsoSecretBox.fromConfig(key())!;
    const sealed = box.seal('s3cret');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    assert.throws(() => box.open(`v1.${raw.toString('base64url')}`));
    assert.throws(() => SsoSecretBox.fromConfig(key())!.open(sealed));
    assert.throws(() => box.open('s3cret'));
    assert.throws(() => box.open('v1.AAAA'));
  });

  it('is off without a key, and refuses a key that is not 32 bytes', () => {
    assert.equal(SsoSecretBox.fromConfig(undefined), null);
    assert.throws(() => SsoSecretBox.fromConfig(randomBytes(16).toString('base64')));
  });
});
