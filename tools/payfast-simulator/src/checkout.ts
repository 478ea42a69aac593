import { timingSafeEqual } from 'node:crypto';
import { PAYFAST_FIELD_ORDER, signature } from '@digicard/payfast';
import { formatRand, parseRand } from './money.js';
import { FREQUENCIES, isIsoDate, todayInSouthAfrica } from './dates.js';

export interface Merchant {
  id: string;
  key: string;
  passphrase?: string | undefined;
}

export interface SubscriptionTerms {
  /** The first recurring charge, YYYY-MM-DD. */
  billingDate: string;
  recurringCents: number;
  /** 1 daily, 2 weekly, 3 monthly, 4 quarterly, 5 biannually, 6 annually. */
  frequency: number;
  /** 0 = until cancelled. */
  cycles: number;
}

/** A payment request that passed every check, as the process page shows it and the ITN echoes it. */
export interface CheckoutRequest {
  merchantId: string;
  returnUrl?: string | undefined;
  cancelUrl?: string | undefined;
  notifyUrl?: string | undefined;
  nameFirst: string;
  nameLast: string;
  emailAddress: string;
  mPaymentId: string;
  amountCents: number;
  itemName: string;
  itemDescription: string;
  /** custom_str1..5 and custom_int1..5, blank when not sent (the ITN posts all ten). */
  customStr: string[];
  customInt: string[];
  subscription?: SubscriptionTerms | undefined;
}

export type CheckoutResult = { ok: true; request: CheckoutRequest } | { ok: false; problems: string[] };

const MAX_LENGTH: Readonly<Record<string, number>> = {
  name_first: 100,
  name_last: 100,
  email_address: 100,
  m_payment_id: 100,
  item_name: 100,
  item_description: 255,
  custom_str1: 255,
  custom_str2: 255,
  custom_str3: 255,
  custom_str4: 255,
  custom_str5: 255,
};

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The request signature PayFast computes: known fields in the documented order, trimmed, blanks skipped. */
function expectedSignature(fields: ReadonlyMap<string, string>, passphrase: string | undefined): string {
  const ordered: Array<[string, string]> = [];
  for (const key of PAYFAST_FIELD_ORDER) {
    const value = fields.get(key);
    if (value !== undefined) ordered.push([key, value]);
  }
  return signature(ordered, passphrase);
}

function subscriptionTerms(get: (k: string) => string, merchant: Merchant, problems: string[]): SubscriptionTerms | undefined {
  const type = get('subscription_type');
  if (type === '') return undefined;
  if (type === '2') {
    problems.push('subscription_type 2 (tokenization, ad hoc charges) is not simulated; use 1 (subscription)');
    return undefined;
  }
  if (type !== '1') {
    problems.push(`subscription_type must be 1 (subscription) or 2 (tokenization), got "${type}"`);
    return undefined;
  }
  if (merchant.passphrase === undefined) {
    problems.push('subscriptions need a passphrase on the merchant account (start the simulator with PASSPHRASE)');
  }
  const recurring = parseRand(get('recurring_amount'));
  if (get('recurring_amount') === '') problems.push('recurring_amount is required for a subscription');
  else if (recurring === undefined || recurring === 0) {
    problems.push('recurring_amount must be an amount in rand above zero, e.g. 99.00');
  }
  const frequency = Number(get('frequency'));
  if (!/^[1-6]$/.test(get('frequency'))) {
    problems.push('frequency must be 1 (daily), 2 (weekly), 3 (monthly), 4 (quarterly), 5 (biannually) or 6 (annually)');
  }
  const cycles = Number(get('cycles'));
  if (!/^\d{1,4}$/.test(get('cycles'))) problems.push('cycles must be a whole number (0 = until cancelled)');
  const billingDate = get('billing_date') || todayInSouthAfrica();
  if (!isIsoDate(billingDate)) problems.push('billing_date must be a real date written YYYY-MM-DD');
  return { billingDate, recurringCents: recurring ?? 0, frequency, cycles };
}

/**
 * Checks a payment request the way PayFast's process page does: the merchant id and key, the required fields and
 * their formats, and the signature (documented field order, passphrase appended). Every problem is reported, not
 * only the first, so a developer fixes them in one go.
 */
export function parseCheckout(pairs: ReadonlyArray<readonly [string, string]>, merchant: Merchant): CheckoutResult {
  const fields = new Map<string, string>();
  for (const [key, value] of pairs) if (!fields.has(key)) fields.set(key, value);
  const get = (key: string): string => (fields.get(key) ?? '').trim();
  const problems: string[] = [];

  if (get('merchant_id') === '') problems.push('merchant_id is required');
  else if (get('merchant_id') !== merchant.id) problems.push(`merchant_id ${get('merchant_id')} is not a known merchant`);
  if (get('merchant_key') === '') problems.push('merchant_key is required');
  else if (get('merchant_id') === merchant.id && !sameText(get('merchant_key'), merchant.key)) {
    problems.push(`merchant_key does not match merchant_id ${merchant.id}`);
  }

  for (const key of ['return_url', 'cancel_url', 'notify_url']) {
    if (get(key) !== '' && !isHttpUrl(get(key))) problems.push(`${key} must be an http(s) URL`);
  }
  for (const [key, max] of Object.entries(MAX_LENGTH)) {
    if (get(key).length > max) problems.push(`${key} is longer than ${max} characters`);
  }
  if (get('email_address') !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(get('email_address'))) {
    problems.push('email_address is not an email address');
  }
  for (let i = 1; i <= 5; i++) {
    const value = get(`custom_int${i}`);
    if (value !== '' && !/^-?\d+$/.test(value)) problems.push(`custom_int${i} must be a whole number`);
  }

  const subscription = subscriptionTerms(get, merchant, problems);
  const amount = parseRand(get('amount'));
  if (get('amount') === '') problems.push('amount is required');
  else if (amount === undefined) problems.push('amount must be an amount in rand with at most two decimals, e.g. 99.00');
  // A subscription may start with R 0.00 to capture the card; a once-off payment must charge something.
  else if (amount === 0 && subscription === undefined) problems.push(`amount must be more than ${formatRand(0)}`);
  if (get('item_name') === '') problems.push('item_name is required');

  const posted = get('signature').toLowerCase();
  if (posted === '') problems.push('signature is required');
  else if (!sameText(posted, expectedSignature(fields, merchant.passphrase))) {
    problems.push('signature: generated signature does not match submitted signature');
  }

  if (problems.length > 0) return { ok: false, problems };
  const optional = (key: string): string | undefined => get(key) || undefined;
  return {
    ok: true,
    request: {
      merchantId: merchant.id,
      returnUrl: optional('return_url'),
      cancelUrl: optional('cancel_url'),
      notifyUrl: optional('notify_url'),
      nameFirst: get('name_first'),
      nameLast: get('name_last'),
      emailAddress: get('email_address'),
      mPaymentId: get('m_payment_id'),
      amountCents: amount ?? 0,
      itemName: get('item_name'),
      itemDescription: get('item_description'),
      customStr: [1, 2, 3, 4, 5].map((i) => get(`custom_str${i}`)),
      customInt: [1, 2, 3, 4, 5].map((i) => get(`custom_int${i}`)),
      subscription,
    },
  };
}

export const frequencyLabel = (frequency: number): string => FREQUENCIES[frequency] ?? `frequency ${frequency}`;
