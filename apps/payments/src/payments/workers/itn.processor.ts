import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay, type Transaction } from '@digicard/messaging';
import { amountMatches, isPayFastAddress, merchantMatches, verifyItnSignature } from '@digicard/payfast';
import { CONFIG, DATABASE, LOGGER, OUTBOX_RELAY, itnVerdicts } from '@digicard/server';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { addDateMonths, addDays, addMonths, Clock, johannesburgDate, startOfJohannesburgDay } from '../clock.js';
import { chargeOf, recordMembershipChanged, recordSubscriptionCancelled } from '../membership.js';
import { PayFastClient } from '../clients/payfast.client.js';
import { ItnsRepository, type ItnRow } from '../itns.repository.js';
import { PaymentRequestsRepository, type PaymentRequestRow } from '../payment-requests.repository.js';
import { PaymentsRepository } from '../payments.repository.js';
import { SubscriptionsRepository, type SubscriptionRow } from '../subscriptions.repository.js';

type Pairs = Array<[string, string]>;
type Verdict = { verdict: 'applied' | 'duplicate' | 'ignored' | 'rejected'; reason: string };

const field = (pairs: Pairs, key: string): string => pairs.find(([k]) => k === key)?.[1] ?? '';
/** The charge's billing date as PayFast posted it, or today (SAST) when it posted none. */
const billingDateOf = (pairs: Pairs, now: Date): string =>
  /^\d{4}-\d{2}-\d{2}$/.test(field(pairs, 'billing_date')) ? field(pairs, 'billing_date') : johannesburgDate(now);
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long one replica holds an ITN while deciding it (the validate call included). */
const LEASE_MS = 60_000;
const maxDate = (a: Date | null, b: Date): Date => (a && a > b ? a : b);
const maxIsoDate = (a: string | null, b: string): string => (a && a > b ? a : b);

/**
 * Decides stored ITNs: signature (posted order, blanks included), source address, merchant, amount against our
 * payment request, then PayFast's validate call (an ERROR or time-out is tried again later, never applied). Only a
 * fully valid ITN changes state, in one transaction with its events; every ITN keeps its verdict and reason.
 */
@Injectable()
export class ItnProcessor {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ItnsRepository) private readonly itns: ItnsRepository,
    @Inject(PaymentRequestsRepository) private readonly requests: PaymentRequestsRepository,
    @Inject(PaymentsRepository) private readonly payments: PaymentsRepository,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /** Starts a pass over the due ITNs unless one runs (then one more pass follows it). */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.processDue().catch((error: unknown) => this.logger.error({ err: error }, 'ITN pass failed'));
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Waits for the current pass (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async processDue(): Promise<void> {
    for (;;) {
      const due = await this.itns.dueItns(this.db, this.clock.now(), 20);
      if (due.length === 0) return;
      let progressed = false;
      for (const itn of due) {
        if (!(await this.itns.claimItn(this.db, itn.id, this.clock.now(), LEASE_MS))) continue;
        progressed = true;
        await this.process(itn).catch(async (error: unknown) => {
          this.logger.error({ err: error, itnId: itn.id }, 'ITN processing failed; will retry');
          await this.itns.retryItn(this.db, itn.id, 'processing failed; retrying', this.retryAt(itn.attempts + 1));
        });
      }
      if (!progressed) return;
    }
  }

  private retryAt(attempts: number): Date {
    return new Date(this.clock.now().getTime() + Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000));
  }

  private async process(itn: ItnRow): Promise<void> {
    const pairs: Pairs = [...new URLSearchParams(itn.rawBody)];
    const checked = await this.check(itn, pairs);
    if ('retry' in checked) {
      await this.itns.retryItn(this.db, itn.id, checked.retry, this.retryAt(itn.attempts + 1));
      return;
    }
    if ('verdict' in checked) {
      await this.decide(this.db, itn.id, checked);
      return;
    }
    const { request } = checked;
    await this.db.transaction(async (tx) => {
      const verdict =
        request.kind === 'order'
          ? await this.applyOrder(tx, itn, pairs, request)
          : request.kind === 'special'
            ? await this.applySpecial(tx, itn, pairs, request)
            : await this.applySubscription(tx, itn, pairs, request);
      await this.decide(tx, itn.id, verdict);
    });
    this.relay?.kick();
  }

  private async decide(db: Database | Transaction, id: string, v: Verdict): Promise<void> {
    await this.itns.decideItn(db, id, v.verdict, v.reason, this.clock.now());
    itnVerdicts.inc({ verdict: v.verdict });
    if (v.verdict === 'rejected') this.logger.warn({ itnId: id, reason: v.reason }, 'ITN rejected');
  }

  private async check(itn: ItnRow, pairs: Pairs): Promise<Verdict | { retry: string } | { request: PaymentRequestRow }> {
    const reject = (reason: string): Verdict => ({ verdict: 'rejected', reason });
    if (!verifyItnSignature(pairs, this.config.PAYFAST_PASSPHRASE)) return reject('signature does not match the posted fields');
    if (!isPayFastAddress(itn.sourceIp ?? '', this.config.PAYFAST_SOURCE_RANGES))
      return reject(`source address ${itn.sourceIp ?? 'unknown'} is not PayFast's`);
    if (!merchantMatches(pairs, this.config.PAYFAST_MERCHANT_ID)) return reject(`merchant_id ${field(pairs, 'merchant_id')} is not ours`);
    const mPaymentId = field(pairs, 'm_payment_id');
    const request = uuidPattern.test(mPaymentId) ? await this.requests.paymentRequest(this.db, mPaymentId) : null;
    if (!request) return reject(`unknown m_payment_id ${mPaymentId.slice(0, 64)}`);
    const status = field(pairs, 'payment_status');
    if (!['COMPLETE', 'FAILED', 'CANCELLED'].includes(status))
      return { verdict: 'ignored', reason: `payment_status ${status.slice(0, 32)} is not acted on` };
    // An order's amount is the request's. A subscription's charges are months of the tier each pays for (the new
    // tier's price from the billing date a change takes effect); a special's first charge is its order total.
    const monthly = request.kind === 'order' ? [] : await this.monthlyPriceOf(request, billingDateOf(pairs, this.clock.now()));
    const expected =
      request.kind === 'order'
        ? [request.amountCents]
        : request.kind === 'special'
          ? [request.amountCents, ...monthly]
          : monthly.length > 0
            ? monthly
            : [request.amountCents];
    if (status !== 'CANCELLED' && !expected.some((cents) => amountMatches(field(pairs, 'amount_gross'), cents))) {
      return reject(`amount_gross ${field(pairs, 'amount_gross').slice(0, 32)} is not the ${expected.join(' or ')} cents requested`);
    }
    if (!field(pairs, 'pf_payment_id')) return reject('no pf_payment_id');
    const validation = await this.payfast.validate(pairs);
    if (validation === 'ERROR') return { retry: 'PayFast validate call failed or timed out; trying again later' };
    if (validation === 'INVALID') return reject('PayFast answered INVALID to the validate call');
    return { request };
  }

  private async applyOrder(tx: Transaction, itn: ItnRow, pairs: Pairs, request: PaymentRequestRow): Promise<Verdict> {
    const status = field(pairs, 'payment_status');
    if (status !== 'COMPLETE') return { verdict: 'ignored', reason: `${status} for an order payment changes nothing` };
    const now = this.clock.now();
    const payment = await this.payments.insertPayment(tx, {
      id: randomUUID(),
      pfPaymentId: field(pairs, 'pf_payment_id'),
      paymentRequestId: request.id,
      accountId: request.accountId,
      kind: 'order',
      orderId: request.orderId,
      amountCents: request.amountCents,
      status: 'complete',
      description: request.itemName,
      itnId: itn.id,
      createdAt: now,
    });
    if (!payment) return { verdict: 'duplicate', reason: `pf_payment_id ${field(pairs, 'pf_payment_id')} already recorded` };
    await recordEvent(tx, outbox, Events.paymentCompleted, {
      paymentId: payment.id,
      accountId: payment.accountId,
      kind: 'order',
      orderId: payment.orderId,
      subscriptionId: null,
      amountCents: payment.amountCents,
      pfPaymentId: payment.pfPaymentId,
      completedAt: now.toISOString(),
      tier: null,
      paidUntil: null,
    });
    return { verdict: 'applied', reason: 'order payment complete' };
  }

  private async monthlyPriceOf(request: PaymentRequestRow, billingDate: string): Promise<number[]> {
    const sub = request.subscriptionId ? await this.subscriptions.subscription(this.db, request.subscriptionId) : null;
    return sub ? [chargeOf(sub, billingDate).amountCents] : [];
  }

  /**
   * A special (cards plus months of DigiGold) in one PayFast subscription. Its first COMPLETE charge pays the order
   * (`payments.payment.completed` of kind order: orders marks it paid, the receipt goes out) and starts the included
   * months now, paid until the request's billing date, when PayFast's monthly DigiGold charges begin. Anything else
   * (the same ITN again, a FAILED or CANCELLED one, the later monthly charges) is the subscription's, as for a
   * membership.
   */
  private async applySpecial(tx: Transaction, itn: ItnRow, pairs: Pairs, request: PaymentRequestRow): Promise<Verdict> {
    const sub = request.subscriptionId ? await this.subscriptions.subscription(tx, request.subscriptionId, true) : null;
    if (!sub || !request.orderId) return { verdict: 'rejected', reason: 'special payment request names no subscription or order' };
    const status = field(pairs, 'payment_status');
    if (sub.status !== 'pending' || status !== 'COMPLETE') {
      return this.applySubscription(tx, itn, pairs, request);
    }
    if (!amountMatches(field(pairs, 'amount_gross'), request.amountCents)) {
      return {
        verdict: 'rejected',
        reason: `amount_gross ${field(pairs, 'amount_gross').slice(0, 32)} is not the special's ${request.amountCents} cents`,
      };
    }
    const token = field(pairs, 'token');
    const now = this.clock.now();
    const pfPaymentId = field(pairs, 'pf_payment_id');
    const payment = await this.payments.insertPayment(tx, {
      id: randomUUID(),
      pfPaymentId,
      paymentRequestId: request.id,
      accountId: request.accountId,
      kind: 'special',
      orderId: request.orderId,
      subscriptionId: sub.id,
      amountCents: request.amountCents,
      status: 'complete',
      description: request.itemName,
      billingDate: johannesburgDate(now),
      itnId: itn.id,
      createdAt: now,
    });
    if (!payment) return { verdict: 'duplicate', reason: `pf_payment_id ${pfPaymentId} already recorded` };
    // The included months start now; PayFast charges the first DigiGold month on the billing date it was given.
    const nextBillingDate = request.billingDate ?? addDateMonths(johannesburgDate(now), 12);
    const paidUntil = maxDate(startOfJohannesburgDay(nextBillingDate), now);
    const updated = await this.subscriptions.updateSubscription(
      tx,
      sub.id,
      { status: 'active', token: token || null, paidUntil, nextBillingDate, graceUntil: null },
      now,
    );
    await recordMembershipChanged(tx, this.subscriptions, updated, now);
    await recordEvent(tx, outbox, Events.paymentCompleted, {
      paymentId: payment.id,
      accountId: payment.accountId,
      kind: 'order',
      orderId: request.orderId,
      subscriptionId: sub.id,
      amountCents: payment.amountCents,
      pfPaymentId,
      completedAt: now.toISOString(),
      tier: updated.tier,
      paidUntil: paidUntil.toISOString(),
      startsMembership: true,
    });
    return { verdict: 'applied', reason: `special paid: order paid, ${updated.tier} active until ${nextBillingDate}` };
  }

  /** Decides per subscription, by its state and the charge's billing date, so ITNs in any order leave it right. */
  private async applySubscription(tx: Transaction, itn: ItnRow, pairs: Pairs, request: PaymentRequestRow): Promise<Verdict> {
    const sub = request.subscriptionId ? await this.subscriptions.subscription(tx, request.subscriptionId, true) : null;
    if (!sub) return { verdict: 'rejected', reason: 'payment request names no subscription' };
    const token = field(pairs, 'token');
    const status = field(pairs, 'payment_status');
    const now = this.clock.now();
    const billingDate = billingDateOf(pairs, now);
    // Another PayFast subscription from the same checkout (paid twice, in two tabs): the money is kept on record and
    // flagged for a refund; it changes nothing else.
    if (sub.token && token && token !== sub.token) {
      if (status !== 'COMPLETE') return { verdict: 'rejected', reason: 'token is not the subscription’s' };
      return this.refundDue(
        tx,
        itn,
        pairs,
        request,
        sub,
        'a second PayFast subscription from one checkout: refund it and cancel that subscription at PayFast',
      );
    }
    if (status === 'CANCELLED') return this.cancelled(tx, sub, now);
    // The month this charge pays for: of the tier a change asked for, from the billing date it takes effect.
    const paid = chargeOf(sub, billingDate);
    const charge = { amountCents: paid.amountCents, description: `DigiCard ${paid.tier} membership (monthly)` };
    const pfPaymentId = field(pairs, 'pf_payment_id');
    const payment = await this.payments.insertPayment(tx, {
      id: randomUUID(),
      pfPaymentId,
      paymentRequestId: request.id,
      accountId: sub.accountId,
      kind: 'subscription',
      subscriptionId: sub.id,
      amountCents: charge.amountCents,
      status: status === 'COMPLETE' ? 'complete' : 'failed',
      description: charge.description,
      billingDate,
      itnId: itn.id,
      createdAt: now,
    });
    if (!payment) return { verdict: 'duplicate', reason: `pf_payment_id ${pfPaymentId} already recorded` };
    if (status === 'COMPLETE') {
      const completed = {
        paymentId: payment.id,
        accountId: sub.accountId,
        kind: 'subscription' as const,
        orderId: null,
        subscriptionId: sub.id,
        amountCents: payment.amountCents,
        pfPaymentId,
        completedAt: now.toISOString(),
      };
      if (sub.status === 'ended') {
        await this.payments.flagRefund(
          tx,
          payment.id,
          sub.token
            ? 'paid after the membership ended: refund it'
            : 'a checkout given up before it was paid (another was opened): refund it and cancel that subscription at PayFast',
        );
        await recordEvent(tx, outbox, Events.paymentCompleted, { ...completed, tier: null, paidUntil: null });
        return { verdict: 'applied', reason: 'payment recorded, but the subscription had ended: refund by hand' };
      }
      // The month this charge pays: from its billing date, or from now for the first one.
      const first = sub.status === 'pending';
      const paidUntil = maxDate(
        sub.paidUntil,
        maxDate(first ? addMonths(now, 1) : null, addMonths(startOfJohannesburgDay(billingDate), 1)),
      );
      const nextBillingDate = maxIsoDate(sub.nextBillingDate, addDateMonths(billingDate, 1));
      const updated = await this.subscriptions.updateSubscription(
        tx,
        sub.id,
        {
          status: sub.status === 'cancelling' ? 'cancelling' : 'active',
          token: sub.token ?? (token || null),
          paidUntil,
          nextBillingDate,
          graceUntil: null,
          // The tier held until now is kept with its price, for a late charge of an earlier month.
          ...(paid.changesTier
            ? {
                tier: paid.tier,
                monthlyPriceCents: paid.amountCents,
                nextTier: null,
                previousTier: sub.tier,
                previousPriceCents: sub.monthlyPriceCents,
                tierFrom: billingDate,
              }
            : {}),
        },
        now,
      );
      await recordMembershipChanged(tx, this.subscriptions, updated, now);
      await recordEvent(tx, outbox, Events.paymentCompleted, {
        ...completed,
        tier: updated.tier,
        paidUntil: paidUntil?.toISOString() ?? null,
        startsMembership: first,
      });
      const reason = first ? 'first month paid: subscription active' : `charge for ${billingDate} paid`;
      return { verdict: 'applied', reason: paid.changesTier ? `${reason}: now ${paid.tier}` : reason };
    }
    // FAILED: only a charge for a month not yet paid puts the subscription past due.
    if (sub.status !== 'active' && sub.status !== 'past-due')
      return { verdict: 'ignored', reason: `failed charge recorded; a ${sub.status} subscription is not put past due` };
    if (sub.nextBillingDate && billingDate < sub.nextBillingDate)
      return { verdict: 'ignored', reason: `failed charge for ${billingDate} recorded; that month is already paid` };
    const graceUntil = sub.status === 'past-due' && sub.graceUntil ? sub.graceUntil : addDays(now, this.config.MEMBERSHIP_GRACE_DAYS);
    await this.subscriptions.updateSubscription(tx, sub.id, { status: 'past-due', graceUntil }, now);
    await recordEvent(tx, outbox, Events.paymentFailed, {
      paymentId: payment.id,
      accountId: sub.accountId,
      subscriptionId: sub.id,
      tier: sub.tier,
      amountCents: payment.amountCents,
      failedAt: now.toISOString(),
      graceUntil: graceUntil.toISOString(),
    });
    return { verdict: 'applied', reason: `charge for ${billingDate} failed: past due until ${graceUntil.toISOString()}` };
  }

  /** A COMPLETE charge that must be paid back: recorded, flagged for the staff console, and nothing else changes. */
  private async refundDue(
    tx: Transaction,
    itn: ItnRow,
    pairs: Pairs,
    request: PaymentRequestRow,
    sub: SubscriptionRow,
    why: string,
  ): Promise<Verdict> {
    const pfPaymentId = field(pairs, 'pf_payment_id');
    const payment = await this.payments.insertPayment(tx, {
      id: randomUUID(),
      pfPaymentId,
      paymentRequestId: request.id,
      accountId: sub.accountId,
      kind: request.kind,
      subscriptionId: sub.id,
      orderId: request.orderId,
      amountCents: Math.round(Number(field(pairs, 'amount_gross')) * 100),
      status: 'complete',
      description: `${request.itemName} (to refund)`,
      billingDate: billingDateOf(pairs, this.clock.now()),
      itnId: itn.id,
      refundDue: why,
      createdAt: this.clock.now(),
    });
    if (!payment) return { verdict: 'duplicate', reason: `pf_payment_id ${pfPaymentId} already recorded` };
    this.logger.warn({ itnId: itn.id, paymentId: payment.id, reason: why }, 'payment to refund');
    return { verdict: 'applied', reason: `payment recorded to refund: ${why}` };
  }

  private async cancelled(tx: Transaction, sub: SubscriptionRow, now: Date): Promise<Verdict> {
    if (sub.status === 'cancelling' || sub.status === 'ended')
      return { verdict: 'duplicate', reason: `subscription already ${sub.status}` };
    if (sub.status === 'pending') {
      await this.subscriptions.updateSubscription(tx, sub.id, { status: 'ended' }, now);
      return { verdict: 'applied', reason: 'cancelled before any payment: ended' };
    }
    const updated = await this.subscriptions.updateSubscription(tx, sub.id, { status: 'cancelling', graceUntil: null }, now);
    await recordSubscriptionCancelled(tx, updated, 'payfast', now);
    return { verdict: 'applied', reason: 'cancelled at PayFast: tier kept until paid_until' };
  }
}
