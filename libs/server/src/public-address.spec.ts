import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { isPublicAddress, resolvesToPublicAddresses } from './public-address.js';

describe('resolvesToPublicAddresses', () => {
  const resolver = (answers: Record<string, string[]>) => (host: string) => {
    const found = answers[host];
    return found ? Promise.resolve(found.map((address) => ({ address }))) : Promise.reject(new Error('ENOTFOUND'));
  };

  it('is true only when every address of the name is public; an IP literal is itself', async () => {
    const resolve = resolver({
      'idp.example': ['8.8.8.8', '2001:4860:4860::8888'],
      'mixed.example': ['8.8.8.8', '10.0.0.5'],
      'metadata.example': ['169.254.169.254'],
      'empty.example': [],
    });
    assert.equal(await resolvesToPublicAddresses('idp.example', resolve), true);
    assert.equal(await resolvesToPublicAddresses('mixed.example', resolve), false);
    assert.equal(await resolvesToPublicAddresses('metadata.example', resolve), false);
    assert.equal(await resolvesToPublicAddresses('empty.example', resolve), false);
    assert.equal(await resolvesToPublicAddresses('unknown.example', resolve), false);
    assert.equal(await resolvesToPublicAddresses('127.0.0.1', resolve), false);
    assert.equal(await resolvesToPublicAddresses('[::1]', resolve), false);
    assert.equal(await resolvesToPublicAddresses('[::ffff:10.1.2.3]', resolve), false);
    assert.equal(await resolvesToPublicAddresses('1.1.1.1', resolve), true);
    assert.equal(isPublicAddress('192.168.1.1'), false);
  });
});
