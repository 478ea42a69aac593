import { Injectable } from '@nestjs/common';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { applePassRegistrations, applePasses } from '../db/schema.js';

type Executor = Database | Transaction;
export type ApplePassRow = typeof applePasses.$inferSelect;

/** The SQL of Apple Wallet passes and the devices registered for their pushes. */
@Injectable()
export class ApplePassesRepository {
  async liveOf(db: Executor, accountId: string, passTypeIdentifier: string): Promise<ApplePassRow | null> {
    const [row] = await db
      .select()
      .from(applePasses)
      .where(
        and(eq(applePasses.accountId, accountId), eq(applePasses.passTypeIdentifier, passTypeIdentifier), isNull(applePasses.voidedAt)),
      )
      .limit(1);
    return row ?? null;
  }

  async bySerial(db: Executor, passTypeIdentifier: string, serialNumber: string): Promise<ApplePassRow | null> {
    const [row] = await db
      .select()
      .from(applePasses)
      .where(and(eq(applePasses.serialNumber, serialNumber), eq(applePasses.passTypeIdentifier, passTypeIdentifier)))
      .limit(1);
    return row ?? null;
  }

  async bySerialAnyType(db: Executor, serialNumber: string): Promise<ApplePassRow | null> {
    const [row] = await db.select().from(applePasses).where(eq(applePasses.serialNumber, serialNumber)).limit(1);
    return row ?? null;
  }

  /** A new pass; null when the account got one meanwhile (the live pass is unique per account and type). */
  async insert(tx: Transaction, row: typeof applePasses.$inferInsert): Promise<ApplePassRow | null> {
    const [inserted] = await tx.insert(applePasses).values(row).onConflictDoNothing().returning();
    return inserted ?? null;
  }

  /**
   * Records a change of what the pass shows: the new digest, and `updated_at` moved on to now, or one second past the
   * last change when that is later (two changes within a second still tell a device apart). Returns the new tag.
   */
  async changed(tx: Transaction, serialNumber: string, contentHash: string, nowSeconds: number): Promise<number> {
    const [row] = await tx
      .update(applePasses)
      .set({ contentHash, updatedAt: sql`greatest(${nowSeconds}, ${applePasses.updatedAt} + 1)` })
      .where(eq(applePasses.serialNumber, serialNumber))
      .returning({ updatedAt: applePasses.updatedAt });
    return row!.updatedAt;
  }

  /** The account's live passes become void: no account any more, and a change for the devices to fetch. */
  async voidAllOf(tx: Transaction, accountId: string, voidHash: string, now: Date): Promise<string[]> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const rows = await tx
      .update(applePasses)
      .set({
        accountId: null,
        voidedAt: now,
        contentHash: voidHash,
        updatedAt: sql`greatest(${nowSeconds}, ${applePasses.updatedAt} + 1)`,
      })
      .where(and(eq(applePasses.accountId, accountId), isNull(applePasses.voidedAt)))
      .returning({ serialNumber: applePasses.serialNumber });
    return rows.map((r) => r.serialNumber);
  }

  /** Voided passes older than the cut-off go, their registrations with them (cascade). */
  async deleteVoidedBefore(db: Executor, cutoff: Date): Promise<number> {
    const gone = await db
      .delete(applePasses)
      .where(and(isNotNull(applePasses.voidedAt), lt(applePasses.voidedAt, cutoff)))
      .returning({ serialNumber: applePasses.serialNumber });
    return gone.length;
  }

  /** The pushes of this version are queued (a later version's count stays owed). */
  async pushesQueued(db: Executor, serialNumber: string, version: number): Promise<void> {
    await db
      .update(applePasses)
      .set({ pushesQueuedFor: sql`greatest(${applePasses.pushesQueuedFor}, ${version})` })
      .where(eq(applePasses.serialNumber, serialNumber));
  }

  /** Passes whose devices are owed a push since before `before` (seconds): a queue add Redis refused. */
  async owingPushes(db: Executor, before: number): Promise<string[]> {
    const rows = await db
      .select({ serialNumber: applePasses.serialNumber })
      .from(applePasses)
      .where(and(lt(applePasses.pushesQueuedFor, applePasses.updatedAt), lt(applePasses.updatedAt, before)))
      .limit(500);
    return rows.map((r) => r.serialNumber);
  }

  /** For the owner's data export: their passes and how many devices hold each (never the tokens). */
  async exportOf(db: Executor, accountId: string): Promise<Array<{ serialNumber: string; createdAt: string; devices: number }>> {
    const rows = await db
      .select({
        serialNumber: applePasses.serialNumber,
        createdAt: applePasses.createdAt,
        devices: sql<number>`count(${applePassRegistrations.id})::int`,
      })
      .from(applePasses)
      .leftJoin(applePassRegistrations, eq(applePassRegistrations.serialNumber, applePasses.serialNumber))
      .where(eq(applePasses.accountId, accountId))
      .groupBy(applePasses.serialNumber, applePasses.createdAt);
    return rows.map((r) => ({ serialNumber: r.serialNumber, createdAt: r.createdAt.toISOString(), devices: r.devices }));
  }
}
