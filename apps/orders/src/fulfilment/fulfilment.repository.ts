import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { OrderActor, OrderStatus } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { orderHistory, orders, proofs } from '../db/schema.js';
import type { OrderRow } from '../orders/orders.repository.js';

type Executor = Database | Transaction;
export type HistoryRow = typeof orderHistory.$inferSelect;
/** The print queue: newest payment first. */
const PaidNewestFirst: Keyset = { at: orders.paidAt, id: orders.id, order: 'newest-first' };
/** The failed proofs: newest failure first. */
const FailedNewestFirst: Keyset = { at: proofs.updatedAt, id: orders.id, order: 'newest-first' };

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

  /**
   * A page of the print team's queue: the orders that were paid (not one awaiting payment, nor one cancelled unpaid),
   * newest payment first; `limit + 1` at most, after `start`.
   */
  async printQueuePage(db: Executor, start: KeysetPosition | null, limit: number): Promise<Array<{ order: OrderRow; position: string }>> {
    return db
      .select({ order: orders, position: positionOf(orders.paidAt) })
      .from(orders)
      .where(and(isNotNull(orders.paidAt), after(PaidNewestFirst, start)))
      .orderBy(...orderOf(PaidNewestFirst))
      .limit(limit + 1);
  }

  /**
   * A page of the paid orders whose proof failed to render after its retries, newest failure first (the staff
   * console's view); `limit + 1` at most, after `start`.
   */
  async failedProofOrdersPage(
    db: Executor,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<{ order: OrderRow; position: string }>> {
    return db
      .select({ order: orders, position: positionOf(proofs.updatedAt) })
      .from(orders)
      .innerJoin(proofs, eq(proofs.orderId, orders.id))
      .where(and(eq(proofs.status, 'failed'), isNotNull(orders.paidAt), after(FailedNewestFirst, start)))
      .orderBy(...orderOf(FailedNewestFirst))
      .limit(limit + 1);
  }
}
