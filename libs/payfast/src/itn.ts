import { timingSafeEqual } from 'node:crypto';
import { md5Hex, pfEncode } from './encode.js';

/**
 * The ITN signature string: every posted field EXCEPT `signature`, in the order received, blanks INCLUDED (PayFast's
 * ITN sample and its PHP SDK loop over the whole POST), values urlencoded but NOT trimmed, then `&passphrase=...`
 * (not trimmed) when a passphrase is set. Contrast with request building, which trims and skips blank values.
 */
export function itnSignatureString(postedPairs: ReadonlyArray<readonly [string, string]>, passphrase?: string): string {
  const parts = postedPairs.filter(([k]) => k !== 'signature').map(([k, v]) => `${k}=${pfEncode(v)}`);
  if (passphrase !== undefined && passphrase !== '') parts.push(`passphrase=${pfEncode(passphrase)}`);
  return parts.join('&');
}

/** True when the posted `signature` equals the MD5 of {@link itnSignatureString}. */
export function verifyItnSignature(postedPairs: ReadonlyArray<readonly [string, string]>, passphrase?: string): boolean {
  const posted = postedPairs.find(([k]) => k === 'signature')?.[1];
  if (posted === undefined) return false;
  const expected = Buffer.from(md5Hex(itnSignatureString(postedPairs, passphrase)), 'utf8');
  const actual = Buffer.from(posted.trim().toLowerCase(), 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Parses PayFast's `amount_gross` ("123.45") and compares it with the expected cents, within ±0.01. */
export function amountMatches(postedAmountGross: string, expectedCents: number): boolean {
  const s = postedAmountGross.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(s) || !Number.isSafeInteger(expectedCents)) return false;
  const [rand = '0', frac = ''] = s.split('.');
  const postedCents = Number(rand) * 100 + Number(frac.padEnd(2, '0'));
  return Number.isSafeInteger(postedCents) && Math.abs(postedCents - expectedCents) <= 1;
}

/** The ITN's `merchant_id` is ours. */
export function merchantMatches(postedPairs: ReadonlyArray<readonly [string, string]>, merchantId: string): boolean {
  const posted = postedPairs.find(([k]) => k === 'merchant_id')?.[1];
  return posted !== undefined && posted.trim() === merchantId.trim();
}

function ipv4ToInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip.trim());
  if (!m) return undefined;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const part = m[i] ?? '';
    if (part.length > 1 && part.startsWith('0')) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    n = n * 256 + octet;
  }
  return n;
}

/**
 * Whether an IPv4 address (an IPv4-mapped IPv6 form `::ffff:a.b.c.d` is accepted) lies in one of the CIDRs
 * (`a.b.c.d/n`, or a bare address meaning /32). Anything unparsable does not match. PayFast's source ranges are left
 * to configuration: the docs found did not list current ranges (see README).
 */
export function isPayFastAddress(ip: string, cidrs: readonly string[]): boolean {
  const bare = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, '');
  const addr = ipv4ToInt(bare);
  if (addr === undefined) return false;
  return cidrs.some((cidr) => {
    const [base = '', bitsText] = cidr.trim().split('/');
    const net = ipv4ToInt(base);
    const bits = bitsText === undefined ? 32 : /^\d{1,2}$/.test(bitsText) ? Number(bitsText) : NaN;
    if (net === undefined || !(bits >= 0 && bits <= 32)) return false;
    const size = 2 ** (32 - bits);
    return Math.floor(addr / size) === Math.floor(net / size);
  });
}

export type ValidateResult = 'VALID' | 'INVALID' | 'ERROR';

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ ok: boolean; text(): Promise<string> }>;

/**
 * Posts the received fields (same order, same encoding, `signature` included) back to PayFast's
 * `/eng/query/validate` and reports its verdict. Network failures, non-2xx answers, unexpected bodies and time-outs
 * are `'ERROR'`; it never throws.
 */
export async function validateWithPayFast(
  pairs: ReadonlyArray<readonly [string, string]>,
  validateUrl: string,
  fetchImpl: FetchLike,
  timeoutMs = 10_000,
): Promise<ValidateResult> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ValidateResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('ERROR');
    }, timeoutMs);
  });
  const call = (async (): Promise<ValidateResult> => {
    try {
      const body = pairs.map(([k, v]) => `${k}=${pfEncode(v)}`).join('&');
      const res = await fetchImpl(validateUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: controller.signal,
      });
      if (!res.ok) return 'ERROR';
      const text = (await res.text()).trim();
      if (text === 'VALID') return 'VALID';
      if (text === 'INVALID') return 'INVALID';
      return 'ERROR';
    } catch {
      return 'ERROR';
    }
  })();
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
