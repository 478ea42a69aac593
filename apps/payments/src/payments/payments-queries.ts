import { Inject, Injectable } from '@nestjs/common';
import type { Rpc } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, pageStart, toPage, type RpcBody } from '@digicard/server';
import { PaymentsRepository } from './payments.repository.js';

/** The reads of payments the controller answers (the staff console's). */
@Injectable()
export class PaymentsQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(PaymentsRepository) private readonly payments: PaymentsRepository,
  ) {}

  /** The caller's own payments, newest first, a page at a time (the account comes from `meta` only). */
  async history(accountId: string, page: RpcBody<typeof Rpc.listPayments>) {
    const rows = await this.payments.historyPage(this.db, accountId, pageStart(page), page.limit);
    const { items, nextCursor } = await toPage(
      rows.map((r) => ({ ...r, id: r.payment.id })),
      page.limit,
      (taken) =>
        taken.map(({ payment: p }) => ({
          id: p.id,
          description: p.description,
          amountCents: p.amountCents,
          status: p.status,
          at: p.createdAt.toISOString(),
        })),
    );
    return { payments: items, nextCursor };
  }

  /** The payments to pay back by hand, newest first, a page at a time. */
  async refundsDue(page: RpcBody<typeof Rpc.staffRefundsDue>) {
    const rows = await this.payments.refundsDuePage(this.db, pageStart(page), page.limit);
    const { items, nextCursor } = await toPage(
      rows.map((r) => ({ ...r, id: r.payment.id })),
      page.limit,
      (taken) =>
        taken.map(({ payment: p }) => ({
          id: p.id,
          accountId: p.accountId,
          description: p.description,
          amountCents: p.amountCents,
          pfPaymentId: p.pfPaymentId,
          reason: p.refundDue ?? '',
          at: p.createdAt.toISOString(),
        })),
    );
    return { payments: items, nextCursor };
  }
}
