import { Injectable } from '@nestjs/common';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { accounts, emailTokens } from '../db/schema.js';
import type { AccountRow } from './accounts.repository.js';

type Executor = Database | Transaction;
export type TokenPurpose = (typeof emailTokens.$inferSelect)['purpose'];
/** The links sent to an account, oldest first (its data export). */
const TokensOldestFirst: Keyset = { at: emailTokens.createdAt, id: emailTokens.id, order: 'oldest-first' };

/** A token that still works: this hash and purpose, unused, not expired at `now`. */
const liveToken = (tokenHash: string, purpose: TokenPurpose, now: Date) =>
  and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now));

/** The links emailed to an account (verification, password reset, sign-in, email change): stored as hashes, spent once. */
@Injectable()
export class EmailTokensRepository {
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
      .where(liveToken(tokenHash, 'change-email', now))
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
      .where(liveToken(tokenHash, purpose, now))
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
      .where(liveToken(tokenHash, purpose, now))
      .returning({ accountId: emailTokens.accountId, sentTo: emailTokens.sentTo });
    return row ?? null;
  }
}
