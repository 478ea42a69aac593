import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { analyticsDaily, analyticsVisitors, cardSerials, leads, media, memberships, profiles, vanityPaths } from '../db/schema.js';

type Executor = Database | Transaction;
export type ProfileRow = typeof profiles.$inferSelect;

/**
 * The profiles themselves: read by account or name, made from the registration, changed, locked while one account's
 * changes run one after another, and deleted with everything kept with them. Leads, images and what other services
 * said of the account have their own repositories (leads, media, account-facts).
 */
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

  /** Sets the tier of a profile that is not a partner's (partners choose their own); returns the profile, if any. */
  async applyMembership(tx: Transaction, accountId: string, membership: string): Promise<ProfileRow | null> {
    const [row] = await tx
      .update(profiles)
      .set({ membership, updatedAt: new Date() })
      .where(and(eq(profiles.accountId, accountId), eq(profiles.isPartner, false), sql`${profiles.membership} <> ${membership}`))
      .returning();
    return row ?? null;
  }

  /**
   * Serialises the handlers of one account's events (each subject has its own consumer, so they run at once): without
   * it, a registration and a verification handled together can both miss each other and leave the profile unverified.
   * Held until the transaction ends.
   */
  async lockAccount(tx: Transaction, accountId: string): Promise<void> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${accountId}, 0))`);
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
    for (const table of [media, leads, analyticsDaily, analyticsVisitors, cardSerials, vanityPaths, memberships])
      await tx.delete(table).where(eq(table.accountId, accountId));
    const [gone] = await tx.delete(profiles).where(eq(profiles.accountId, accountId)).returning({ username: profiles.username });
    return gone?.username ?? null;
  }

  /** The profiles that show this account's business (a team leader's reps). */
  membersOf(db: Executor, businessAccountId: string): Promise<ProfileRow[]> {
    return db.select().from(profiles).where(eq(profiles.businessAccountId, businessAccountId));
  }

  async update(tx: Transaction, accountId: string, values: Partial<typeof profiles.$inferInsert>): Promise<ProfileRow | null> {
    const [row] = await tx
      .update(profiles)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(profiles.accountId, accountId))
      .returning();
    return row ?? null;
  }

  /** Locks the account's profile row until the transaction ends (changes of one account one after another). */
  async lockProfile(tx: Transaction, accountId: string): Promise<ProfileRow | null> {
    const [row] = await tx.select().from(profiles).where(eq(profiles.accountId, accountId)).for('update');
    return row ?? null;
  }

  async vanityAccount(db: Executor, path: string): Promise<string | null> {
    const [row] = await db.select().from(vanityPaths).where(eq(vanityPaths.path, path)).limit(1);
    return row?.accountId ?? null;
  }
}
