import { Injectable } from '@nestjs/common';
import { count, desc, eq } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { leads, media, profileViews, profiles, vanityPaths } from '../db/schema.js';

type Executor = Database | Transaction;
export type ProfileRow = typeof profiles.$inferSelect;
export type LeadRow = typeof leads.$inferSelect;
export type MediaRow = typeof media.$inferSelect;

@Injectable()
export class ProfilesRepository {
  async byAccount(db: Executor, accountId: string): Promise<ProfileRow | null> {
    const [row] = await db.select().from(profiles).where(eq(profiles.accountId, accountId)).limit(1);
    return row ?? null;
  }

  async byUsername(db: Executor, username: string): Promise<ProfileRow | null> {
    const [row] = await db.select().from(profiles).where(eq(profiles.username, username)).limit(1);
    return row ?? null;
  }

  /** A new account's profile; a second delivery of the same account changes nothing. */
  async insertIfNew(tx: Transaction, row: typeof profiles.$inferInsert): Promise<void> {
    await tx.insert(profiles).values(row).onConflictDoNothing();
  }

  async markVerified(tx: Transaction, accountId: string, at: Date): Promise<void> {
    await tx.update(profiles).set({ isVerified: true, updatedAt: at }).where(eq(profiles.accountId, accountId));
  }

  /** The profile and everything kept with it (images, leads, views, paths); returns the username it had. */
  async deleteAll(tx: Transaction, accountId: string): Promise<string | null> {
    for (const table of [media, leads, profileViews, vanityPaths]) await tx.delete(table).where(eq(table.accountId, accountId));
    const [gone] = await tx.delete(profiles).where(eq(profiles.accountId, accountId)).returning({ username: profiles.username });
    return gone?.username ?? null;
  }

  async update(tx: Transaction, accountId: string, values: Partial<typeof profiles.$inferInsert>): Promise<ProfileRow | null> {
    const [row] = await tx
      .update(profiles)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(profiles.accountId, accountId))
      .returning();
    return row ?? null;
  }

  async insertMedia(tx: Transaction, row: typeof media.$inferInsert): Promise<void> {
    await tx.insert(media).values(row);
  }

  async mediaById(db: Executor, id: string): Promise<MediaRow | null> {
    const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
    return row ?? null;
  }

  async insertLead(tx: Transaction, row: typeof leads.$inferInsert): Promise<LeadRow> {
    const [inserted] = await tx.insert(leads).values(row).returning();
    if (!inserted) throw new Error('insert returned no row');
    return inserted;
  }

  leadsOf(db: Executor, accountId: string): Promise<LeadRow[]> {
    return db.select().from(leads).where(eq(leads.accountId, accountId)).orderBy(desc(leads.createdAt));
  }

  async recordView(db: Executor, accountId: string, source: 'link' | 'qr' | 'nfc', count = 1): Promise<void> {
    await db.insert(profileViews).values(Array.from({ length: Math.min(count, 10_000) }, () => ({ accountId, source })));
  }

  async viewCounts(db: Executor, accountId: string): Promise<Record<string, number>> {
    const rows = await db
      .select({ source: profileViews.source, n: count() })
      .from(profileViews)
      .where(eq(profileViews.accountId, accountId))
      .groupBy(profileViews.source);
    return Object.fromEntries(rows.map((r) => [r.source, Number(r.n)]));
  }

  async vanityAccount(db: Executor, path: string): Promise<string | null> {
    const [row] = await db.select().from(vanityPaths).where(eq(vanityPaths.path, path)).limit(1);
    return row?.accountId ?? null;
  }

  mediaOf(db: Executor, accountId: string): Promise<Array<{ id: string; purpose: string; contentType: string; createdAt: Date }>> {
    return db
      .select({ id: media.id, purpose: media.purpose, contentType: media.contentType, createdAt: media.createdAt })
      .from(media)
      .where(eq(media.accountId, accountId));
  }
}
