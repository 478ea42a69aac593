import { type Fields, md5Hex, pfEncode, toPairs } from './encode.js';

/** The order PayFast documents for the fields of a payment request; the request signature follows it. */
export const PAYFAST_FIELD_ORDER = [
  'merchant_id',
  'merchant_key',
  'return_url',
  'cancel_url',
  'notify_url',
  'name_first',
  'name_last',
  'email_address',
  'cell_number',
  'm_payment_id',
  'amount',
  'item_name',
  'item_description',
  'custom_int1',
  'custom_int2',
  'custom_int3',
  'custom_int4',
  'custom_int5',
  'custom_str1',
  'custom_str2',
  'custom_str3',
  'custom_str4',
  'custom_str5',
  'email_confirmation',
  'confirmation_address',
  'payment_method',
  'subscription_type',
  'billing_date',
  'recurring_amount',
  'frequency',
  'cycles',
  'subscription_notify_email',
  'subscription_notify_webhook',
  'subscription_notify_buyer',
] as const;

export type PayFastField = (typeof PAYFAST_FIELD_ORDER)[number];

/** The string that is hashed: `k=pfEncode(v)` joined by `&`, then `&passphrase=...` when a passphrase is set. */
export function signatureString(
  fields: Fields,
  passphrase?: string,
  options: { skipBlank: boolean; trim: boolean } = { skipBlank: true, trim: true },
): string {
  const parts: string[] = [];
  for (const [key, raw] of toPairs(fields)) {
    if (key === 'signature') continue;
    const value = options.trim ? raw.trim() : raw;
    if (options.skipBlank && value === '') continue;
    parts.push(`${key}=${pfEncode(value)}`);
  }
  if (passphrase !== undefined && passphrase !== '') parts.push(`passphrase=${pfEncode(passphrase.trim())}`);
  return parts.join('&');
}

/**
 * Payment-request signature: MD5 hex of the non-blank fields (values trimmed) in the order given, with the passphrase
 * appended when set. A `signature` field in the input is ignored.
 */
export function signature(fields: Fields, passphrase?: string): string {
  return md5Hex(signatureString(fields, passphrase));
}
