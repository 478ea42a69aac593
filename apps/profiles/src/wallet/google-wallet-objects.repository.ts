import { Injectable } from '@nestjs/common';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { googleWalletObjects } from '../db/schema.js';

type Executor = Database | Transaction;
export type GoogleWalletObjectRow = typeof googleWalletObjects.$inferSelect;

/** The SQL of Google Wallet pass objects. */
@Injectable()
export class GoogleWalletObjectsRepository {
  async liveOf(db: Executor, accountId: string, classId: string): Promise<GoogleWalletObjectRow | null> {
    const [row] = await db
      .select()
      .from(googleWalletObjects)
      .where(
        and(eq(googleWalletObjects.accountId, accountId), eq(googleWalletObjects.classId, classId), isNull(googleWalletObjects.voidedAt)),
      )
      .limit(1);
    return row ?? null;
  }

  async bySuffix(db: Executor, objectSuffix: string): Promise<GoogleWalletObjectRow | null> {
    const [row] = await db.select().from(googleWalletObjects).where(eq(googleWalletObjects.objectSuffix, objectSuffix)).limit(1);
    return row ?? null;
  }

  /** A new object; null when the account got one meanwhile (the live object is unique per account and class). */
  async insert(tx: Transaction, row: typeof googleWalletObjects.$inferInsert): Promise<GoogleWalletObjectRow | null> {
    const [inserted] = await tx.insert(googleWalletObjects).values(row).onConflictDoNothing().returning();
    return inserted ?? null;
  }

  /** Records a change of what the object shows; returns its new version. */
  async changed(tx: Transaction, objectSuffix: string, contentHash: string): Promise<number> {
    const [row] = await tx
      .update(googleWalletObjects)
      .set({ contentHash, version: sql`${googleWalletObjects.version} + 1` })
      .where(eq(googleWalletObjects.objectSuffix, objectSuffix))
      .returning({ version: googleWalletObjects.version });
    return row!.version;
  }

  /** The account's live objects become void: no account any more, and a new version (the expiry) to write. */
  async voidAllOf(tx: Transaction, accountId: string, voidHash: string, now: Date): Promise<string[]> {
    const rows = await tx
      .update(googleWalletObjects)
      .set({ accountId: null, voidedAt: now, contentHash: voidHash, version: sql`${googleWalletObjects.version} + 1` })
      .where(and(eq(googleWalletObjects.accountId, accountId), isNull(googleWalletObjects.voidedAt)))
      .returning({ objectSuffix: googleWalletObjects.objectSuffix });
    return rows.map((r) => r.objectSuffix);
  }

  /** The write of this version is queued (a later version stays owed). */
  async writesQueued(db: Executor, objectSuffix: string, version: number): Promise<void> {
    await db
      .update(googleWalletObjects)
      .set({ writesQueuedFor: sql`greatest(${googleWalletObjects.writesQueuedFor}, ${version})` })
      .where(eq(googleWalletObjects.objectSuffix, objectSuffix));
  }

  /** Objects whose write is owed (a queue add Redis refused). */
  async owingWrites(db: Executor): Promise<string[]> {
    const rows = await db
      .select({ objectSuffix: googleWalletObjects.objectSuffix })
      .from(googleWalletObjects)
      .where(lt(googleWalletObjects.writesQueuedFor, googleWalletObjects.version))
      .limit(500);
    return rows.map((r) => r.objectSuffix);
  }

  /** Voided objects whose expiry is queued, voided before the cut-off, go. */
  async deleteVoidedBefore(db: Executor, cutoff: Date): Promise<number> {
    const gone = await db
      .delete(googleWalletObjects)
      .where(
        and(
          isNotNull(googleWalletObjects.voidedAt),
          lt(googleWalletObjects.voidedAt, cutoff),
          sql`${googleWalletObjects.writesQueuedFor} >= ${googleWalletObjects.version}`,
        ),
      )
      .returning({ objectSuffix: googleWalletObjects.objectSuffix });
    return gone.length;
  }

  /** For the owner's data export: their objects (the id Google knows them by). */
  async exportOf(db: Executor, accountId: string): Promise<Array<{ objectSuffix: string; createdAt: string }>> {
    const rows = await db
      .select({ objectSuffix: googleWalletObjects.objectSuffix, createdAt: googleWalletObjects.createdAt })
      .from(googleWalletObjects)
      .where(eq(googleWalletObjects.accountId, accountId));
    return rows.map((r) => ({ objectSuffix: r.objectSuffix, createdAt: r.createdAt.toISOString() }));
  }
}
