import { md5Hex, pfEncode } from './encode.js';

export interface ApiHeaders {
  'merchant-id': string;
  version: string;
  /** ISO-8601, e.g. `2024-01-01T12:00:00+02:00`. */
  timestamp: string;
}

export type ApiParams = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** The string hashed for the API `signature` header: all fields sorted by key, `k=pfEncode(v)` joined by `&`. */
export function apiSignatureString(headers: ApiHeaders, params: ApiParams = {}, passphrase?: string): string {
  const all = new Map<string, string>();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    all.set(k, String(v));
  }
  all.set('merchant-id', headers['merchant-id']);
  all.set('version', headers.version);
  all.set('timestamp', headers.timestamp);
  if (passphrase !== undefined && passphrase !== '') all.set('passphrase', passphrase);
  all.delete('signature');
  return [...all.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${pfEncode(all.get(k) ?? '')}`)
    .join('&');
}

/**
 * Subscriptions/REST API header signature: MD5 over the header fields (`merchant-id`, `version`, `timestamp`), the
 * body or query fields and `passphrase`, all sorted alphabetically by key (byte order) and urlencoded like
 * {@link pfEncode}; values are not trimmed (as PayFast's PHP SDK `Auth::generateApiSignature`).
 */
export function apiSignature(headers: ApiHeaders, params: ApiParams = {}, passphrase?: string): string {
  return md5Hex(apiSignatureString(headers, params, passphrase));
}
