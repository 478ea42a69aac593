import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiSignature } from '@digicard/payfast';
import type { Merchant } from './checkout.js';
import { isIsoDate } from './dates.js';
import { readFields, sendJson } from './http.js';
import type { Pairs } from './itn.js';
import type { Subscription, SubscriptionStatus } from './store.js';

/** What the API needs from the simulator: the merchant, the subscriptions, and the cancel that sends its ITN. */
export interface ApiContext {
  merchant: Merchant;
  subscriptions: ReadonlyMap<string, Subscription>;
  cancel(subscription: Subscription): Promise<void>;
}

type Action = 'fetch' | 'pause' | 'unpause' | 'cancel' | 'update';

/** The documented verb of each action (PayFast API reference, "Recurring Billing"). */
const METHODS: Readonly<Record<Action, string>> = { fetch: 'GET', pause: 'PUT', unpause: 'PUT', cancel: 'PUT', update: 'PATCH' };

/**
 * Numeric statuses for fetch. Only 1 = ACTIVE appears in PayFast's documentation; the other numbers are ours
 * (see README).
 */
const STATUS_CODES: Readonly<Record<SubscriptionStatus, number>> = { ACTIVE: 1, CANCELLED: 2, PAUSED: 3, COMPLETE: 4 };

/** PayFast's answer envelope: `{ code, status, data: { response, message? } }`. */
function answer(res: ServerResponse, code: number, response: unknown, message?: string): void {
  const status = code < 300 ? 'success' : code < 500 ? 'failed' : 'error';
  sendJson(res, code, { code, status, data: message === undefined ? { response } : { response, message } });
}

const fail = (res: ServerResponse, code: number, message: string): void => answer(res, code, false, message);

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The documented header checks, in the order of PayFast's error table: all four headers present, signature shaped
 * like an MD5, version v1, the merchant known, then the signature over headers, query (without `testing`) and body
 * fields plus the passphrase, sorted by key. Returns the failure already answered, or true.
 */
function authenticate(req: IncomingMessage, res: ServerResponse, params: Pairs, merchant: Merchant): boolean {
  const merchantId = header(req, 'merchant-id');
  const version = header(req, 'version');
  const timestamp = header(req, 'timestamp');
  const signature = header(req, 'signature');
  if (signature === undefined || signature === '') {
    fail(res, 400, 'Signature not present in headers');
    return false;
  }
  if (!merchantId || !version || !timestamp) {
    fail(res, 400, 'Required variables not present in request: merchant-id, version and timestamp headers');
    return false;
  }
  if (!/^[a-f0-9]{32}$/i.test(signature)) {
    fail(res, 400, 'Value for signature is not in the expected format');
    return false;
  }
  if (version !== 'v1') {
    fail(res, 400, 'API version is not valid');
    return false;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:?\d{2})?$/.test(timestamp)) {
    fail(res, 400, 'timestamp must be ISO-8601, e.g. 2026-04-01T12:00:01+02:00');
    return false;
  }
  if (merchantId !== merchant.id) {
    fail(res, 401, 'Merchant not found');
    return false;
  }
  if (merchant.passphrase === undefined) {
    fail(res, 401, 'Merchant authorisation failed: the API needs a passphrase (start the simulator with PASSPHRASE)');
    return false;
  }
  const expected = apiSignature({ 'merchant-id': merchantId, version, timestamp }, Object.fromEntries(params), merchant.passphrase);
  if (!sameText(signature.toLowerCase(), expected)) {
    fail(res, 401, 'Merchant authorisation failed');
    return false;
  }
  return true;
}

/** run_date as PayFast's fetch shows it: midnight South African time. */
const runDateTime = (date: string): string => `${date}T00:00:00+02:00`;

function fetchBody(s: Subscription) {
  return {
    amount: s.recurringCents,
    cycles: s.cycles,
    cycles_complete: s.cyclesComplete,
    frequency: s.frequency,
    run_date: runDateTime(s.runDate),
    status: STATUS_CODES[s.status],
    status_reason: '',
    status_text: s.status,
    token: s.token,
  };
}

const wholeNumber = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d{1,9}$/.test(value.trim()) ? Number(value) : undefined;

/** Applies an update's fields, or names what is wrong with them. */
function update(s: Subscription, fields: ReadonlyMap<string, string>): string | undefined {
  const known = ['cycles', 'frequency', 'run_date', 'amount'].filter((k) => fields.has(k));
  if (known.length === 0) return 'Required variables not present in request: at least one of cycles, frequency, run_date, amount';
  const cycles = wholeNumber(fields.get('cycles'));
  const frequency = wholeNumber(fields.get('frequency'));
  const amount = wholeNumber(fields.get('amount'));
  const runDate = fields.get('run_date')?.trim();
  if (fields.has('cycles') && cycles === undefined) return 'cycles must be a whole number';
  if (fields.has('frequency') && (frequency === undefined || frequency < 1 || frequency > 6)) return 'frequency must be 1 to 6';
  if (fields.has('amount') && (amount === undefined || amount < 1)) return 'amount must be a whole number of cents above zero';
  if (runDate !== undefined && !isIsoDate(runDate)) return 'run_date must be a real date written YYYY-MM-DD';
  if (cycles !== undefined) s.cycles = cycles;
  if (frequency !== undefined) s.frequency = frequency;
  if (amount !== undefined) s.recurringCents = amount;
  if (runDate !== undefined) s.runDate = runDate;
  return undefined;
}

/**
 * `https://api.payfast.co.za/subscriptions/{token}/{action}` (and `/ping`), answered as PayFast documents them.
 * Returns false when the path is not the API's, so the caller can answer 404 its own way.
 */
export async function handleSubscriptionsApi(req: IncomingMessage, res: ServerResponse, url: URL, ctx: ApiContext): Promise<boolean> {
  const ping = url.pathname === '/ping';
  const match = /^\/subscriptions\/([^/]+)\/([a-z]+)$/.exec(url.pathname);
  if (!ping && !match) return false;

  const body = req.method === 'GET' || req.method === 'HEAD' ? [] : await readFields(req);
  // `?testing=true` chooses PayFast's sandbox and is left out of the signature (API reference, signature step 1).
  const query = [...url.searchParams].filter(([k]) => k !== 'testing');
  if (!authenticate(req, res, [...query, ...body], ctx.merchant)) return true;

  if (ping) {
    sendJson(res, 200, url.searchParams.get('testing') === 'true' ? 'API V1' : 'Payfast API');
    return true;
  }
  const [, token = '', actionText = ''] = match!;
  if (!(actionText in METHODS)) {
    fail(res, 404, 'Service / endpoint not found');
    return true;
  }
  const action = actionText as Action;
  if (req.method !== METHODS[action]) {
    fail(res, 405, `${action} takes ${METHODS[action]}, not ${req.method}`);
    return true;
  }
  const subscription = ctx.subscriptions.get(decodeURIComponent(token));
  if (!subscription) {
    fail(res, 404, 'Subscription not found');
    return true;
  }
  await act(res, action, subscription, new Map(body), ctx);
  return true;
}

async function act(res: ServerResponse, action: Action, s: Subscription, fields: Map<string, string>, ctx: ApiContext): Promise<void> {
  switch (action) {
    case 'fetch':
      return answer(res, 200, fetchBody(s));
    case 'pause': {
      if (s.status !== 'ACTIVE') return fail(res, 400, `The subscription is not in a valid state (${s.status}).`);
      const cycles = fields.has('cycles') ? wholeNumber(fields.get('cycles')) : 1;
      if (cycles === undefined || cycles < 1) return fail(res, 400, 'cycles must be a whole number of at least 1');
      s.status = 'PAUSED';
      s.pausedCycles = cycles;
      return answer(res, 200, true);
    }
    case 'unpause':
      if (s.status !== 'PAUSED') return fail(res, 400, `The subscription is not in a valid state (${s.status}).`);
      s.status = 'ACTIVE';
      s.pausedCycles = 0;
      return answer(res, 200, true);
    case 'cancel':
      if (s.status === 'CANCELLED' || s.status === 'COMPLETE') {
        return fail(res, 400, `The subscription is not in a valid state (${s.status}).`);
      }
      await ctx.cancel(s);
      return answer(res, 200, true);
    case 'update': {
      if (s.status === 'CANCELLED') return fail(res, 400, 'The subscription is not in a valid state (CANCELLED).');
      const problem = update(s, fields);
      return problem === undefined ? answer(res, 200, true) : fail(res, 400, problem);
    }
  }
}
