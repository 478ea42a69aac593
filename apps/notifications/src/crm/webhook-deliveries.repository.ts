import { Injectable } from '@nestjs/common';
import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { webhookAttempts, webhookDeliveries } from '../db/schema.js';

type Executor = Database | Transaction;
const DeliveriesNewestFirst: Keyset = { at: webhookDeliveries.createdAt, id: webhookDeliveries.id, order: 'newest-first' };
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** The SQL of the CRM webhook deliveries and their attempts. */
@Injectable()
export class WebhookDeliveriesRepository {
  /** One delivery per event id: a second insert for the same event returns null and changes nothing. */
  async insertDelivery(db: Executor, values: typeof webhookDeliveries.$inferInsert): Promise<DeliveryRow | null> {
    const [row] = await db.insert(webhookDeliveries).values(values).onConflictDoNothing({ target: webhookDeliveries.eventId }).returning();
    return row ?? null;
  }

  async deliveryById(db: Executor, id: string): Promise<DeliveryRow | null> {
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
    return row ?? null;
  }

  async deliveryByEvent(db: Executor, eventId: string): Promise<DeliveryRow | null> {
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)).limit(1);
    return row ?? null;
  }

  /**
   * Deliveries still owed whose next attempt is overdue since before `overdueSince` (never tried: since they were
   * recorded), recorded in the last two days (the retry schedule spans about one): what Redis may have lost.
   */
  async owedDeliveries(db: Executor, overdueSince: Date, limit: number): Promise<Array<Pick<DeliveryRow, 'id' | 'eventId'>>> {
    const due = sql`coalesce(${webhookDeliveries.nextAttemptAt}, ${webhookDeliveries.updatedAt})`;
    return db
      .select({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lt(due, overdueSince),
          gt(webhookDeliveries.createdAt, sql`now() - interval '2 days'`),
        ),
      )
      .orderBy(asc(due))
      .limit(limit);
  }

  /** The owner's delivery, or null (another owner's is nobody's here). */
  async deliveryOf(db: Executor, accountId: string, id: string): Promise<DeliveryRow | null> {
    const [row] = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.accountId, accountId)))
      .limit(1);
    return row ?? null;
  }

  /** The owner's deliveries newest first, `limit + 1` rows at most, after `start` (a page of the delivery log). */
  deliveriesPage(
    db: Executor,
    accountId: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<{ delivery: DeliveryRow; position: string }>> {
    return db
      .select({ delivery: webhookDeliveries, position: positionOf(webhookDeliveries.createdAt) })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.accountId, accountId), after(DeliveriesNewestFirst, start)))
      .orderBy(...orderOf(DeliveriesNewestFirst))
      .limit(limit + 1);
  }

  async attemptCount(db: Executor, deliveryId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, deliveryId));
    return row?.n ?? 0;
  }

  attemptsOf(db: Executor, deliveryId: string): Promise<AttemptRow[]> {
    return db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(asc(webhookAttempts.attempt));
  }

  /**
   * One attempt and the delivery's new state, together. The attempt number is unique per delivery, so a job that
   * BullMQ ran again after a stall does not log the same attempt twice.
   */
  async recordAttempt(
    db: Database,
    attempt: typeof webhookAttempts.$inferInsert,
    delivery: { status: DeliveryRow['status']; nextAttemptAt: Date | null },
  ): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values(attempt).onConflictDoNothing();
      await tx
        .update(webhookDeliveries)
        .set({
          status: delivery.status,
          attempts: sql`(SELECT count(*)::int FROM ${webhookAttempts} WHERE ${webhookAttempts.deliveryId} = ${attempt.deliveryId})`,
          lastStatusCode: attempt.statusCode ?? null,
          lastError: attempt.error ?? null,
          nextAttemptAt: delivery.nextAttemptAt,
          updatedAt: attempt.at,
        })
        .where(eq(webhookDeliveries.id, attempt.deliveryId));
    });
  }

  /** Ends a delivery without an attempt (the endpoint was removed or turned off meanwhile). */
  async endDelivery(db: Executor, id: string, error: string, now: Date): Promise<void> {
    await db
      .update(webhookDeliveries)
      .set({ status: 'failed', lastError: error, nextAttemptAt: null, updatedAt: now })
      .where(eq(webhookDeliveries.id, id));
  }

  /** A deleted account: every delivery with its attempts (the leads' copies) goes. */
  async forget(db: Executor, accountId: string): Promise<void> {
    await db.delete(webhookDeliveries).where(eq(webhookDeliveries.accountId, accountId));
  }
}
