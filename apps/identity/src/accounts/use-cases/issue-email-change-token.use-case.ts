import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError } from '@digicard/server';
import { AccountsRepository } from '../accounts.repository.js';
import { EmailTokensRepository } from '../email-tokens.repository.js';
import { TOKEN_LIFETIME_MS } from '../tokens.js';
import type { IssuedToken } from './issue-email-token.use-case.js';

/**
 * Stores the hash of the link notifications made for a requested email change, bound to the address it goes to, and
 * answers that address. Only the address still pending gets a link (a newer request, or a change done since, makes
 * the older request's event send nothing), so a caller cannot name an address of its own. A new link replaces the
 * earlier ones. The same hash again is the caller's retry: the same answer.
 */
@Injectable()
export class IssueEmailChangeToken {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(EmailTokensRepository) private readonly tokens: EmailTokensRepository,
  ) {}

  async execute(accountId: string, newEmail: string, tokenHash: string): Promise<IssuedToken | null> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || account.disabledAt || !account.pendingEmail) return null;
    if (account.pendingEmail.toLowerCase() !== newEmail.trim().toLowerCase()) return null;
    const pending = account.pendingEmail;
    const now = new Date();
    const expiresAt = await this.db.transaction(async (tx) => {
      const known = await this.tokens.tokenByHash(tx, tokenHash);
      if (known) {
        if (known.accountId !== accountId || known.purpose !== 'change-email')
          throw new ServiceError({ statusCode: 409, code: ErrorCode.Conflict, message: 'That token is taken.' });
        return known.expiresAt;
      }
      const until = new Date(now.getTime() + TOKEN_LIFETIME_MS['change-email']);
      await this.tokens.revokeTokens(tx, accountId, 'change-email', now);
      await this.tokens.insertToken(tx, accountId, 'change-email', tokenHash, until, pending, pending);
      return until;
    });
    return { email: pending, firstName: account.firstName, expiresAt: expiresAt.toISOString() };
  }
}
