import { BlockList, isIP } from 'node:net';

/** Whether the address seen `hop` steps back from the gateway (0: the socket's peer) is a proxy to believe. */
export type ProxyTrust = (address: string, hop: number) => boolean;

const LOOPBACK = ['127.0.0.0/8', '::1/128'];

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) as `10.0.0.1`. */
const plain = (address: string): string => (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

/** Parses one TRUST_PROXY_FROM entry (`loopback`, an address or a CIDR range); null when it is none of them. */
function ranges(entry: string): Array<{ network: string; prefix: number; family: 'ipv4' | 'ipv6' }> | null {
  if (entry === 'loopback') return LOOPBACK.flatMap((r) => ranges(r)!);
  const [address = '', bits] = entry.split('/');
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
  if (prefix < 0 || prefix > max) return null;
  return [{ network: address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' }];
}

/** The entries of TRUST_PROXY_FROM that are not an address, a CIDR range or `loopback` (for the config's error). */
export const invalidProxyEntries = (entries: readonly string[]): string[] => entries.filter((e) => ranges(e) === null);

/** Whether an address is inside any of `entries` (addresses, CIDR ranges or `loopback`, as TRUST_PROXY_FROM takes them). */
export function addressMatcher(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) for (const r of ranges(entry) ?? []) list.addSubnet(r.network, r.prefix, r.family);
  return (address) => {
    const a = plain(address);
    const version = isIP(a);
    return version !== 0 && list.check(a, version === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * Which proxies the gateway believes about the client's address: at most `hops` of them, each one only when its
 * own address is in `from` (the ingress's addresses). A peer outside `from` is the client, whatever
 * X-Forwarded-For it sends: a pod or a host that reaches the gateway directly cannot choose its address for rate
 * limits, analytics or PayFast's source check. Used as express's `trust proxy` and by the public-page fast path.
 */
export function proxyTrust(hops: number, from: readonly string[]): ProxyTrust {
  if (hops === 0) return () => false;
  const trusted = addressMatcher(from);
  return (address, hop) => hop < hops && trusted(address);
}

/**
 * The client's address as express works it out with a trust function: from the socket's peer back along
 * X-Forwarded-For, as long as the address reached is a trusted proxy.
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trust: ProxyTrust,
): string | undefined {
  if (peer === undefined || !forwardedFor || !trust(peer, 0)) return peer;
  const forwarded = String(forwardedFor)
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  let address = peer;
  for (let i = 0; i < forwarded.length; i++) {
    address = forwarded[i]!;
    if (!trust(address, i + 1)) break;
  }
  return address;
}
