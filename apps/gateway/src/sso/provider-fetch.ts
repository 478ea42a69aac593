import { isIP } from 'node:net';
import type * as oidc from 'openid-client';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPublicAddress, PrivateAddressRefused, publicAddressLookup, type AddressResolver } from '@digicard/server';

/**
 * The fetch openid-client uses for a team's provider (discovery, its keys, its token endpoint). Unless private
 * addresses are allowed (development, tests), it reaches public addresses only, and connects to the very addresses it
 * checked: the name is resolved once, in the connection (`publicAddressLookup`), so a provider whose name answers a
 * public address to a check and a private one a moment later (DNS rebinding) reaches nothing inside. An IP literal
 * is checked as it is. `resolve` and `isAllowed` are for tests.
 */
export function providerFetch(
  allowPrivate: boolean,
  resolve?: AddressResolver,
  isAllowed: (address: string) => boolean = isPublicAddress,
): oidc.CustomFetch {
  if (allowPrivate) return (url, options) => fetch(url, options as RequestInit);
  const agent = new Agent({ connect: { lookup: publicAddressLookup(resolve, isAllowed) } });
  return async (url, options) => {
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) && !isAllowed(host)) throw new PrivateAddressRefused(`${host} is not a public address`);
    // undici's own fetch with its Agent: its Response passes openid-client's check (the same Fetch API class).
    return (await undiciFetch(url, { ...(options as object), dispatcher: agent })) as unknown as Response;
  };
}

/** Whether `error` (or an error it was caused by: openid-client and fetch wrap it) is a refused private address. */
export function refusedPrivateAddress(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    if (e instanceof PrivateAddressRefused || (e as { code?: unknown }).code === 'EPRIVATEADDRESS') return true;
  }
  return false;
}
