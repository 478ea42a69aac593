import { Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { teamMembers } from '../db/schema.js';

type Executor = Database | Transaction;

/** The SQL of the teams' projection: which business each rep's cards belong to. */
@Injectable()
export class TeamMembersRepository {
  /** The leader of a current rep, or null (not a rep, or one who left). */
  async leaderOf(db: Executor, memberAccountId: string): Promise<string | null> {
    const [row] = await db
      .select({ leader: teamMembers.leaderAccountId })
      .from(teamMembers)
      .where(and(eq(teamMembers.memberAccountId, memberAccountId), isNull(teamMembers.removedAt)))
      .limit(1);
    return row?.leader ?? null;
  }

  /** The leader an account was ever a rep of (also after it left: its cards stay with that team), or null. */
  async teamOf(db: Executor, memberAccountId: string): Promise<string | null> {
    const [row] = await db
      .select({ leader: teamMembers.leaderAccountId })
      .from(teamMembers)
      .where(eq(teamMembers.memberAccountId, memberAccountId))
      .limit(1);
    return row?.leader ?? null;
  }

  /** A rep joined (kept as removed when the removal arrived first: a rep's account never rejoins). */
  async addTeamMember(tx: Transaction, memberAccountId: string, leaderAccountId: string): Promise<void> {
    await tx
      .insert(teamMembers)
      .values({ memberAccountId, leaderAccountId })
      .onConflictDoUpdate({ target: teamMembers.memberAccountId, set: { leaderAccountId } });
  }

  async removeTeamMember(tx: Transaction, memberAccountId: string, leaderAccountId: string, at: Date): Promise<void> {
    await tx
      .insert(teamMembers)
      .values({ memberAccountId, leaderAccountId, removedAt: at })
      .onConflictDoUpdate({ target: teamMembers.memberAccountId, set: { removedAt: at } });
  }
}
