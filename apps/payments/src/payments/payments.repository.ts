import { Injectable } from '@nestjs/common';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { payments } from '../db/schema.js';

type Executor = Database | Transaction;
export type PaymentRow = typeof payments.$inferSelect;

/** Payments, newest first (ties by id): the keyset of the staff console's refunds. */
const PaymentsNewestFirst: Keyset = { at: payments.createdAt, id: payments.id, order: 'newest-first' };

/** The SQL of the payments: one row per charge PayFast made, and the refunds owed by hand. */
@Injectable()
export class PaymentsRepository {
  /** The new payment, or null when one with this pf_payment_id is already recorded. */
  async insertPayment(tx: Transaction, row: typeof payments.$inferInsert): Promise<PaymentRow | null> {
    const [inserted] = await tx.insert(payments).values(row).onConflictDoNothing({ target: payments.pfPaymentId }).returning();
    return inserted ?? null;
  }

  async flagRefund(db: Executor, paymentId: string, why: string): Promise<void> {
    await db.update(payments).set({ refundDue: why }).where(eq(payments.id, paymentId));
  }

  /** A page of the payments flagged to be paid back by hand, newest first (the staff console); `limit + 1` after `start`. */
  refundsDuePage(db: Executor, start: KeysetPosition | null, limit: number): Promise<Array<{ payment: PaymentRow; position: string }>> {
    return db
      .select({ payment: payments, position: positionOf(payments.createdAt) })
      .from(payments)
      .where(and(isNotNull(payments.refundDue), after(PaymentsNewestFirst, start)))
      .orderBy(...orderOf(PaymentsNewestFirst))
      .limit(limit + 1);
  }

  /** The account's payments newest first, `limit + 1` rows at most, after `start` (a page of Billing's payments). */
  historyPage(
    db: Executor,
    accountId: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<{ payment: PaymentRow; position: string }>> {
    return db
      .select({ payment: payments, position: positionOf(payments.createdAt) })
      .from(payments)
      .where(and(eq(payments.accountId, accountId), after(PaymentsNewestFirst, start)))
      .orderBy(...orderOf(PaymentsNewestFirst))
      .limit(limit + 1);
  }

  /** The data export (POPIA): the account's payments a page at a time, oldest first, `limit + 1` rows at most, after `start`. */
  async paymentsPage(db: Executor, accountId: string, start: KeysetPosition | null, limit: number) {
    const keyset: Keyset = { at: payments.createdAt, id: payments.id, order: 'oldest-first' };
    const rows = await db
      .select({ row: payments, position: positionOf(payments.createdAt) })
      .from(payments)
      .where(and(eq(payments.accountId, accountId), after(keyset, start)))
      .orderBy(...orderOf(keyset))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.row, position: r.position }));
  }
}
