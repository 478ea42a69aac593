import { Inject, Injectable } from '@nestjs/common';
import type { ExportChunk, PageRequest } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, exportChunk, toPage, type ExportList } from '@digicard/server';
import { ItnsRepository } from './itns.repository.js';
import { PaymentRequestsRepository } from './payment-requests.repository.js';
import { PaymentsRepository } from './payments.repository.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

/**
 * Everything payments holds about the signed-in account (POPIA's right of access), in chunks, each list oldest first
 * and a page at a time: what we asked PayFast to charge, the payments and subscriptions, and PayFast's notifications
 * about those payments as received. PayFast's subscription token is held but not shown (with the merchant's keys it
 * acts on the subscription).
 */
@Injectable()
export class PaymentsAccountData {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ItnsRepository) private readonly itns: ItnsRepository,
    @Inject(PaymentRequestsRepository) private readonly requests: PaymentRequestsRepository,
    @Inject(PaymentsRepository) private readonly payments: PaymentsRepository,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
  ) {}

  export(accountId: string, request: PageRequest): Promise<ExportChunk> {
    const lists: ExportList[] = [
      {
        name: 'paymentRequests',
        read: async (start, limit, part) =>
          toPage(
            await this.requests.paymentRequestsPage(this.db, accountId, start, limit),
            limit,
            (rows) =>
              rows.map((r) => ({
                id: r.id,
                kind: r.kind,
                orderId: r.orderId,
                subscriptionId: r.subscriptionId,
                amountCents: r.amountCents,
                itemName: r.itemName,
                billingDate: r.billingDate,
                createdAt: iso(r.createdAt),
              })),
            part,
          ),
      },
      {
        name: 'payments',
        read: async (start, limit, part) =>
          toPage(
            await this.payments.paymentsPage(this.db, accountId, start, limit),
            limit,
            (rows) =>
              rows.map((p) => ({
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
            part,
          ),
      },
      {
        name: 'subscriptions',
        read: async (start, limit, part) =>
          toPage(
            await this.subscriptions.subscriptionsPage(this.db, accountId, start, limit),
            limit,
            (rows) =>
              rows.map((s) => ({
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
            part,
          ),
      },
      {
        name: 'payFastNotifications',
        read: async (start, limit, part) =>
          toPage(
            await this.itns.itnsPage(this.db, accountId, start, limit),
            limit,
            (rows) =>
              rows.map((n) => ({
                id: n.id,
                receivedAt: iso(n.receivedAt),
                sourceIp: n.sourceIp,
                verdict: n.verdict,
                reason: n.reason,
                processedAt: iso(n.processedAt),
                body: n.rawBody,
              })),
            part,
          ),
      },
    ];
    return exportChunk(request, async () => ({ membershipVersion: await this.subscriptions.membershipVersion(this.db, accountId) }), lists);
  }
}
