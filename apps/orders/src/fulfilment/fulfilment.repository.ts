import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { OrderActor, OrderStatus } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { orderHistory, orders, proofs } from '../db/schema.js';

type Executor = Database | Transaction;
export type HistoryRow = typeof orderHistory.$inferSelect;

/**
 * The SQL of the orders as the print side moves them: their status and history, the print queue. The other tables of
 * fulfilment have their own repositories (cards, proofs, team members, customers), each with SQL for its table only.
 */
@Injectable()
export class FulfilmentRepository {
  async setStatus(
    tx: Transaction,
    orderId: string,
    from: OrderStatus,
    to: OrderStatus,
    shipment?: { courier: string; trackingNumber: string },
  ) {
    const [row] = await tx
      .update(orders)
      .set({
        status: to,
        updatedAt: new Date(),
        ...(shipment ? { courier: shipment.courier, trackingNumber: shipment.trackingNumber } : {}),
      })
      .where(and(eq(orders.id, orderId), eq(orders.status, from)))
      .returning();
    if (!row) throw new Error(`order ${orderId} was not ${from}`);
    return row;
  }

  async addHistory(
    tx: Transaction,
    entry: {
      orderId: string;
      fromStatus: OrderStatus | null;
      toStatus: OrderStatus;
      actor: OrderActor;
      actorAccountId: string | null;
      note: string | null;
      at: Date;
    },
  ): Promise<void> {
    await tx.insert(orderHistory).values(entry);
  }

  async historyOf(db: Executor, orderIds: string[]): Promise<HistoryRow[]> {
    if (orderIds.length === 0) return [];
    return db
      .select()
      .from(orderHistory)
      .where(inArray(orderHistory.orderId, orderIds))
      .orderBy(asc(orderHistory.orderId), asc(orderHistory.id));
  }

  /** Orders of the account whose proof may still change (a profile change renders them again). */
  async awaitingApprovalOf(tx: Transaction, accountId: string): Promise<string[]> {
    const rows = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.accountId, accountId), inArray(orders.status, ['paid', 'proof-ready', 'changes-requested'])));
    return rows.map((r) => r.id);
  }

  /** The print team's queue: every order that was paid (not one awaiting payment, nor one cancelled unpaid), newest first. */
  async printQueue(db: Executor, limit: number) {
    return db.select().from(orders).where(isNotNull(orders.paidAt)).orderBy(desc(orders.paidAt), desc(orders.id)).limit(limit);
  }

  /** Paid orders whose proof failed to render after its retries, newest failure first (the staff console's view). */
  async failedProofOrders(db: Executor, limit: number) {
    const rows = await db
      .select({ order: orders })
      .from(orders)
      .innerJoin(proofs, eq(proofs.orderId, orders.id))
      .where(and(eq(proofs.status, 'failed'), isNotNull(orders.paidAt)))
      .orderBy(desc(proofs.updatedAt), desc(orders.id))
      .limit(limit);
    return rows.map((r) => r.order);
  }
}
