import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { orderLines, orders } from '../db/schema.js';

type Executor = Database | Transaction;
/** The owner's orders, newest first (the lists and the data export). */
const OrdersNewestFirst: Keyset = { at: orders.createdAt, id: orders.id, order: 'newest-first' };
export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type NewOrderLine = Omit<OrderLineRow, 'orderId' | 'position'>;
export interface StoredOrder {
  order: OrderRow;
  lines: OrderLineRow[];
}

/** The only place with SQL for orders and their lines. */
@Injectable()
export class OrdersRepository {
  /** Inserts the order unless its reference is taken (then null: the caller draws another). */
  async insert(
    tx: Transaction,
    order: { id: string; reference: string; accountId: string; totalCents: number },
    lines: NewOrderLine[],
  ): Promise<StoredOrder | null> {
    const [row] = await tx.insert(orders).values(order).onConflictDoNothing({ target: orders.reference }).returning();
    if (!row) return null;
    const stored = await tx
      .insert(orderLines)
      .values(lines.map((line, position) => ({ ...line, orderId: row.id, position })))
      .returning();
    return { order: row, lines: stored.sort((a, b) => a.position - b.position) };
  }

  /** A page of the account's orders, newest first, with their lines: `limit + 1` at most, after `start`. */
  async pageFor(
    db: Executor,
    accountId: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<StoredOrder & { id: string; position: string }>> {
    const rows = await db
      .select({ order: orders, position: positionOf(orders.createdAt) })
      .from(orders)
      .where(and(eq(orders.accountId, accountId), after(OrdersNewestFirst, start)))
      .orderBy(...orderOf(OrdersNewestFirst))
      .limit(limit + 1);
    const stored = await this.withLines(
      db,
      rows.map((r) => r.order),
    );
    return stored.map((s, i) => ({ ...s, id: s.order.id, position: rows[i]!.position }));
  }

  /** Whether the account has any order at all. */
  async hasAny(db: Executor, accountId: string): Promise<boolean> {
    const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.accountId, accountId)).limit(1);
    return row !== undefined;
  }

  async byId(db: Executor, id: string): Promise<StoredOrder | null> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    return row ? ((await this.withLines(db, [row]))[0] ?? null) : null;
  }

  /** The order, locked until the transaction ends: two deliveries of one payment cannot both change it. */
  async lockById(tx: Transaction, id: string): Promise<OrderRow | null> {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).limit(1).for('update');
    return row ?? null;
  }

  /** Awaiting payment (or cancelled before any payment: the money came anyway) becomes paid. */
  async markPaid(tx: Transaction, id: string, paidAt: Date): Promise<StoredOrder> {
    const [row] = await tx
      .update(orders)
      .set({ status: 'paid', paidAt })
      .where(and(eq(orders.id, id), inArray(orders.status, ['awaiting-payment', 'cancelled']), isNull(orders.paidAt)))
      .returning();
    if (!row) throw new Error(`order ${id} was not awaiting payment`);
    return (await this.withLines(tx, [row]))[0]!;
  }

  /** Orders read elsewhere (the print queue) with their lines, in one query for all of them. */
  withLinesOf(db: Executor, rows: OrderRow[]): Promise<StoredOrder[]> {
    return this.withLines(db, rows);
  }

  private async withLines(db: Executor, rows: OrderRow[]): Promise<StoredOrder[]> {
    if (rows.length === 0) return [];
    const lines = await db
      .select()
      .from(orderLines)
      .where(
        inArray(
          orderLines.orderId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(orderLines.orderId), asc(orderLines.position));
    return rows.map((order) => ({ order, lines: lines.filter((l) => l.orderId === order.id) }));
  }
}
