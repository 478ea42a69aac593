import { formatCents, itnSignatureString, md5Hex, pfEncode } from '@digicard/payfast';
import type { CheckoutRequest } from './checkout.js';
import { feeCents, formatFee } from './money.js';

export type Pairs = Array<[string, string]>;
export type PaymentStatus = 'COMPLETE' | 'FAILED' | 'CANCELLED';
export type Tamper = 'signature' | 'amount';

export interface ItnInput {
  request: CheckoutRequest;
  pfPaymentId: string;
  status: PaymentStatus;
  grossCents: number;
  feeCents: number;
  /** Subscriptions only: the token and the billing date of this charge. */
  token?: string | undefined;
  billingDate?: string | undefined;
}

/**
 * The ITN fields in the order PayFast posts them (its return-variables page and its PHP SDK's test notification):
 * transaction, custom_str1..5 then custom_int1..5 (blanks included), buyer, merchant_id, then for a subscription
 * token and billing_date, and the signature last, over every field before it (blanks included, see libs/payfast).
 */
export function buildItn(input: ItnInput, passphrase: string | undefined): Pairs {
  const { request } = input;
  const pairs: Pairs = [
    ['m_payment_id', request.mPaymentId],
    ['pf_payment_id', input.pfPaymentId],
    ['payment_status', input.status],
    ['item_name', request.itemName],
    ['item_description', request.itemDescription],
    ['amount_gross', formatCents(input.grossCents)],
    ['amount_fee', formatFee(input.feeCents)],
    ['amount_net', formatCents(input.grossCents - input.feeCents)],
    ...request.customStr.map((v, i): [string, string] => [`custom_str${i + 1}`, v]),
    ...request.customInt.map((v, i): [string, string] => [`custom_int${i + 1}`, v]),
    ['name_first', request.nameFirst],
    ['name_last', request.nameLast],
    ['email_address', request.emailAddress],
    ['merchant_id', request.merchantId],
  ];
  if (input.token !== undefined) pairs.push(['token', input.token], ['billing_date', input.billingDate ?? '']);
  return sign(pairs, passphrase);
}

/** Replaces (or appends) `signature` with the MD5 of the ITN string of the other fields. */
export function sign(pairs: ReadonlyArray<readonly [string, string]>, passphrase: string | undefined): Pairs {
  const unsigned = pairs.filter(([k]) => k !== 'signature').map(([k, v]): [string, string] => [k, v]);
  return [...unsigned, ['signature', md5Hex(itnSignatureString(unsigned, passphrase))]];
}

/** Form-urlencoded the way PayFast's PHP encodes it (`+` for spaces, upper-case hex), in the given order. */
export function encodeForm(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${k}=${pfEncode(v)}`).join('&');
}

/**
 * A forged copy of an ITN, for webhook tests. `signature`: the fields untouched, the signature wrong. `amount`:
 * amount_gross lowered to R 1.00 (fee and net to match) and the signature recomputed, as someone who knows the scheme (and the passphrase,
 * or where there is none) would; only the amount check and the validate call can catch that one.
 */
export function tamper(pairs: ReadonlyArray<readonly [string, string]>, how: Tamper, passphrase: string | undefined): Pairs {
  if (how === 'signature') {
    return pairs.map(([k, v]): [string, string] => [k, k === 'signature' ? md5Hex(`forged:${v}`) : v]);
  }
  const forged: Readonly<Record<string, string>> = {
    amount_gross: '1.00',
    amount_fee: formatFee(feeCents(100)),
    amount_net: formatCents(100 - feeCents(100)),
  };
  const changed = pairs.map(([k, v]): [string, string] => [k, forged[k] ?? v]);
  return sign(changed, passphrase);
}

export interface Delivery {
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null;
  error?: string;
}

/** POSTs an ITN server to server. Never throws: an unreachable or slow receiver is reported, not raised. */
export async function deliver(url: string, body: string, timeoutMs: number): Promise<Delivery> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'PayFast simulator' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return { status: null, error: e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message) };
  }
}
