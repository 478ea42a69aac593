import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { parseCheckout, type CheckoutRequest, type Merchant } from './checkout.js';
import { SANDBOX_MERCHANT_ID, SANDBOX_MERCHANT_KEY } from './config.js';
import { nextRunDate } from './dates.js';
import { formPairs, HttpError, readBody, readJson, redirect, sendHtml, sendJson, sendText } from './http.js';
import { buildItn, deliver, tamper, type ItnInput, type Pairs } from './itn.js';
import { feeCents } from './money.js';
import { checkoutPage, errorPage, indexPage, messagePage } from './pages.js';
import { Store, type ItnKind, type ItnRecord, type Subscription } from './store.js';
import { handleSubscriptionsApi, type ApiContext } from './subscriptions-api.js';

export interface SimulatorOptions {
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  merchantId?: string;
  merchantKey?: string;
  /** When set, request, ITN and API signatures include it. */
  passphrase?: string | undefined;
  /** What the simulator calls itself in links and form actions; defaults to http://host:port. */
  publicUrl?: string | undefined;
  /** How long an ITN receiver may take to answer. */
  itnTimeoutMs?: number;
}

export interface PayFastSimulator {
  readonly url: string;
  readonly port: number;
  readonly store: Store;
  close(): Promise<void>;
}

const chargeSchema = z.object({ status: z.enum(['COMPLETE', 'FAILED']).default('COMPLETE') });
const resendSchema = z.object({ tamper: z.enum(['signature', 'amount']).optional() });
const holdSchema = z.object({ hold: z.boolean() });

/** Starts the simulator and resolves once it listens. */
export async function createSimulator(options: SimulatorOptions = {}): Promise<PayFastSimulator> {
  const simulator = new Simulator(options);
  await simulator.listen(options.host ?? '127.0.0.1', options.port ?? 8030);
  return simulator;
}

class Simulator implements PayFastSimulator {
  readonly store = new Store();
  private readonly merchant: Merchant;
  private readonly server: Server;
  private readonly itnTimeoutMs: number;
  /** While set, ITNs are recorded but not posted (PayFast's may arrive after the browser returns); `held` keeps them. */
  private holding = false;
  private held: ItnRecord[] = [];
  url = '';
  port = 0;

  constructor(private readonly options: SimulatorOptions) {
    const passphrase = options.passphrase?.trim() === '' ? undefined : options.passphrase;
    this.merchant = { id: options.merchantId ?? SANDBOX_MERCHANT_ID, key: options.merchantKey ?? SANDBOX_MERCHANT_KEY, passphrase };
    this.itnTimeoutMs = options.itnTimeoutMs ?? 10_000;
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(host: string, port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
    this.url = (this.options.publicUrl ?? `http://${shownHost}:${this.port}`).replace(/\/+$/, '');
  }

  async close(): Promise<void> {
    this.server.closeIdleConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Every request ends in an answer: a bad one gets its reason, a bug a 500; neither stops the server. */
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://simulator');
      await this.route(req, res, url);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendJson(res, status, { error: message });
      else res.end();
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (path === '/eng/process' && (method === 'GET' || method === 'POST')) {
      const pairs = method === 'GET' ? [...url.searchParams] : formPairs(await readBody(req));
      return this.process(res, pairs);
    }
    const step = /^\/eng\/process\/([\w-]+)\/(pay|cancel)$/.exec(path);
    if (step && method === 'POST') return step[2] === 'pay' ? this.pay(res, step[1]!) : this.cancelCheckout(res, step[1]!);
    if (path === '/eng/query/validate' && method === 'POST') {
      const pairs = formPairs(await readBody(req));
      return sendText(res, 200, this.store.isGenuine(pairs) ? 'VALID' : 'INVALID');
    }
    if (path.startsWith('/_sim/')) return this.control(req, res, path, method);
    if (await handleSubscriptionsApi(req, res, url, this.apiContext)) {
      this.store.addApiCall({
        method,
        path,
        query: Object.fromEntries(url.searchParams),
        status: res.statusCode,
        at: new Date().toISOString(),
      });
      return;
    }
    if (path === '/' && method === 'GET') return sendHtml(res, 200, indexPage(this.merchant.id, this.merchant.passphrase !== undefined));
    sendJson(res, 404, { error: `no route for ${method} ${url.pathname}` });
  }

  private process(res: ServerResponse, pairs: Pairs): void {
    const result = parseCheckout(pairs, this.merchant);
    if (!result.ok) return sendHtml(res, 400, errorPage(result.problems));
    const checkout = this.store.addCheckout(result.request);
    sendHtml(res, 200, checkoutPage(result.request, `${this.url}/eng/process/${checkout.id}`));
  }

  private async pay(res: ServerResponse, id: string): Promise<void> {
    const checkout = this.store.checkouts.get(id);
    if (!checkout) return sendHtml(res, 404, messagePage('Payment not found', 'This payment page has expired. Start again from the shop.'));
    if (checkout.state !== 'open') {
      return sendHtml(res, 409, messagePage('Already done', `This payment was already ${checkout.state}; nothing more was charged.`));
    }
    checkout.state = 'paid';
    const request = checkout.request;
    const s = request.subscription;
    const token = s ? randomUUID() : undefined;
    if (s && token) {
      this.store.subscriptions.set(token, {
        token,
        status: 'ACTIVE',
        request,
        recurringCents: s.recurringCents,
        frequency: s.frequency,
        cycles: s.cycles,
        cyclesComplete: 0,
        runDate: s.billingDate,
        pausedCycles: 0,
        createdAt: new Date().toISOString(),
      });
    }
    const itn = await this.charge('payment', request, request.amountCents, 'COMPLETE', token, s?.billingDate);
    // The payer goes back to the shop whatever the merchant answered the ITN (as at PayFast); the answer is in a
    // header for load tools, which count a payment as the merchant's only once it took the ITN (200).
    const answer = { 'x-sim-itn-status': String(itn?.responseStatus ?? 'none') };
    if (request.returnUrl) return redirect(res, request.returnUrl, answer);
    res.setHeader('x-sim-itn-status', answer['x-sim-itn-status']);
    sendHtml(res, 200, messagePage('Payment complete', 'The payment went through. You may close this page.'));
  }

  private cancelCheckout(res: ServerResponse, id: string): void {
    const checkout = this.store.checkouts.get(id);
    if (!checkout) return sendHtml(res, 404, messagePage('Payment not found', 'This payment page has expired.'));
    if (checkout.state !== 'open') {
      return sendHtml(res, 409, messagePage('Already done', `This payment was already ${checkout.state}.`));
    }
    // The buyer walked away before paying: PayFast sends no ITN (nothing happened), it only returns the browser.
    checkout.state = 'cancelled';
    if (checkout.request.cancelUrl) return redirect(res, checkout.request.cancelUrl);
    sendHtml(res, 200, messagePage('Payment cancelled', 'Nothing was charged. You may close this page.'));
  }

  /** Records a payment and posts its ITN (awaited, so tests see it before the redirect). */
  private async charge(
    kind: ItnKind,
    request: CheckoutRequest,
    grossCents: number,
    status: 'COMPLETE' | 'FAILED',
    token?: string,
    billingDate?: string,
  ): Promise<ItnRecord | undefined> {
    const pfPaymentId = this.store.nextPfPaymentId();
    this.store.payments.push({
      pfPaymentId,
      mPaymentId: request.mPaymentId,
      status,
      amountCents: grossCents,
      itemName: request.itemName,
      ...(token ? { token } : {}),
      createdAt: new Date().toISOString(),
    });
    // A failed charge moved no money, so there is no fee to report.
    const fee = status === 'COMPLETE' ? feeCents(grossCents) : 0;
    return this.sendItn(kind, request, { request, pfPaymentId, status, grossCents, feeCents: fee, token, billingDate });
  }

  private async sendItn(kind: ItnKind, request: CheckoutRequest, input: ItnInput): Promise<ItnRecord | undefined> {
    if (!request.notifyUrl) return undefined;
    const pairs = buildItn(input, this.merchant.passphrase);
    const record = this.store.addItn(
      {
        kind,
        url: request.notifyUrl,
        pfPaymentId: input.pfPaymentId,
        paymentStatus: input.status,
        ...(input.token ? { token: input.token } : {}),
      },
      pairs,
      true,
    );
    if (this.holding) this.held.push(record);
    else await this.post(record);
    return record;
  }

  private async post(record: ItnRecord): Promise<void> {
    const delivery = await deliver(record.url, record.body, this.itnTimeoutMs);
    record.responseStatus = delivery.status;
    if (delivery.error !== undefined) record.error = delivery.error;
  }

  /** The next recurring charge of a subscription, on demand. */
  private async chargeSubscription(token: string, status: 'COMPLETE' | 'FAILED'): Promise<ItnRecord | undefined> {
    const s = this.store.subscriptions.get(token);
    if (!s) throw new HttpError(404, `no subscription with token ${token}`);
    if (s.status !== 'ACTIVE') throw new HttpError(409, `subscription ${token} is ${s.status} and takes no charges`);
    const runDate = s.runDate;
    if (status === 'COMPLETE') {
      s.cyclesComplete += 1;
      s.runDate = nextRunDate(s.runDate, s.frequency);
      if (s.cycles > 0 && s.cyclesComplete >= s.cycles) s.status = 'COMPLETE';
    }
    return this.charge('recurring', s.request, s.recurringCents, status, token, runDate);
  }

  /** API cancel: no more charges, and the CANCELLED ITN PayFast documents for a cancelled subscription. */
  private async cancelSubscription(s: Subscription): Promise<void> {
    s.status = 'CANCELLED';
    s.pausedCycles = 0;
    const pfPaymentId = this.store.nextPfPaymentId();
    await this.sendItn('cancelled', s.request, {
      request: s.request,
      pfPaymentId,
      status: 'CANCELLED',
      grossCents: 0,
      feeCents: 0,
      token: s.token,
      billingDate: s.runDate,
    });
  }

  private get apiContext(): ApiContext {
    return { merchant: this.merchant, subscriptions: this.store.subscriptions, cancel: (s) => this.cancelSubscription(s) };
  }

  private async resend(id: number, how: 'signature' | 'amount' | undefined): Promise<ItnRecord> {
    const original = this.store.findItn(id);
    if (!original) throw new HttpError(404, `no ITN number ${id}`);
    const pairs = formPairs(original.body);
    const sent = how ? tamper(pairs, how, this.merchant.passphrase) : pairs;
    const record = this.store.addItn(
      {
        kind: 'resend',
        url: original.url,
        pfPaymentId: original.pfPaymentId,
        paymentStatus: original.paymentStatus,
        ...(original.token ? { token: original.token } : {}),
        resendOf: original.id,
        ...(how ? { tamper: how } : {}),
      },
      sent,
      false,
    );
    await this.post(record);
    return record;
  }

  /** `/_sim/*`: what tests and developers use to look inside and to make PayFast act. */
  private async control(req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<void> {
    const { store } = this;
    if (method === 'GET' && path === '/_sim/itns') return sendJson(res, 200, store.itns);
    if (method === 'GET' && path === '/_sim/payments') return sendJson(res, 200, store.payments);
    if (method === 'GET' && path === '/_sim/api-calls') return sendJson(res, 200, store.apiCalls);
    if (method === 'GET' && path === '/_sim/subscriptions') return sendJson(res, 200, [...store.subscriptions.values()].map(describe));
    if (method === 'POST' && path === '/_sim/itns/hold') {
      const body = parseWith(holdSchema, await readJson(req));
      this.holding = body.hold;
      const released = body.hold ? [] : this.held.splice(0);
      for (const record of released) await this.post(record);
      return sendJson(res, 200, { holding: this.holding, released: released.map((r) => r.id) });
    }
    if (method === 'POST' && path === '/_sim/reset') {
      store.reset();
      return sendJson(res, 200, { reset: true });
    }
    const one = /^\/_sim\/itns\/(\d+)$/.exec(path);
    if (method === 'GET' && one) {
      const record = store.findItn(Number(one[1]));
      return record ? sendJson(res, 200, record) : sendJson(res, 404, { error: `no ITN number ${one[1]}` });
    }
    const resend = /^\/_sim\/itns\/(\d+)\/resend$/.exec(path);
    if (method === 'POST' && resend) {
      const body = parseWith(resendSchema, await readJson(req));
      return sendJson(res, 200, await this.resend(Number(resend[1]), body.tamper));
    }
    const charge = /^\/_sim\/subscriptions\/([^/]+)\/charge$/.exec(path);
    if (method === 'POST' && charge) {
      const body = parseWith(chargeSchema, await readJson(req));
      const record = await this.chargeSubscription(decodeURIComponent(charge[1]!), body.status);
      return sendJson(res, 200, { itn: record ?? null, subscription: describe(store.subscriptions.get(decodeURIComponent(charge[1]!))!) });
    }
    sendJson(res, 404, { error: `no control route for ${method} ${path}` });
  }
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new HttpError(400, result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
}

/** A subscription as the control API lists it: the terms, not the whole request. */
function describe(s: Subscription) {
  return {
    token: s.token,
    status: s.status,
    mPaymentId: s.request.mPaymentId,
    itemName: s.request.itemName,
    recurringCents: s.recurringCents,
    frequency: s.frequency,
    cycles: s.cycles,
    cyclesComplete: s.cyclesComplete,
    runDate: s.runDate,
    pausedCycles: s.pausedCycles,
    notifyUrl: s.request.notifyUrl ?? null,
    createdAt: s.createdAt,
  };
}
