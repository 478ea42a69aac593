import { Injectable } from '@nestjs/common';
import { and, asc, count, eq, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ScimFilter } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { members, scimAudit, scimTokens } from '../db/schema.js';
import type { MemberRow } from '../team/members.repository.js';

type Executor = Database | Transaction;
export type ScimTokenRow = typeof scimTokens.$inferSelect;
export type ScimAuditRow = typeof scimAudit.$inferSelect;
const NewestCallsFirst: Keyset = { at: scimAudit.at, id: scimAudit.id, order: 'newest-first' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The SQL of SCIM provisioning: the teams' token hashes, the audit list, and the reps as SCIM reads them. */
@Injectable()
export class ScimRepository {
  tokenOf(db: Executor, leaderId: string): Promise<ScimTokenRow | null> {
    return db
      .select()
      .from(scimTokens)
      .where(eq(scimTokens.leaderAccountId, leaderId))
      .limit(1)
      .then(([row]) => row ?? null);
  }

  /** The team a token hash stands for, marking the token used now; null for a hash no team has. */
  async useToken(db: Executor, tokenHash: string, at: Date): Promise<ScimTokenRow | null> {
    const [row] = await db.update(scimTokens).set({ lastUsedAt: at }).where(eq(scimTokens.tokenHash, tokenHash)).returning();
    return row ?? null;
  }

  /** A new token for the team: the earlier one (if any) stops working in the same statement. */
  async storeToken(db: Executor, leaderId: string, tokenHash: string, at: Date): Promise<ScimTokenRow> {
    const [row] = await db
      .insert(scimTokens)
      .values({ leaderAccountId: leaderId, tokenHash, createdAt: at, lastUsedAt: null })
      .onConflictDoUpdate({ target: scimTokens.leaderAccountId, set: { tokenHash, createdAt: at, lastUsedAt: null } })
      .returning();
    return row!;
  }

  async removeToken(db: Executor, leaderId: string): Promise<boolean> {
    const removed = await db
      .delete(scimTokens)
      .where(eq(scimTokens.leaderAccountId, leaderId))
      .returning({ id: scimTokens.leaderAccountId });
    return removed.length > 0;
  }

  async record(db: Executor, entry: typeof scimAudit.$inferInsert): Promise<void> {
    await db.insert(scimAudit).values(entry);
  }

  /** Deletes the calls made before `before` (every team's); returns how many. */
  async pruneAudit(db: Executor, before: Date): Promise<number> {
    const deleted = await db.delete(scimAudit).where(lt(scimAudit.at, before)).returning({ id: scimAudit.id });
    return deleted.length;
  }

  async auditPage(
    db: Executor,
    leaderId: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<ScimAuditRow & { position: string }>> {
    const rows = await db
      .select({ entry: scimAudit, position: positionOf(scimAudit.at) })
      .from(scimAudit)
      .where(and(eq(scimAudit.leaderAccountId, leaderId), after(NewestCallsFirst, start)))
      .orderBy(...orderOf(NewestCallsFirst))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.entry, position: r.position }));
  }

  /** A current rep of the team with this userName (the rep's email, in any case), or null. */
  async repByUserName(db: Executor, leaderId: string, userName: string): Promise<MemberRow | null> {
    const [row] = await db
      .select()
      .from(members)
      .where(
        and(eq(members.leaderAccountId, leaderId), isNull(members.removedAt), eq(sql`lower(${members.email})`, userName.toLowerCase())),
      )
      .limit(1);
    return row ?? null;
  }

  /** The team's removed reps with this userName (their email): a deleted SCIM user no longer holds it. */
  async removedRepIds(db: Executor, leaderId: string, userName: string): Promise<string[]> {
    const rows = await db
      .select({ id: members.memberAccountId })
      .from(members)
      .where(
        and(eq(members.leaderAccountId, leaderId), isNotNull(members.removedAt), eq(sql`lower(${members.email})`, userName.toLowerCase())),
      )
      .limit(20);
    return rows.map((r) => r.id);
  }

  /** The team's current reps a filter picks (all without one), in the order they joined: a page and the total. */
  async repsPage(
    db: Executor,
    leaderId: string,
    filter: ScimFilter | null,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: MemberRow[] }> {
    let picked: SQL | undefined;
    if (filter?.attribute === 'userName') picked = eq(sql`lower(${members.email})`, filter.value.toLowerCase());
    else if (filter?.attribute === 'externalId') picked = eq(members.externalId, filter.value);
    else if (filter?.attribute === 'id') picked = UUID.test(filter.value) ? eq(members.memberAccountId, filter.value) : sql`false`;
    const where = and(eq(members.leaderAccountId, leaderId), isNull(members.removedAt), picked);
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(members).where(where);
    const rows =
      limit === 0
        ? []
        : await db
            .select()
            .from(members)
            .where(where)
            .orderBy(asc(members.addedAt), asc(members.memberAccountId))
            .offset(offset)
            .limit(limit);
    return { total, rows };
  }

  async setScimFields(
    db: Executor,
    memberId: string,
    values: Partial<Pick<MemberRow, 'externalId' | 'title' | 'suspendedAt' | 'updatedAt'>>,
  ): Promise<MemberRow | null> {
    const [row] = await db.update(members).set(values).where(eq(members.memberAccountId, memberId)).returning();
    return row ?? null;
  }
}
