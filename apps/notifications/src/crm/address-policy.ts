import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { CrmMessages } from '@digicard/contracts';

/**
 * Where a CRM webhook may point (SSRF): https only, and every address its name resolves to public. Checked when the
 * owner saves it and again at each delivery, which then connects to the address it checked (a name that resolves
 * to a public address at the check and a private one a moment later, DNS rebinding, gets nowhere).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`), -compatible or NAT64 (`64:ff9b::/96`) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** A public unicast address: not private, loopback, link-local, CGNAT, unique-local, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return isPublicAddress(v4);
    return !blocked.check(address, 'ipv6');
  }
  return false;
}

/** The address refused, with the sentence for the owner (the URL field's error). */
export class WebhookAddressRefused extends Error {
  override name = 'WebhookAddressRefused';
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: the one that was checked. */
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Checks `raw` and resolves it once. `allowLocal` (development, tests) lets http:// and private addresses through.
 * Every address the name resolves to must be public, not just the first (a name with one public and one private
 * address is refused).
 */
export async function checkWebhookTarget(raw: string, allowLocal: boolean, resolve: Resolver = systemResolver): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookAddressRefused(CrmMessages.httpsOnly);
  }
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) throw new WebhookAddressRefused(CrmMessages.httpsOnly);
  if (url.username || url.password) throw new WebhookAddressRefused(CrmMessages.httpsOnly);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new WebhookAddressRefused(CrmMessages.unresolvable);
    }
  }
  if (addresses.length === 0) throw new WebhookAddressRefused(CrmMessages.unresolvable);
  if (!allowLocal && addresses.some((a) => !isPublicAddress(a.address))) throw new WebhookAddressRefused(CrmMessages.privateAddress);
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
