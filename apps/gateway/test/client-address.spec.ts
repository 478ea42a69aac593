import { describe, expect, it } from '@jest/globals';
import { rateLimitAddress } from '../src/security/client-address.js';

describe('rateLimitAddress', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(rateLimitAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitAddress('127.0.0.1')).toBe('127.0.0.1');
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address, in every spelling', () => {
    expect(rateLimitAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitAddress('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitAddress('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(rateLimitAddress('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64 prefix, however it is written', () => {
    const a = rateLimitAddress('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    for (const same of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0:0:0:abcd',
      '2001:DB8:1:2:a:b:c:d',
      '2001:db8:1:2::9%eth0',
    ]) {
      expect(rateLimitAddress(same)).toBe(a);
    }
    expect(rateLimitAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitAddress('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('does not take an IPv4-compatible or other IPv6 address for a mapped one', () => {
    expect(rateLimitAddress('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
    expect(rateLimitAddress('::203.0.113.7')).toBe('0:0:0:0::/64');
  });

  it('answers something for a missing or odd address rather than failing', () => {
    expect(rateLimitAddress(undefined)).toBe('unknown');
    expect(rateLimitAddress('')).toBe('unknown');
    expect(rateLimitAddress('not-an-address')).toBe('not-an-address');
  });
});
