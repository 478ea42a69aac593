import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { itns, membershipVersions, paymentRequests, payments, subscriptions } from '../db/schema.js';

type Executor = Database | Transaction;
export type PaymentRequestRow = typeof paymentRequests.$inferSelect;
export type ItnRow = typeof itns.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Payments, newest first (ties by id): the keyset of the staff console's refunds. */
const PaymentsNewestFirst: Keyset = { at: payments.createdAt, id: payments.id, order: 'newest-first' };

/** The statuses in which an account holds its paid tier. */
export const HOLDING: SubscriptionRow['status'][] = ['active', 'cancelling', 'past-due'];

/** The only place with SQL for payments. */
@Injectable()
export class PaymentsRepository {
  async insertPaymentRequest(db: Executor, row: typeof paymentRequests.$inferInsert): Promise<void> {
    await db.insert(paymentRequests).values(row);
  }

  async paymentRequest(db: Executor, id: string): Promise<PaymentRequestRow | null> {
    const [row] = await db.select().from(paymentRequests).where(eq(paymentRequests.id, id)).limit(1);
    return row ?? null;
  }

  async insertItn(db: Executor, row: typeof itns.$inferInsert): Promise<void> {
    await db.insert(itns).values(row);
  }

  /** The ITNs due for a decision, oldest first. */
  dueItns(db: Executor, now: Date, limit: number): Promise<ItnRow[]> {
    return db
      .select()
      .from(itns)
      .where(and(isNull(itns.processedAt), lte(itns.nextAttemptAt, now)))
      .orderBy(asc(itns.receivedAt))
      .limit(limit);
  }

  /** Takes an ITN for `leaseMs` (another replica skips it meanwhile); false when someone else has it. */
  async claimItn(db: Executor, id: string, now: Date, leaseMs: number): Promise<boolean> {
    const rows = await db
      .update(itns)
      .set({ nextAttemptAt: new Date(now.getTime() + leaseMs), attempts: sql`${itns.attempts} + 1` })
      .where(and(eq(itns.id, id), isNull(itns.processedAt), lte(itns.nextAttemptAt, now)))
      .returning({ id: itns.id });
    return rows.length > 0;
  }

  async decideItn(db: Executor, id: string, verdict: string, reason: string, at: Date): Promise<void> {
    await db.update(itns).set({ verdict, reason, processedAt: at }).where(eq(itns.id, id));
  }

  /**
   * Deletes decided ITNs received before `before` that moved no money (rejected, ignored, duplicate: no payment row
   * names them); an applied ITN stays with its payment as the record of it. Returns how many went.
   */
  async purgeItns(db: Executor, before: Date): Promise<number> {
    const gone = await db
      .delete(itns)
      .where(
        and(
          isNotNull(itns.processedAt),
          lte(itns.receivedAt, before),
          sql`${itns.verdict} <> 'applied'`,
          sql`NOT EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.itnId} = ${itns.id})`,
        ),
      )
      .returning({ id: itns.id });
    return gone.length;
  }

  async retryItn(db: Executor, id: string, reason: string, next: Date): Promise<void> {
    await db.update(itns).set({ verdict: 'retrying', reason, nextAttemptAt: next }).where(eq(itns.id, id));
  }

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

  paymentsOf(db: Executor, accountId: string): Promise<PaymentRow[]> {
    return db.select().from(payments).where(eq(payments.accountId, accountId)).orderBy(desc(payments.createdAt)).limit(100);
  }

  async insertSubscription(db: Executor, row: typeof subscriptions.$inferInsert): Promise<void> {
    await db.insert(subscriptions).values(row);
  }

  async subscription(db: Executor, id: string, forUpdate = false): Promise<SubscriptionRow | null> {
    const query = db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    const [row] = forUpdate ? await query.for('update') : await query;
    return row ?? null;
  }

  /** The account's subscription that holds its tier (active, cancelling, past-due), if any. */
  async holdingSubscription(db: Executor, accountId: string): Promise<SubscriptionRow | null> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), inArray(subscriptions.status, HOLDING)))
      .orderBy(desc(subscriptions.updatedAt))
      .limit(1);
    return row ?? null;
  }

  /** The account's pending subscription (a checkout not yet paid), newest first. */
  async pendingSubscription(db: Executor, accountId: string): Promise<SubscriptionRow | null> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.status, 'pending')))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1);
    return row ?? null;
  }

  /**
   * Serialises the account's checkouts until the transaction ends (a transaction-scoped advisory lock on the account:
   * there may be no row yet to lock).
   */
  async lockAccountCheckouts(tx: Transaction, accountId: string): Promise<void> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`payments.checkout:${accountId}`}, 0))`);
  }

  /** The account's latest subscription whatever its status. */
  async latestSubscription(db: Executor, accountId: string): Promise<SubscriptionRow | null> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.accountId, accountId))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1);
    return row ?? null;
  }

  async updateSubscription(
    db: Executor,
    id: string,
    values: Partial<typeof subscriptions.$inferInsert>,
    at: Date,
  ): Promise<SubscriptionRow> {
    const [row] = await db
      .update(subscriptions)
      .set({ ...values, updatedAt: at })
      .where(eq(subscriptions.id, id))
      .returning();
    if (!row) throw new Error(`subscription ${id} vanished`);
    return row;
  }

  /** Subscriptions whose tier has run out by `now`: cancelled past paid_until, or past due past the grace. */
  lapsed(db: Executor, now: Date): Promise<SubscriptionRow[]> {
    return db
      .select()
      .from(subscriptions)
      .where(
        sql`(${subscriptions.status} = 'cancelling' AND ${subscriptions.paidUntil} <= ${now.toISOString()})
          OR (${subscriptions.status} = 'past-due' AND ${subscriptions.graceUntil} <= ${now.toISOString()})`,
      )
      .limit(500);
  }

  /** Serialises an account's membership changes and returns its next version. */
  async nextMembershipVersion(tx: Transaction, accountId: string): Promise<number> {
    const [row] = await tx
      .insert(membershipVersions)
      .values({ accountId, version: 1 })
      .onConflictDoUpdate({ target: membershipVersions.accountId, set: { version: sql`${membershipVersions.version} + 1` } })
      .returning({ version: membershipVersions.version });
    if (!row) throw new Error('membership version not returned');
    return row.version;
  }

  // ------------------------------------------------------------------------------------------ the data export

  /** The data export (POPIA), a page at a time, oldest first: `limit + 1` rows at most, after `start`. */
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

  async subscriptionsPage(db: Executor, accountId: string, start: KeysetPosition | null, limit: number) {
    const keyset: Keyset = { at: subscriptions.createdAt, id: subscriptions.id, order: 'oldest-first' };
    const rows = await db
      .select({ row: subscriptions, position: positionOf(subscriptions.createdAt) })
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), after(keyset, start)))
      .orderBy(...orderOf(keyset))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.row, position: r.position }));
  }

  /** PayFast's notifications about the account's payments, as received. */
  async itnsPage(db: Executor, accountId: string, start: KeysetPosition | null, limit: number) {
    const keyset: Keyset = { at: itns.receivedAt, id: itns.id, order: 'oldest-first' };
    const ofAccount = db.select({ id: payments.itnId }).from(payments).where(eq(payments.accountId, accountId));
    const rows = await db
      .select({ row: itns, position: positionOf(itns.receivedAt) })
      .from(itns)
      .where(and(inArray(itns.id, ofAccount), after(keyset, start)))
      .orderBy(...orderOf(keyset))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.row, position: r.position }));
  }

  async membershipVersion(db: Executor, accountId: string): Promise<number | null> {
    const [row] = await db.select().from(membershipVersions).where(eq(membershipVersions.accountId, accountId)).limit(1);
    return row?.version ?? null;
  }
}
