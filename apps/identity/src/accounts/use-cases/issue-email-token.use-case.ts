import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@digicard/db';
import { ErrorCode } from '@digicard/contracts';
import { DATABASE, ServiceError } from '@digicard/server';
import { AccountsRepository } from '../accounts.repository.js';
import { EmailTokensRepository, type TokenPurpose } from '../email-tokens.repository.js';
import { TOKEN_LIFETIME_MS, WELCOME_LIFETIME_MS } from '../tokens.js';

export interface IssuedToken {
  email: string;
  firstName: string;
  expiresAt: string;
}

/**
 * Issues a single-use token for an email link, answering the address to send it to. Called by the notifications
 * service acting on an event, never from the browser. The caller made the token and sends only its hash, which is all
 * that is stored: the token never crosses the bus. The token records the address it goes to (following it proves that
 * address). A new reset token revokes the earlier ones. Null for an unknown account, and for a verification token when
 * the account is verified already (a rep verified on the leader's word proves the address with their welcome or a
 * reset link instead: no verification email on top of the welcome).
 */
@Injectable()
export class IssueEmailToken {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(EmailTokensRepository) private readonly tokens: EmailTokensRepository,
  ) {}

  async execute(accountId: string, purpose: TokenPurpose, tokenHash: string, welcome = false): Promise<IssuedToken | null> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || account.disabledAt || (purpose === 'verify-email' && account.isVerified)) return null;
    // A welcome link is a reset-password token for a new team rep, living longer.
    if (welcome && (purpose !== 'reset-password' || account.role !== 'teamMember')) return null;
    const now = new Date();
    const expiresAt = await this.db.transaction(async (tx) => {
      const known = await this.tokens.tokenByHash(tx, tokenHash);
      // The same hash again for the same link is the caller's retry (its first call timed out): the same answer.
      if (known) {
        if (known.accountId !== accountId || known.purpose !== purpose)
          throw new ServiceError({ statusCode: 409, code: ErrorCode.Conflict, message: 'That token is taken.' });
        return known.expiresAt;
      }
      const until = new Date(now.getTime() + (welcome ? WELCOME_LIFETIME_MS : TOKEN_LIFETIME_MS[purpose]));
      if (purpose === 'reset-password') await this.tokens.revokeTokens(tx, accountId, purpose, now);
      await this.tokens.insertToken(tx, accountId, purpose, tokenHash, until, account.email);
      return until;
    });
    return { email: account.email, firstName: account.firstName, expiresAt: expiresAt.toISOString() };
  }
}
