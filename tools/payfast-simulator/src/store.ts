import { randomUUID } from 'node:crypto';
import type { CheckoutRequest } from './checkout.js';
import { encodeForm, type Pairs, type PaymentStatus, type Tamper } from './itn.js';

/** A request that passed the checks and waits for the buyer's Pay or Cancel. */
export interface Checkout {
  id: string;
  request: CheckoutRequest;
  state: 'open' | 'paid' | 'cancelled';
  createdAt: string;
}

export interface Payment {
  pfPaymentId: string;
  mPaymentId: string;
  status: PaymentStatus;
  amountCents: number;
  itemName: string;
  token?: string;
  createdAt: string;
}

export type SubscriptionStatus = 'ACTIVE' | 'PAUSED' | 'CANCELLED' | 'COMPLETE';

export interface Subscription {
  token: string;
  status: SubscriptionStatus;
  request: CheckoutRequest;
  recurringCents: number;
  frequency: number;
  cycles: number;
  /** Recurring charges that went through (the first payment on the process page is not one of them). */
  cyclesComplete: number;
  /** The date of the next recurring charge, YYYY-MM-DD. */
  runDate: string;
  /** Cycles asked for by the last pause; 0 when not paused. */
  pausedCycles: number;
  createdAt: string;
}

/** A call to the subscriptions API as it arrived: method, path and query (`testing=true` marks PayFast's sandbox). */
export interface ApiCall {
  method: string;
  path: string;
  /** The query string's fields, in order. */
  query: Record<string, string>;
  /** The answer's HTTP status. */
  status: number;
  at: string;
}

export type ItnKind = 'payment' | 'recurring' | 'cancelled' | 'resend';

export interface ItnRecord {
  /** 1, 2, 3 …: what `/_sim/itns/{n}/resend` takes. */
  id: number;
  kind: ItnKind;
  url: string;
  /** The body exactly as posted. */
  body: string;
  fields: Record<string, string>;
  pfPaymentId: string;
  paymentStatus: string;
  token?: string;
  /** The receiver's HTTP status; null while sending or when it could not be reached. */
  responseStatus: number | null;
  error?: string;
  sentAt: string;
  resendOf?: number;
  tamper?: Tamper;
}

/** How many open checkouts and sent ITNs a long-running simulator keeps; the oldest go first. */
const KEEP = 5000;

/** Everything the simulator remembers, in memory. `reset` forgets it all except the payment id counter. */
export class Store {
  readonly checkouts = new Map<string, Checkout>();
  readonly payments: Payment[] = [];
  readonly subscriptions = new Map<string, Subscription>();
  readonly itns: ItnRecord[] = [];
  /** Every subscriptions API call, oldest first (`/_sim/api-calls`). */
  readonly apiCalls: ApiCall[] = [];
  /** The bodies PayFast (we) really sent, without the signature, mapped to their signature: the validate answer. */
  private readonly genuine = new Map<string, string>();
  private itnSeq = 0;
  private lastPfPaymentId = 0;

  /**
   * Numeric and unique even across restarts (seeded from the clock in seconds), so a development database that
   * keeps pf_payment_id for idempotency never sees one twice.
   */
  nextPfPaymentId(): string {
    this.lastPfPaymentId = Math.max(this.lastPfPaymentId + 1, Math.floor(Date.now() / 1000));
    return String(this.lastPfPaymentId);
  }

  addCheckout(request: CheckoutRequest): Checkout {
    const checkout: Checkout = { id: randomUUID(), request, state: 'open', createdAt: new Date().toISOString() };
    this.checkouts.set(checkout.id, checkout);
    if (this.checkouts.size > KEEP) this.checkouts.delete(this.checkouts.keys().next().value!);
    return checkout;
  }

  /** Records an ITN about to be posted; a genuine one is what the validate endpoint will call VALID. */
  addItn(entry: Omit<ItnRecord, 'id' | 'body' | 'fields' | 'responseStatus' | 'sentAt'>, pairs: Pairs, genuine: boolean): ItnRecord {
    const fields = Object.fromEntries(pairs);
    const record: ItnRecord = {
      id: ++this.itnSeq,
      ...entry,
      body: encodeForm(pairs),
      fields,
      responseStatus: null,
      sentAt: new Date().toISOString(),
    };
    if (genuine) this.genuine.set(unsignedKey(pairs), fields['signature'] ?? '');
    this.itns.push(record);
    if (this.itns.length > KEEP) this.itns.shift();
    return record;
  }

  addApiCall(call: ApiCall): void {
    this.apiCalls.push(call);
    if (this.apiCalls.length > KEEP) this.apiCalls.shift();
  }

  findItn(id: number): ItnRecord | undefined {
    return this.itns.find((i) => i.id === id);
  }

  /**
   * Whether posted fields are an ITN we sent: the same fields in the same order with the same values. The signature
   * may be left out (PayFast's PHP SDK posts the fields before it) but, when present, must be the one we sent.
   */
  isGenuine(pairs: Pairs): boolean {
    const sent = this.genuine.get(unsignedKey(pairs));
    if (sent === undefined) return false;
    const posted = pairs.find(([k]) => k === 'signature')?.[1];
    return posted === undefined || posted === sent;
  }

  reset(): void {
    this.checkouts.clear();
    this.payments.length = 0;
    this.subscriptions.clear();
    this.itns.length = 0;
    this.apiCalls.length = 0;
    this.genuine.clear();
  }
}

const unsignedKey = (pairs: Pairs): string => encodeForm(pairs.filter(([k]) => k !== 'signature'));
