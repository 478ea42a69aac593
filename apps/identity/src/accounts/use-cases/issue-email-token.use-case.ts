import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { AccountsRepository, type TokenPurpose } from '../accounts.repository.js';
import { TOKEN_LIFETIME_MS, WELCOME_LIFETIME_MS, hashToken, newToken } from '../tokens.js';

export interface IssuedToken {
  token: string;
  email: string;
  firstName: string;
  expiresAt: string;
}

/**
 * Issues a single-use token for an email link, with the address to send it to. Called by the notifications service
 * acting on an event, never from the browser; only the token's hash is stored, and a new reset token revokes the
 * earlier ones. Null for an unknown account, and for a verification token when the account is verified already.
 */
@Injectable()
export class IssueEmailToken {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(accountId: string, purpose: TokenPurpose, welcome = false): Promise<IssuedToken | null> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || account.disabledAt || (purpose === 'verify-email' && account.isVerified)) return null;
    // A welcome link is a reset-password token for a new team rep, living longer.
    if (welcome && (purpose !== 'reset-password' || account.role !== 'teamMember')) return null;
    const token = newToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (welcome ? WELCOME_LIFETIME_MS : TOKEN_LIFETIME_MS[purpose]));
    await this.db.transaction(async (tx) => {
      if (purpose === 'reset-password') await this.accounts.revokeTokens(tx, accountId, purpose, now);
      await this.accounts.insertToken(tx, accountId, purpose, hashToken(token), expiresAt);
    });
    return { token, email: account.email, firstName: account.firstName, expiresAt: expiresAt.toISOString() };
  }
}
