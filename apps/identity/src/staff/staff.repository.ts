import { Injectable } from '@nestjs/common';
import { and, eq, ilike, lt, or, sql } from 'drizzle-orm';
import type { Role } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { accounts, memberships, staffAudit } from '../db/schema.js';
import type { AccountRow } from '../accounts/accounts.repository.js';

type Executor = Database | Transaction;
const AccountsNewestFirst: Keyset = { at: accounts.createdAt, id: accounts.id, order: 'newest-first' };
const AuditNewestFirst: Keyset = { at: staffAudit.at, id: staffAudit.id, order: 'newest-first' };
export type StaffAuditRow = typeof staffAudit.$inferSelect & { staffUsername: string | null; position: string };

/** The staff console's SQL in identity: searching accounts, changing a role, and the audit of those changes. */
@Injectable()
export class StaffRepository {
  /**
   * Accounts whose email, username or full name contains the query (case-insensitively), newest first, `limit + 1`
   * rows at most, after `start` (a page of the search).
   */
  async searchPage(
    db: Executor,
    query: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<{ account: AccountRow; position: string }>> {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return db
      .select({ account: accounts, position: positionOf(accounts.createdAt) })
      .from(accounts)
      .where(
        and(
          or(
            ilike(accounts.email, pattern),
            ilike(accounts.username, pattern),
            ilike(sql`${accounts.firstName} || ' ' || ${accounts.lastName}`, pattern),
          ),
          after(AccountsNewestFirst, start),
        ),
      )
      .orderBy(...orderOf(AccountsNewestFirst))
      .limit(limit + 1);
  }

  /** The account, locked until the transaction ends (two staff changing one role in turn, never at once). */
  async lock(tx: Transaction, id: string): Promise<AccountRow | null> {
    const [row] = await tx.select().from(accounts).where(eq(accounts.id, id)).for('update').limit(1);
    return row ?? null;
  }

  async setRole(tx: Transaction, id: string, role: Role, at: Date): Promise<AccountRow> {
    const [row] = await tx.update(accounts).set({ role, updatedAt: at }).where(eq(accounts.id, id)).returning();
    if (!row) throw new Error('update returned no row');
    return row;
  }

  /** The tier payments last said the account has (null: never said). */
  async membershipOf(db: Executor, accountId: string): Promise<string | null> {
    const [row] = await db
      .select({ membership: memberships.membership })
      .from(memberships)
      .where(eq(memberships.accountId, accountId))
      .limit(1);
    return row?.membership ?? null;
  }

  /** Keeps a tier change unless a newer version is already kept; true when this one is now the latest. */
  async recordMembership(tx: Transaction, row: typeof memberships.$inferInsert): Promise<boolean> {
    const kept = await tx
      .insert(memberships)
      .values(row)
      .onConflictDoUpdate({
        target: memberships.accountId,
        set: { membership: row.membership, version: row.version, changedAt: row.changedAt },
        setWhere: lt(memberships.version, row.version),
      })
      .returning({ version: memberships.version });
    return kept.length > 0;
  }

  async audit(tx: Transaction, entry: typeof staffAudit.$inferInsert): Promise<void> {
    await tx.insert(staffAudit).values(entry);
  }

  /**
   * A page of the audited changes of one account, newest first, with the staff member's username: `limit + 1` rows
   * at most, after `start`, each with its position (its time to the microsecond).
   */
  async auditPage(db: Executor, accountId: string, start: KeysetPosition | null, limit: number): Promise<StaffAuditRow[]> {
    const rows = await db
      .select({ entry: staffAudit, staffUsername: accounts.username, position: positionOf(staffAudit.at) })
      .from(staffAudit)
      .leftJoin(accounts, eq(accounts.id, staffAudit.staffAccountId))
      .where(and(eq(staffAudit.accountId, accountId), after(AuditNewestFirst, start)))
      .orderBy(...orderOf(AuditNewestFirst))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.entry, staffUsername: r.staffUsername, position: r.position }));
  }
}
