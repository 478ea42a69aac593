import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describe, it } from '@jest/globals';
import { clientScript } from '../src/index.js';

describe('clientScript', () => {
  it('points at the built page script, under 4 kB, with a short content hash', () => {
    const { path, hash } = clientScript();
    assert.ok(isAbsolute(path));
    assert.match(path, /dist[/\\]client[/\\]profile-page\.js$/);
    const size = statSync(path).size;
    assert.ok(size > 500 && size < 4096, `${size} bytes`);
    assert.match(hash, /^[0-9a-f]{12}$/);
    assert.equal(hash, createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 12));
    assert.equal(clientScript(), clientScript());
  });

  it('is a self-contained IIFE: no imports, no React', () => {
    const code = readFileSync(clientScript().path, 'utf8');
    assert.ok(!/\bimport\s*[{(*'"]|\brequire\(/.test(code));
    assert.ok(!code.includes('react'));
    for (const text of ['Sending...', 'We could not send your details. Please try again in a minute.', '/api/session', 'x-csrf-token']) {
      assert.ok(code.includes(text), text);
    }
  });
});
