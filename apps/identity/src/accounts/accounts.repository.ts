import { Injectable } from '@nestjs/common';
import { and, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { accounts, emailTokens, memberships } from '../db/schema.js';

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccount = typeof accounts.$inferInsert;
type Executor = Database | Transaction;
export type TokenPurpose = (typeof emailTokens.$inferSelect)['purpose'];
/** The links sent to an account, oldest first (its data export). */
const TokensOldestFirst: Keyset = { at: emailTokens.createdAt, id: emailTokens.id, order: 'oldest-first' };

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

  async markVerified(tx: Transaction, id: string, at: Date): Promise<AccountRow | null> {
    const [row] = await tx.update(accounts).set({ isVerified: true, verifiedAt: at, updatedAt: at }).where(eq(accounts.id, id)).returning();
    return row ?? null;
  }

  /**
   * A link sent to `sentTo` was followed: the address is proved, if it is still the account's (compared in the same
   * statement, so a change of address in between proves nothing). Null when it is not (or no address was recorded).
   */
  async markEmailProved(tx: Transaction, id: string, sentTo: string | null, at: Date): Promise<AccountRow | null> {
    if (!sentTo) return null;
    const [row] = await tx
      .update(accounts)
      .set({ emailProvedAt: at })
      .where(and(eq(accounts.id, id), eq(accounts.emailNormalized, sentTo.trim().toLowerCase())))
      .returning();
    return row ?? null;
  }

  async setPassword(tx: Transaction, id: string, passwordHash: string, at: Date): Promise<AccountRow | null> {
    const [row] = await tx
      .update(accounts)
      .set({ passwordHash, passwordChangedAt: at, updatedAt: at })
      .where(eq(accounts.id, id))
      .returning();
    return row ?? null;
  }

  /** A new hash of the same password (stronger parameters): no event, sessions stay. */
  async replaceHash(db: Executor, id: string, oldHash: string, passwordHash: string): Promise<void> {
    await db
      .update(accounts)
      .set({ passwordHash })
      .where(and(eq(accounts.id, id), eq(accounts.passwordHash, oldHash)));
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

  /** The address the owner asked to move to (null: none pending); a new request replaces the last. */
  async setPendingEmail(tx: Executor, id: string, email: string | null, at: Date): Promise<void> {
    await tx
      .update(accounts)
      .set({ pendingEmail: email, pendingEmailAt: email ? at : null })
      .where(eq(accounts.id, id));
  }

  /**
   * The confirmed change (its link was followed at the new address, so the address is proved): the new email, nothing
   * pending, and every unused link of the old address spent.
   */
  async changeEmail(tx: Transaction, id: string, email: string, at: Date): Promise<AccountRow | null> {
    const [row] = await tx
      .update(accounts)
      .set({ email, emailNormalized: email.toLowerCase(), emailProvedAt: at, pendingEmail: null, pendingEmailAt: null, updatedAt: at })
      .where(eq(accounts.id, id))
      .returning();
    if (row)
      await tx
        .update(emailTokens)
        .set({ usedAt: at })
        .where(and(eq(emailTokens.accountId, id), isNull(emailTokens.usedAt)));
    return row ?? null;
  }

  /**
   * A page of the tokens of an account, oldest first, for its export: when and why a link was sent, never the hash;
   * `limit + 1` at most, after `start`.
   */
  async tokensPage(db: Executor, accountId: string, start: KeysetPosition | null, limit: number) {
    return db
      .select({
        id: emailTokens.id,
        position: positionOf(emailTokens.createdAt),
        purpose: emailTokens.purpose,
        newEmail: emailTokens.newEmail,
        sentTo: emailTokens.sentTo,
        createdAt: emailTokens.createdAt,
        expiresAt: emailTokens.expiresAt,
        usedAt: emailTokens.usedAt,
      })
      .from(emailTokens)
      .where(and(eq(emailTokens.accountId, accountId), after(TokensOldestFirst, start)))
      .orderBy(...orderOf(TokensOldestFirst))
      .limit(limit + 1);
  }

  async delete(tx: Transaction, id: string): Promise<boolean> {
    await tx.delete(memberships).where(eq(memberships.accountId, id));
    const rows = await tx.delete(accounts).where(eq(accounts.id, id)).returning({ id: accounts.id });
    return rows.length > 0;
  }

  /** `sentTo`: the address the link goes to (following it proves that address). */
  async insertToken(
    tx: Executor,
    accountId: string,
    purpose: TokenPurpose,
    tokenHash: string,
    expiresAt: Date,
    sentTo: string,
    newEmail: string | null = null,
  ): Promise<void> {
    await tx.insert(emailTokens).values({ accountId, purpose, tokenHash, expiresAt, sentTo, newEmail });
  }

  /** Spends a live change-email token: its account and the address it was sent to; null when unknown, used or expired. */
  async consumeEmailChangeToken(
    tx: Transaction,
    tokenHash: string,
    now: Date,
  ): Promise<{ accountId: string; newEmail: string | null } | null> {
    const [row] = await tx
      .update(emailTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailTokens.tokenHash, tokenHash),
          eq(emailTokens.purpose, 'change-email'),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, now),
        ),
      )
      .returning({ accountId: emailTokens.accountId, newEmail: emailTokens.newEmail });
    return row ?? null;
  }

  /** The token stored under this hash (any state), locked: a second issue of the same hash is a retry. */
  async tokenByHash(tx: Transaction, tokenHash: string): Promise<{ accountId: string; purpose: TokenPurpose; expiresAt: Date } | null> {
    const [row] = await tx
      .select({ accountId: emailTokens.accountId, purpose: emailTokens.purpose, expiresAt: emailTokens.expiresAt })
      .from(emailTokens)
      .where(eq(emailTokens.tokenHash, tokenHash))
      .for('update');
    return row ?? null;
  }

  /** Earlier unused tokens of this purpose stop working (a reset link is only good until the next one). */
  async revokeTokens(tx: Executor, accountId: string, purpose: TokenPurpose, at: Date): Promise<void> {
    await tx
      .update(emailTokens)
      .set({ usedAt: at })
      .where(and(eq(emailTokens.accountId, accountId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
  }

  /** The account of a live (unused, unexpired) token, without spending it. */
  async findByLiveToken(db: Executor, tokenHash: string, purpose: TokenPurpose, now: Date): Promise<AccountRow | null> {
    const [row] = await db
      .select({ account: accounts })
      .from(emailTokens)
      .innerJoin(accounts, eq(accounts.id, emailTokens.accountId))
      .where(
        and(
          eq(emailTokens.tokenHash, tokenHash),
          eq(emailTokens.purpose, purpose),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, now),
        ),
      )
      .limit(1);
    return row?.account ?? null;
  }

  /**
   * Marks a live token used and returns its account id and the address it was sent to; null when unknown, used or
   * expired. Single use by design.
   */
  async consumeToken(
    tx: Transaction,
    tokenHash: string,
    purpose: TokenPurpose,
    now: Date,
  ): Promise<{ accountId: string; sentTo: string | null } | null> {
    const [row] = await tx
      .update(emailTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailTokens.tokenHash, tokenHash),
          eq(emailTokens.purpose, purpose),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, now),
        ),
      )
      .returning({ accountId: emailTokens.accountId, sentTo: emailTokens.sentTo });
    return row ?? null;
  }
}
