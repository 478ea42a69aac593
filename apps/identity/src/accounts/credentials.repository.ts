import { Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { accounts, emailTokens } from '../db/schema.js';
import type { AccountRow } from './accounts.repository.js';

type Executor = Database | Transaction;

/** What proves an account is its owner's: its password hash, and its email address (verified, proved, being changed). */
@Injectable()
export class CredentialsRepository {
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
}
