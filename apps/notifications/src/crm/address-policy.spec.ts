import { describe, expect, it } from '@jest/globals';
import { CrmMessages } from '@digicard/contracts';
import { checkWebhookTarget, isPublicAddress, type Resolver } from './address-policy.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '41.185.8.1', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '2c0f:fb50::1'])(
    'allows %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
});

describe('checkWebhookTarget', () => {
  const resolves =
    (...addresses: string[]): Resolver =>
    () =>
      Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

  it('takes https with a public address, and connects to the address it checked', async () => {
    const target = await checkWebhookTarget('https://crm.example.com/hooks/digicard', false, resolves('41.185.8.1'));
    expect(target).toMatchObject({ address: '41.185.8.1', family: 4 });
    expect(target.url.hostname).toBe('crm.example.com');
  });

  it.each([
    ['http://crm.example.com/hook', CrmMessages.httpsOnly],
    ['ftp://crm.example.com/hook', CrmMessages.httpsOnly],
    ['https://user:pw@crm.example.com/hook', CrmMessages.httpsOnly],
    ['https://127.0.0.1/hook', CrmMessages.privateAddress],
    ['https://[::1]/hook', CrmMessages.privateAddress],
    ['https://[::ffff:169.254.169.254]/latest/meta-data', CrmMessages.privateAddress],
  ])('refuses %s', async (url, message) => {
    await expect(checkWebhookTarget(url, false, resolves('41.185.8.1'))).rejects.toThrow(message);
  });

  it('refuses a name when any of its addresses is private (not just the first)', async () => {
    await expect(checkWebhookTarget('https://crm.example.com/', false, resolves('41.185.8.1', '10.0.0.5'))).rejects.toThrow(
      CrmMessages.privateAddress,
    );
    await expect(checkWebhookTarget('https://crm.example.com/', false, resolves('fd00::5'))).rejects.toThrow(CrmMessages.privateAddress);
  });

  it('refuses a name that does not resolve', async () => {
    await expect(checkWebhookTarget('https://nowhere.invalid/', false, () => Promise.reject(new Error('ENOTFOUND')))).rejects.toThrow(
      CrmMessages.unresolvable,
    );
  });

  it('lets http and local addresses through only when allowed (development, tests)', async () => {
    await expect(checkWebhookTarget('http://127.0.0.1:9999/hook', true)).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkWebhookTarget('http://127.0.0.1:9999/hook', false)).rejects.toThrow(CrmMessages.httpsOnly);
  });
});
