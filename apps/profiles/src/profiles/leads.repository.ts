import { Injectable } from '@nestjs/common';
import { and, eq, gte, isNotNull, or, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { leads, profiles } from '../db/schema.js';

type Executor = Database | Transaction;
/** Leads are listed, exported and downloaded newest first. */
const LeadsNewestFirst: Keyset = { at: leads.createdAt, id: leads.id, order: 'newest-first' };
export type LeadRow = typeof leads.$inferSelect;

/** The leads visitors leave on a page: stored once per idempotency key, listed newest first, a team's together. */
@Injectable()
export class LeadsRepository {
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
}
