import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { PaymentsRepository } from './payments.repository.js';

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

/**
 * Everything payments holds about the signed-in account (POPIA's right of access): what we asked PayFast to charge,
 * the payments and subscriptions, and PayFast's notifications about those payments as received. PayFast's
 * subscription token is held but not shown (with the merchant's keys it acts on the subscription).
 */
@Injectable()
export class PaymentsAccountData {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(PaymentsRepository) private readonly repo: PaymentsRepository,
  ) {}

  async export(accountId: string): Promise<Record<string, unknown>> {
    const data = await this.repo.accountData(this.db, accountId);
    return {
      paymentRequests: data.requests.map((r) => ({
        id: r.id,
        kind: r.kind,
        orderId: r.orderId,
        subscriptionId: r.subscriptionId,
        amountCents: r.amountCents,
        itemName: r.itemName,
        billingDate: r.billingDate,
        createdAt: iso(r.createdAt),
      })),
      payments: data.payments.map((p) => ({
        id: p.id,
        payFastPaymentId: p.pfPaymentId,
        paymentRequestId: p.paymentRequestId,
        kind: p.kind,
        orderId: p.orderId,
        subscriptionId: p.subscriptionId,
        amountCents: p.amountCents,
        status: p.status,
        description: p.description,
        billingDate: p.billingDate,
        createdAt: iso(p.createdAt),
      })),
      subscriptions: data.subscriptions.map((s) => ({
        id: s.id,
        tier: s.tier,
        status: s.status,
        hasPayFastToken: s.token !== null,
        monthlyPriceCents: s.monthlyPriceCents,
        nextTier: s.nextTier,
        previousTier: s.previousTier,
        previousPriceCents: s.previousPriceCents,
        tierFrom: s.tierFrom,
        paidUntil: iso(s.paidUntil),
        nextBillingDate: s.nextBillingDate,
        graceUntil: iso(s.graceUntil),
        createdAt: iso(s.createdAt),
        updatedAt: iso(s.updatedAt),
      })),
      payFastNotifications: data.itns.map((n) => ({
        id: n.id,
        receivedAt: iso(n.receivedAt),
        sourceIp: n.sourceIp,
        verdict: n.verdict,
        reason: n.reason,
        processedAt: iso(n.processedAt),
        body: n.rawBody,
      })),
      membershipVersion: data.membershipVersion,
    };
  }
}
