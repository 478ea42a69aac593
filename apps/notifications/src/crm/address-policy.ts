import { isIP } from 'node:net';
import { CrmMessages } from '@digicard/contracts';
import { isPublicAddress, systemResolver, type AddressResolver } from '@digicard/server';

// Where a CRM webhook may point (SSRF): https only, and every address its name resolves to public (`isPublicAddress`,
// libs/server, shared with the gateway's company sign-in). Checked when the owner saves it and again at each
// delivery, which then connects to the address it checked (a name that resolves to a public address at the check and
// a private one a moment later, DNS rebinding, gets nowhere).
export { isPublicAddress };

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

export type Resolver = AddressResolver;

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
