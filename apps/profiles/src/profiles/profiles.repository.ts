import { Injectable } from '@nestjs/common';
import { and, eq, gte, inArray, isNotNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { saDay } from '@digicard/domain';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import {
  accountFacts,
  type AccountNamesFact,
  analyticsDaily,
  analyticsVisitors,
  cardSerials,
  leads,
  media,
  memberships,
  profiles,
  vanityPaths,
} from '../db/schema.js';

type Executor = Database | Transaction;
/** Leads are listed, exported and downloaded newest first. */
const LeadsNewestFirst: Keyset = { at: leads.createdAt, id: leads.id, order: 'newest-first' };
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

  /**
   * Keeps what payments said of an account's tier when it is newer than what is kept; true when it was newer.
   */
  async recordMembership(tx: Transaction, row: typeof memberships.$inferInsert): Promise<boolean> {
    const kept = await tx
      .insert(memberships)
      .values(row)
      .onConflictDoUpdate({
        target: memberships.accountId,
        set: { membership: row.membership, paidUntil: row.paidUntil, version: row.version, changedAt: row.changedAt },
        setWhere: lt(memberships.version, row.version),
      })
      .returning({ version: memberships.version });
    return kept.length > 0;
  }

  async membershipOf(db: Executor, accountId: string): Promise<string | null> {
    const [row] = await db
      .select({ membership: memberships.membership })
      .from(memberships)
      .where(eq(memberships.accountId, accountId))
      .limit(1);
    return row?.membership ?? null;
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

  /** Remembers that identity verified or deleted an account, whatever order its events arrive in. */
  async recordAccountFact(
    tx: Transaction,
    accountId: string,
    fact:
      | { verifiedAt: Date }
      | { deletedAt: Date; account: null }
      | { businessAccountId: string; teamTel: string; teamTitle?: string }
      | { suspensionChangedAt: Date; suspendedAt: Date | null }
      | { accountChangedAt: Date; account: AccountNamesFact },
  ): Promise<void> {
    await tx
      .insert(accountFacts)
      .values({ accountId, ...fact })
      .onConflictDoUpdate({ target: accountFacts.accountId, set: fact });
  }

  async accountFactsOf(
    db: Executor,
    accountId: string,
  ): Promise<{
    verifiedAt: Date | null;
    deletedAt: Date | null;
    businessAccountId: string | null;
    teamTel: string | null;
    teamTitle: string | null;
    suspensionChangedAt: Date | null;
    suspendedAt: Date | null;
    accountChangedAt: Date | null;
    account: AccountNamesFact | null;
  } | null> {
    const [row] = await db.select().from(accountFacts).where(eq(accountFacts.accountId, accountId)).limit(1);
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
    for (const table of [media, leads, analyticsDaily, analyticsVisitors, cardSerials, vanityPaths, memberships])
      await tx.delete(table).where(eq(table.accountId, accountId));
    const [gone] = await tx.delete(profiles).where(eq(profiles.accountId, accountId)).returning({ username: profiles.username });
    return gone?.username ?? null;
  }

  /** The profiles that show this account's business (a team leader's reps). */
  membersOf(db: Executor, businessAccountId: string): Promise<ProfileRow[]> {
    return db.select().from(profiles).where(eq(profiles.businessAccountId, businessAccountId));
  }

  /** A rep left the team: their leads become the leader's, marked with the rep's username. */
  async moveLeads(tx: Transaction, fromAccountId: string, toAccountId: string, formerRep: string): Promise<void> {
    await tx.update(leads).set({ accountId: toAccountId, formerRep }).where(eq(leads.accountId, fromAccountId));
  }

  /**
   * A page of the leads of a leader's current reps (the profiles showing the leader's business) and of reps who left,
   * newest first, each with the rep's username: `limit + 1` rows at most, after `start`.
   */
  async teamLeadsPage(
    db: Executor,
    leaderId: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<LeadRow & { rep: string; position: string }>> {
    const rows = await db
      .select({ lead: leads, repUsername: profiles.username, position: positionOf(leads.createdAt) })
      .from(leads)
      .leftJoin(profiles, eq(profiles.accountId, leads.accountId))
      .where(
        and(
          or(and(eq(leads.accountId, leaderId), isNotNull(leads.formerRep)), eq(profiles.businessAccountId, leaderId)),
          after(LeadsNewestFirst, start),
        ),
      )
      .orderBy(...orderOf(LeadsNewestFirst))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.lead, rep: r.lead.formerRep ?? r.repUsername ?? '', position: r.position }));
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

  /** Locks the account's profile row until the transaction ends (changes of one account one after another). */
  async lockProfile(tx: Transaction, accountId: string): Promise<ProfileRow | null> {
    const [row] = await tx.select().from(profiles).where(eq(profiles.accountId, accountId)).for('update');
    return row ?? null;
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

  /** The stored lead, or null when one with the same idempotency key is stored already. */
  async insertLead(tx: Transaction, row: typeof leads.$inferInsert): Promise<LeadRow | null> {
    const [inserted] = await tx.insert(leads).values(row).onConflictDoNothing({ target: leads.idempotencyKey }).returning();
    return inserted ?? null;
  }

  async leadByIdempotencyKey(db: Executor, key: string): Promise<LeadRow | null> {
    const [row] = await db.select().from(leads).where(eq(leads.idempotencyKey, key)).limit(1);
    return row ?? null;
  }

  /** How many leads the account received since `since`. */
  async leadsSince(db: Executor, accountId: string, since: Date): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(leads)
      .where(and(eq(leads.accountId, accountId), gte(leads.createdAt, since)));
    return row?.n ?? 0;
  }

  /** A page of the owner's leads, newest first: `limit + 1` rows at most, after `start` (the first page: null). */
  async leadsPage(
    db: Executor,
    accountId: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<LeadRow & { position: string }>> {
    const rows = await db
      .select({ lead: leads, position: positionOf(leads.createdAt) })
      .from(leads)
      .where(and(eq(leads.accountId, accountId), after(LeadsNewestFirst, start)))
      .orderBy(...orderOf(LeadsNewestFirst))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.lead, position: r.position }));
  }

  /** Views counted by the service itself (a caller that names a source), onto today's analytics row. */
  async recordView(db: Executor, accountId: string, source: 'link' | 'qr' | 'nfc', count = 1): Promise<void> {
    await db
      .insert(analyticsDaily)
      .values({ accountId, day: saDay(), metric: 'view', key: source, count: Math.min(count, 1_000_000) })
      .onConflictDoUpdate({
        target: [analyticsDaily.accountId, analyticsDaily.day, analyticsDaily.metric, analyticsDaily.key],
        set: { count: sql`${analyticsDaily.count} + excluded.count` },
      });
  }

  /** Views kept for the owner, by source, all time (the POPIA export). */
  async viewCounts(db: Executor, accountId: string): Promise<Record<string, number>> {
    const rows = await db
      .select({ source: analyticsDaily.key, n: sql<number>`sum(${analyticsDaily.count})::integer` })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.accountId, accountId), eq(analyticsDaily.metric, 'view')))
      .groupBy(analyticsDaily.key);
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
