import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { paymentRequests } from '../db/schema.js';

type Executor = Database | Transaction;
export type PaymentRequestRow = typeof paymentRequests.$inferSelect;

/** The SQL of the payment requests: what we asked PayFast to charge, one row per checkout. */
@Injectable()
export class PaymentRequestsRepository {
  async insertPaymentRequest(db: Executor, row: typeof paymentRequests.$inferInsert): Promise<void> {
    await db.insert(paymentRequests).values(row);
  }

  async paymentRequest(db: Executor, id: string): Promise<PaymentRequestRow | null> {
    const [row] = await db.select().from(paymentRequests).where(eq(paymentRequests.id, id)).limit(1);
    return row ?? null;
  }

  /** The data export (POPIA): the account's payment requests a page at a time, oldest first, `limit + 1` rows at most, after `start`. */
  async paymentRequestsPage(db: Executor, accountId: string, start: KeysetPosition | null, limit: number) {
    const keyset: Keyset = { at: paymentRequests.createdAt, id: paymentRequests.id, order: 'oldest-first' };
    const rows = await db
      .select({ row: paymentRequests, position: positionOf(paymentRequests.createdAt) })
      .from(paymentRequests)
      .where(and(eq(paymentRequests.accountId, accountId), after(keyset, start)))
      .orderBy(...orderOf(keyset))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.row, position: r.position }));
  }
}
