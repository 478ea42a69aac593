import { Injectable } from '@nestjs/common';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { membershipVersions, subscriptions } from '../db/schema.js';

type Executor = Database | Transaction;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The statuses in which an account holds its paid tier. */
export const HOLDING: SubscriptionRow['status'][] = ['active', 'cancelling', 'past-due'];

/** The SQL of the memberships: the subscriptions, the account's checkout lock and its membership versions. */
@Injectable()
export class SubscriptionsRepository {
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

  /**
   * Serialises the account's checkouts until the transaction ends (a transaction-scoped advisory lock on the account:
   * there may be no row yet to lock).
   */
  async lockAccountCheckouts(tx: Transaction, accountId: string): Promise<void> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`payments.checkout:${accountId}`}, 0))`);
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

  async membershipVersion(db: Executor, accountId: string): Promise<number | null> {
    const [row] = await db.select().from(membershipVersions).where(eq(membershipVersions.accountId, accountId)).limit(1);
    return row?.version ?? null;
  }

  /** The data export (POPIA): the account's subscriptions a page at a time, oldest first, `limit + 1` rows at most, after `start`. */
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
}
