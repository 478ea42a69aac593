import { Injectable } from '@nestjs/common';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { members } from '../db/schema.js';

type Executor = Database | Transaction;
export type MemberRow = typeof members.$inferSelect;

/** All the SQL of the teams service. */
@Injectable()
export class MembersRepository {
  /** The leader's current reps, oldest first. */
  teamOf(db: Executor, leaderId: string): Promise<MemberRow[]> {
    return db
      .select()
      .from(members)
      .where(and(eq(members.leaderAccountId, leaderId), isNull(members.removedAt)))
      .orderBy(asc(members.addedAt), asc(members.username));
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

  async insert(tx: Transaction, rows: Array<typeof members.$inferInsert>): Promise<MemberRow[]> {
    return rows.length ? tx.insert(members).values(rows).returning() : [];
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
