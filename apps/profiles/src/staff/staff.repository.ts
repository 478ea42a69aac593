import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { profiles, staffAudit, vanityPaths } from '../db/schema.js';
import type { ProfileRow } from '../profiles/profiles.repository.js';

type Executor = Database | Transaction;
const AuditNewestFirst: Keyset = { at: staffAudit.at, id: staffAudit.id, order: 'newest-first' };
export type StaffAuditRow = typeof staffAudit.$inferSelect & { staffUsername: string | null; position: string };

/** The staff console's SQL in profiles: partner flag, vanity paths, business link, and their audit. */
@Injectable()
export class StaffRepository {
  /** The profile, locked until the transaction ends, so two staff changes to it happen one after the other. */
  async lock(tx: Transaction, accountId: string): Promise<ProfileRow | null> {
    const [row] = await tx.select().from(profiles).where(eq(profiles.accountId, accountId)).for('update').limit(1);
    return row ?? null;
  }

  async update(tx: Transaction, accountId: string, set: Partial<Pick<ProfileRow, 'isPartner' | 'businessAccountId'>>): Promise<ProfileRow> {
    const [row] = await tx
      .update(profiles)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(profiles.accountId, accountId))
      .returning();
    if (!row) throw new Error('update returned no row');
    return row;
  }

  /** True when some profile inherits from this one (it is a business). */
  async isBusinessOfOthers(db: Executor, accountId: string): Promise<boolean> {
    const [row] = await db
      .select({ accountId: profiles.accountId })
      .from(profiles)
      .where(eq(profiles.businessAccountId, accountId))
      .limit(1);
    return row !== undefined;
  }

  async vanityPathsOf(db: Executor, accountId: string): Promise<string[]> {
    const rows = await db
      .select({ path: vanityPaths.path })
      .from(vanityPaths)
      .where(eq(vanityPaths.accountId, accountId))
      .orderBy(asc(vanityPaths.path));
    return rows.map((r) => r.path);
  }

  /** Which of `paths` lead to another account already. */
  async pathsOfOthers(db: Executor, accountId: string, paths: string[]): Promise<string[]> {
    if (paths.length === 0) return [];
    const rows = await db
      .select({ path: vanityPaths.path })
      .from(vanityPaths)
      .where(and(inArray(vanityPaths.path, paths), ne(vanityPaths.accountId, accountId)));
    return rows.map((r) => r.path);
  }

  /** Which of `paths` are usernames. */
  async usernamesAmong(db: Executor, paths: string[]): Promise<string[]> {
    if (paths.length === 0) return [];
    const rows = await db.select({ username: profiles.username }).from(profiles).where(inArray(profiles.username, paths));
    return rows.map((r) => r.username);
  }

  async replaceVanityPaths(tx: Transaction, accountId: string, paths: string[]): Promise<void> {
    await tx.delete(vanityPaths).where(eq(vanityPaths.accountId, accountId));
    if (paths.length > 0) await tx.insert(vanityPaths).values(paths.map((path) => ({ path, accountId })));
  }

  async audit(tx: Transaction, entry: typeof staffAudit.$inferInsert): Promise<void> {
    await tx.insert(staffAudit).values(entry);
  }

  /**
   * A page of the audited changes of one profile, newest first, with the staff member's username as profiles knows it:
   * `limit + 1` rows at most, after `start`, each with its position (its time to the microsecond).
   */
  async auditPage(db: Executor, accountId: string, start: KeysetPosition | null, limit: number): Promise<StaffAuditRow[]> {
    const rows = await db
      .select({ entry: staffAudit, staffUsername: profiles.username, position: positionOf(staffAudit.at) })
      .from(staffAudit)
      .leftJoin(profiles, eq(profiles.accountId, staffAudit.staffAccountId))
      .where(and(eq(staffAudit.accountId, accountId), after(AuditNewestFirst, start)))
      .orderBy(...orderOf(AuditNewestFirst))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.entry, staffUsername: r.staffUsername, position: r.position }));
  }

  async setRole(tx: Transaction, accountId: string, role: string): Promise<void> {
    await tx.update(profiles).set({ role }).where(eq(profiles.accountId, accountId));
  }
}
