import { Injectable } from '@nestjs/common';
import { and, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { media } from '../db/schema.js';

type Executor = Database | Transaction;
export type MediaRow = typeof media.$inferSelect;

/** The images an owner uploaded (kept in PostgreSQL): stored, measured against the quota, read, and let go when no longer shown. */
@Injectable()
export class MediaRepository {
  async insertMedia(tx: Transaction, row: typeof media.$inferInsert): Promise<void> {
    await tx.insert(media).values(row);
  }

  /** The bytes an account's stored images take. */
  async mediaBytesOf(db: Executor, accountId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<string>`coalesce(sum(octet_length(${media.bytes})), 0)` })
      .from(media)
      .where(eq(media.accountId, accountId));
    return Number(row?.n ?? 0);
  }

  /**
   * Deletes the account's images its document no longer shows: those in `dropped` (shown before this change), and
   * uploads never shown that are older than `unsavedBefore` (an upload waits that long for the editor's Save).
   * Returns the ids deleted.
   */
  async deleteOrphanMedia(tx: Transaction, accountId: string, keep: string[], dropped: string[], unsavedBefore: Date): Promise<string[]> {
    const notKept = keep.length > 0 ? notInArray(media.id, keep) : undefined;
    const orphan =
      dropped.length > 0 ? or(inArray(media.id, dropped), lt(media.createdAt, unsavedBefore)) : lt(media.createdAt, unsavedBefore);
    const gone = await tx
      .delete(media)
      .where(and(eq(media.accountId, accountId), notKept, orphan))
      .returning({ id: media.id });
    return gone.map((g) => g.id);
  }

  async mediaById(db: Executor, id: string): Promise<MediaRow | null> {
    const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
    return row ?? null;
  }

  mediaOf(db: Executor, accountId: string): Promise<Array<{ id: string; purpose: string; contentType: string; createdAt: Date }>> {
    return db
      .select({ id: media.id, purpose: media.purpose, contentType: media.contentType, createdAt: media.createdAt })
      .from(media)
      .where(eq(media.accountId, accountId));
  }
}
