import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which addresses an outbound call chosen by a customer may reach (SSRF): public unicast only. Used for CRM webhooks
 * (notifications) and for teams' OpenID Connect providers (the gateway). Both connect to the addresses they checked:
 * the webhooks pin the address checked before each delivery, the providers resolve in the connection itself
 * (`publicAddressLookup`), so a name that answers a public address to the check and a private one to the connection
 * (DNS rebinding) gets nowhere.
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

/** How a name is resolved (every address; the system's resolver unless a test gives another). */
export type AddressResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** The system's resolver, every address of the name. */
export const systemResolver: AddressResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** A connection refused because the name resolved to an address that is not public. */
export class PrivateAddressRefused extends Error {
  override name = 'PrivateAddressRefused';
  readonly code = 'EPRIVATEADDRESS';
}

/**
 * A `lookup` for `net.connect`/`tls.connect` (an undici Agent's `connect.lookup`): resolves the name once, refuses
 * the connection unless every address is public, and hands the socket exactly the addresses it checked, so nothing
 * resolves the name a second time between the check and the connection. (An IP literal never reaches a lookup:
 * check it with `isPublicAddress` before connecting.) `isAllowed` is for tests.
 */
export function publicAddressLookup(
  resolve: AddressResolver = systemResolver,
  isAllowed: (address: string) => boolean = isPublicAddress,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        const refused = found.find((a) => !isAllowed(a.address));
        if (refused) return callback(new PrivateAddressRefused(`${hostname} resolves to ${refused.address}, which is not public`), '');
        const addresses = wanted.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    );
  };
}
