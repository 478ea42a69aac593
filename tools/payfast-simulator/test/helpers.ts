import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiSignature, buildPaymentRequest, type PaymentRequestInput } from '@digicard/payfast';

export const MERCHANT_ID = '10000100';
export const MERCHANT_KEY = '46f0cd694581a';
export const PASSPHRASE = 'jt7NOE43FZPn';

export interface ReceivedItn {
  body: string;
  pairs: Array<[string, string]>;
  contentType: string | undefined;
}

/** A stand-in for the app's notify_url: keeps every POST and answers with `status` (200 unless changed). */
export async function startReceiver() {
  const received: ReceivedItn[] = [];
  const state = { status: 200 };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ body, pairs: [...new URLSearchParams(body)], contentType: req.headers['content-type'] });
      res.writeHead(state.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    received,
    state,
    notifyUrl: `${base}/api/payfast/itn`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const field = (pairs: ReadonlyArray<readonly [string, string]>, key: string): string | undefined =>
  pairs.find(([k]) => k === key)?.[1];

/** A once-off request as the payments service will build it, signed by libs/payfast. */
export function onceOff(notifyUrl: string, passphrase?: string, overrides: Partial<PaymentRequestInput> = {}) {
  return buildPaymentRequest({
    merchantId: MERCHANT_ID,
    merchantKey: MERCHANT_KEY,
    ...(passphrase ? { passphrase } : {}),
    returnUrl: 'http://shop.test/payment/return',
    cancelUrl: 'http://shop.test/payment/cancel',
    notifyUrl,
    buyer: { nameFirst: 'Thandi', nameLast: "O'Neil", emailAddress: 'thandi@example.co.za' },
    mPaymentId: 'ORD-1001',
    amountCents: 123_456,
    itemName: 'DigiCard Pro NFC card',
    itemDescription: 'Matte black, engraved',
    customStr: ['order-1001'],
    ...overrides,
  });
}

/** A monthly subscription starting 1 July 2026: R 199.00 now, R 99.00 a month until cancelled. */
export function monthly(notifyUrl: string, passphrase: string) {
  return onceOff(notifyUrl, passphrase, {
    mPaymentId: 'SUB-2001',
    amountCents: 19_900,
    itemName: 'DigiGold membership',
    itemDescription: 'Monthly',
    subscription: { subscriptionType: 1, billingDate: '2026-07-01', recurringAmountCents: 9_900, frequency: 3, cycles: 0 },
  });
}

export const formBody = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString();

/** POSTs a form as a browser does, without following redirects. */
export function postForm(url: string, pairs: ReadonlyArray<readonly [string, string]> = []): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: formBody(pairs),
    redirect: 'manual',
  });
}

/** The Pay and Cancel form actions of a process page. */
export function actions(html: string): { pay: string; cancel: string } {
  const found = [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  const pay = found.find((a) => a.endsWith('/pay'));
  const cancel = found.find((a) => a.endsWith('/cancel'));
  if (!pay || !cancel) throw new Error(`no Pay/Cancel forms in:\n${html}`);
  return { pay, cancel };
}

/** Shows the page for a request and returns its actions. */
export async function openCheckout(simulatorUrl: string, formFields: Array<[string, string]>) {
  const res = await postForm(`${simulatorUrl}/eng/process`, formFields);
  const html = await res.text();
  if (res.status !== 200) throw new Error(`process page answered ${res.status}:\n${html}`);
  return { html, ...actions(html) };
}

export const TIMESTAMP = '2026-11-23T16:00:00+02:00';

/** Subscriptions API headers signed with libs/payfast's apiSignature. */
export function apiHeaders(params: Record<string, string | number> = {}, passphrase = PASSPHRASE): Record<string, string> {
  const headers = { 'merchant-id': MERCHANT_ID, version: 'v1', timestamp: TIMESTAMP };
  return { ...headers, signature: apiSignature(headers, params, passphrase) };
}

/**
 * Status and parsed JSON body. Parsed with this realm's JSON: `Response.json()` builds its objects in Node's main
 * realm, which Jest's VM realm does not count as deep-equal to its own literals.
 */
export async function json(res: Response | Promise<Response>): Promise<{ status: number; body: any }> {
  const r = await res;
  return { status: r.status, body: JSON.parse(await r.text()) };
}
