import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { members, pendingReps } from '../db/schema.js';

type Executor = Database | Transaction;
/** Reps in the order they joined; a current rep's username is unique (identity's), so it breaks ties. */
const RepsInJoiningOrder: Keyset = { at: members.addedAt, id: members.username, order: 'oldest-first' };
export type MemberRow = typeof members.$inferSelect;
export type PendingRepRow = typeof pendingReps.$inferSelect;

/** All the SQL of the teams service. */
@Injectable()
export class MembersRepository {
  /**
   * A page of the leader's current reps, in the order they joined (a batch imported together by username):
   * `limit + 1` at most, after `start`.
   */
  async teamPage(
    db: Executor,
    leaderId: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<MemberRow & { position: string }>> {
    const rows = await db
      .select({ member: members, position: positionOf(members.addedAt) })
      .from(members)
      .where(and(eq(members.leaderAccountId, leaderId), isNull(members.removedAt), after(RepsInJoiningOrder, start)))
      .orderBy(...orderOf(RepsInJoiningOrder))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.member, position: r.position }));
  }

  /** The account's own row as a rep (current or removed), or null. */
  async asMember(db: Executor, memberId: string): Promise<MemberRow | null> {
    const [row] = await db.select().from(members).where(eq(members.memberAccountId, memberId)).limit(1);
    return row ?? null;
  }

  /** How many reps the account leads now, and has ever led. */
  async repCounts(db: Executor, leaderId: string): Promise<{ current: number; ever: number }> {
    const rows = await db.select({ removedAt: members.removedAt }).from(members).where(eq(members.leaderAccountId, leaderId));
    return { current: rows.filter((r) => r.removedAt === null).length, ever: rows.length };
  }

  /** A current rep of this leader, or null (another leader's rep is nobody here). */
  async repOf(db: Executor, leaderId: string, memberId: string): Promise<MemberRow | null> {
    const [row] = await db
      .select()
      .from(members)
      .where(and(eq(members.memberAccountId, memberId), eq(members.leaderAccountId, leaderId), isNull(members.removedAt)))
      .limit(1);
    return row ?? null;
  }

  /** New members; one recorded already (by the sweeper, or the request) is left as it is. */
  async insert(tx: Transaction, rows: Array<typeof members.$inferInsert>): Promise<MemberRow[]> {
    return rows.length ? tx.insert(members).values(rows).onConflictDoNothing({ target: members.memberAccountId }).returning() : [];
  }

  byIds(db: Executor, accountIds: string[]): Promise<MemberRow[]> {
    return accountIds.length ? db.select().from(members).where(inArray(members.memberAccountId, accountIds)) : Promise.resolve([]);
  }

  async insertPending(db: Executor, rows: Array<typeof pendingReps.$inferInsert>): Promise<void> {
    if (rows.length) await db.insert(pendingReps).values(rows);
  }

  /** Takes these pending reps away (locking them): only one of two completers gets each row. */
  takePending(tx: Transaction, accountIds: string[]): Promise<PendingRepRow[]> {
    return tx.delete(pendingReps).where(inArray(pendingReps.accountId, accountIds)).returning();
  }

  async dropPending(db: Executor, accountIds: string[]): Promise<void> {
    if (accountIds.length) await db.delete(pendingReps).where(inArray(pendingReps.accountId, accountIds));
  }

  /** Pending reps older than `before`, oldest first. */
  stalePending(db: Executor, before: Date, limit = 200): Promise<PendingRepRow[]> {
    return db.select().from(pendingReps).where(lt(pendingReps.createdAt, before)).orderBy(asc(pendingReps.createdAt)).limit(limit);
  }

  async update(tx: Transaction, memberId: string, values: Partial<typeof members.$inferInsert>): Promise<MemberRow | null> {
    const [row] = await tx.update(members).set(values).where(eq(members.memberAccountId, memberId)).returning();
    return row ?? null;
  }

  async markRemoved(tx: Transaction, memberId: string, at: Date): Promise<MemberRow | null> {
    const [row] = await tx
      .update(members)
      .set({ removedAt: at, updatedAt: at })
      .where(and(eq(members.memberAccountId, memberId), isNull(members.removedAt)))
      .returning();
    return row ?? null;
  }
}
