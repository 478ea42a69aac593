import { Injectable } from '@nestjs/common';
import { eq, lt } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { accountFacts, type AccountNamesFact, memberships } from '../db/schema.js';

type Executor = Database | Transaction;

/**
 * What other services said of an account, kept whatever order their events arrive in: its tier (payments), its
 * verification, deletion, names and team (identity, teams). Applied to the profile when it exists.
 */
@Injectable()
export class AccountFactsRepository {
  /**
   * Keeps what payments said of an account's tier when it is newer than what is kept; true when it was newer.
   */
  async recordMembership(tx: Transaction, row: typeof memberships.$inferInsert): Promise<boolean> {
    const kept = await tx
      .insert(memberships)
      .values(row)
      .onConflictDoUpdate({
        target: memberships.accountId,
        set: { membership: row.membership, paidUntil: row.paidUntil, version: row.version, changedAt: row.changedAt },
        setWhere: lt(memberships.version, row.version),
      })
      .returning({ version: memberships.version });
    return kept.length > 0;
  }

  async membershipOf(db: Executor, accountId: string): Promise<string | null> {
    const [row] = await db
      .select({ membership: memberships.membership })
      .from(memberships)
      .where(eq(memberships.accountId, accountId))
      .limit(1);
    return row?.membership ?? null;
  }

  /** Remembers that identity verified or deleted an account, whatever order its events arrive in. */
  async recordAccountFact(
    tx: Transaction,
    accountId: string,
    fact:
      | { verifiedAt: Date }
      | { deletedAt: Date; account: null }
      | { businessAccountId: string; teamTel: string; teamTitle?: string }
      | { suspensionChangedAt: Date; suspendedAt: Date | null }
      | { accountChangedAt: Date; account: AccountNamesFact },
  ): Promise<void> {
    await tx
      .insert(accountFacts)
      .values({ accountId, ...fact })
      .onConflictDoUpdate({ target: accountFacts.accountId, set: fact });
  }

  async accountFactsOf(
    db: Executor,
    accountId: string,
  ): Promise<{
    verifiedAt: Date | null;
    deletedAt: Date | null;
    businessAccountId: string | null;
    teamTel: string | null;
    teamTitle: string | null;
    suspensionChangedAt: Date | null;
    suspendedAt: Date | null;
    accountChangedAt: Date | null;
    account: AccountNamesFact | null;
  } | null> {
    const [row] = await db.select().from(accountFacts).where(eq(accountFacts.accountId, accountId)).limit(1);
    return row ?? null;
  }
}
