import { Injectable } from '@nestjs/common';
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { accounts, emailTokens, memberships } from '../db/schema.js';

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccount = typeof accounts.$inferInsert;
type Executor = Database | Transaction;

/**
 * The accounts: found by id, name or address, made, changed, disabled and deleted. Their passwords and addresses’
 * proofs are `CredentialsRepository`’s, the links emailed to them `EmailTokensRepository`’s.
 */
@Injectable()
export class AccountsRepository {
  async findById(db: Executor, id: string): Promise<AccountRow | null> {
    const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
    return row ?? null;
  }

  /** The team reps' accounts among these ids. */
  findRepsByIds(db: Executor, ids: string[]): Promise<AccountRow[]> {
    return db
      .select()
      .from(accounts)
      .where(and(inArray(accounts.id, ids), eq(accounts.role, 'teamMember')));
  }

  async findByEmail(db: Executor, email: string): Promise<AccountRow | null> {
    const [row] = await db.select().from(accounts).where(eq(accounts.emailNormalized, email.trim().toLowerCase())).limit(1);
    return row ?? null;
  }

  async findByUsername(db: Executor, username: string): Promise<AccountRow | null> {
    const [row] = await db.select().from(accounts).where(eq(accounts.username, username)).limit(1);
    return row ?? null;
  }

  async insert(tx: Transaction, account: NewAccount): Promise<AccountRow> {
    const [row] = await tx.insert(accounts).values(account).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /**
   * A removed (or SCIM-deactivated) rep: no more sign-in, no live email links. `enabled` undoes it (a rep the
   * company's identity provider reactivated); the links spent stay spent.
   */
  async disable(tx: Transaction, id: string, at: Date, enabled = false): Promise<AccountRow | null> {
    if (enabled) {
      const [back] = await tx.update(accounts).set({ disabledAt: null, updatedAt: at }).where(eq(accounts.id, id)).returning();
      return back ?? null;
    }
    const [row] = await tx
      .update(accounts)
      .set({ disabledAt: at, updatedAt: at })
      .where(and(eq(accounts.id, id), isNull(accounts.disabledAt)))
      .returning();
    if (row)
      await tx
        .update(emailTokens)
        .set({ usedAt: at })
        .where(and(eq(emailTokens.accountId, id), isNull(emailTokens.usedAt)));
    return row ?? null;
  }

  /**
   * Frees the username and email of accounts disabled before `cutoff` (removed reps past their grace period), so a
   * new account may take them; the old account keeps a name nobody can type (`removed-<id>`).
   */
  async releaseExpired(db: Executor, username: string, email: string, cutoff: Date): Promise<void> {
    await db
      .update(accounts)
      .set({ username: sql`'removed-' || ${accounts.id}`, emailNormalized: sql`'removed-' || ${accounts.id}`, emailProvedAt: null })
      .where(
        and(lt(accounts.disabledAt, cutoff), or(eq(accounts.username, username), eq(accounts.emailNormalized, email.trim().toLowerCase()))),
      );
  }

  /**
   * Frees the email of one removed rep (a disabled team member's account, holding this address) before its grace
   * period is over: the old account keeps its username and a normalised address nobody can type (`removed-<id>`).
   */
  async releaseRemovedRepEmail(db: Executor, id: string, email: string): Promise<void> {
    await db
      .update(accounts)
      .set({ emailNormalized: sql`'removed-' || ${accounts.id}`, emailProvedAt: null })
      .where(
        and(
          eq(accounts.id, id),
          eq(accounts.role, 'teamMember'),
          isNotNull(accounts.disabledAt),
          eq(accounts.emailNormalized, email.trim().toLowerCase()),
        ),
      );
  }

  /**
   * Another address (a leader's edit of a rep) is not proved by the old one's links: `email_proved_at` is cleared, and
   * every unused link sent to another address than the new one is spent, so whoever still reads the old mailbox can
   * neither set the rep's password nor verify the account with it (the same address in another case is the same
   * mailbox: its links stay). A link issued before links recorded their address is spent too.
   */
  async updateFields(
    tx: Transaction,
    id: string,
    fields: Pick<NewAccount, 'username' | 'email' | 'emailNormalized' | 'firstName' | 'lastName'>,
    at: Date,
  ): Promise<AccountRow | null> {
    const [row] = await tx
      .update(accounts)
      .set({
        ...fields,
        // SET sees the row as it was: the proof stays only when the address is the same.
        emailProvedAt: sql`CASE WHEN ${accounts.emailNormalized} = ${fields.emailNormalized} THEN ${accounts.emailProvedAt} END`,
        updatedAt: at,
      })
      .where(eq(accounts.id, id))
      .returning();
    if (row)
      await tx
        .update(emailTokens)
        .set({ usedAt: at })
        .where(
          and(
            eq(emailTokens.accountId, id),
            isNull(emailTokens.usedAt),
            or(isNull(emailTokens.sentTo), sql`lower(${emailTokens.sentTo}) <> ${fields.emailNormalized}`),
          ),
        );
    return row ?? null;
  }

  async setNames(tx: Transaction, id: string, firstName: string, lastName: string, at: Date): Promise<AccountRow | null> {
    const [row] = await tx.update(accounts).set({ firstName, lastName, updatedAt: at }).where(eq(accounts.id, id)).returning();
    return row ?? null;
  }

  async delete(tx: Transaction, id: string): Promise<boolean> {
    await tx.delete(memberships).where(eq(memberships.accountId, id));
    const rows = await tx.delete(accounts).where(eq(accounts.id, id)).returning({ id: accounts.id });
    return rows.length > 0;
  }
}
