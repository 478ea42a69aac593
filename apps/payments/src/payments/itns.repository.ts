import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { itns, payments } from '../db/schema.js';

type Executor = Database | Transaction;
export type ItnRow = typeof itns.$inferSelect;

/** The SQL of PayFast's notifications (ITNs): stored as received, then claimed, decided or retried, and purged. */
@Injectable()
export class ItnsRepository {
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

  async retryItn(db: Executor, id: string, reason: string, next: Date): Promise<void> {
    await db.update(itns).set({ verdict: 'retrying', reason, nextAttemptAt: next }).where(eq(itns.id, id));
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

  /** The data export (POPIA): PayFast's notifications about the account's payments, as received, a page at a time, oldest first. */
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
}
