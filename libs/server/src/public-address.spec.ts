import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { isPublicAddress, PrivateAddressRefused, publicAddressLookup } from './public-address.js';

describe('isPublicAddress', () => {
  it('is false for private, loopback, link-local, CGNAT, unique-local and mapped private addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.1.1',
      '172.16.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.1.2.3',
      '::ffff:a01:203',
      '64:ff9b::7f00:1',
    ])
      assert.equal(isPublicAddress(address), false, address);
    for (const address of ['1.1.1.1', '8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      assert.equal(isPublicAddress(address), true, address);
    assert.equal(isPublicAddress('not-an-address'), false);
  });
});

describe('publicAddressLookup', () => {
  const resolver = (answers: Record<string, Array<[string, number]>>) => (host: string) => {
    const found = answers[host];
    return found ? Promise.resolve(found.map(([address, family]) => ({ address, family }))) : Promise.reject(new Error('ENOTFOUND'));
  };
  const lookup = publicAddressLookup(
    resolver({
      'idp.example': [
        ['8.8.8.8', 4],
        ['2001:4860:4860::8888', 6],
      ],
      'mixed.example': [
        ['8.8.8.8', 4],
        ['10.0.0.5', 4],
      ],
      'metadata.example': [['169.254.169.254', 4]],
      'empty.example': [],
    }),
  );
  const ask = (host: string, options: { all?: boolean; family?: number }) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) =>
      lookup(host, options, (error: Error | null, address: unknown, family?: number) => resolve({ error, address, family })),
    );

  it('answers the connection the addresses it checked, all or the first of the family asked', async () => {
    assert.deepEqual(await ask('idp.example', { all: true }), {
      error: null,
      address: [
        { address: '8.8.8.8', family: 4 },
        { address: '2001:4860:4860::8888', family: 6 },
      ],
      family: undefined,
    });
    assert.deepEqual(await ask('idp.example', { family: 6 }), { error: null, address: '2001:4860:4860::8888', family: 6 });
    assert.deepEqual(await ask('idp.example', {}), { error: null, address: '8.8.8.8', family: 4 });
  });

  it('refuses a name with any address that is not public; a name that does not resolve fails', async () => {
    for (const host of ['mixed.example', 'metadata.example']) {
      const { error } = await ask(host, { all: true });
      assert.ok(error instanceof PrivateAddressRefused, `${host}: ${String(error)}`);
    }
    for (const host of ['empty.example', 'unknown.example']) {
      const { error } = await ask(host, {});
      assert.ok(error && !(error instanceof PrivateAddressRefused), host);
    }
  });
});
