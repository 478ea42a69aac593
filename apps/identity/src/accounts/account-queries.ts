import { Inject, Injectable } from '@nestjs/common';
import type { ExportChunk, PageRequest, SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, exportChunk, toPage } from '@digicard/server';
import { AccountErrors } from './account.errors.js';
import { toSessionUser } from './account.mapping.js';
import { AccountsRepository } from './accounts.repository.js';
import { EmailTokensRepository } from './email-tokens.repository.js';

/** What the identity service answers without changing anything. */
@Injectable()
export class AccountQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(EmailTokensRepository) private readonly tokens: EmailTokensRepository,
  ) {}

  /** The rep accounts among these ids, for teams completing an addition it was cut short in (any order). */
  async repAccounts(
    accountIds: string[],
  ): Promise<{ accounts: Array<{ accountId: string; username: string; email: string; firstName: string; lastName: string }> }> {
    const rows = await this.accounts.findRepsByIds(this.db, accountIds);
    return {
      accounts: rows.map((r) => ({ accountId: r.id, username: r.username, email: r.email, firstName: r.firstName, lastName: r.lastName })),
    };
  }

  /**
   * The address the signed-in account has proved (a link sent to it followed), or null: what other services may treat
   * as the account's own when they hold data under an email address (the data export). 404 once it is deleted.
   */
  async provedEmail(accountId: string): Promise<{ email: string | null; provedAt: string | null }> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || account.disabledAt) throw AccountErrors.accountNotFound();
    return account.emailProvedAt
      ? { email: account.email, provedAt: account.emailProvedAt.toISOString() }
      : { email: null, provedAt: null };
  }

  /** The signed-in account, as the session shows it; 404 once it is deleted. */
  async get(accountId: string): Promise<SessionUser> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || account.disabledAt) throw AccountErrors.accountNotFound();
    return toSessionUser(account);
  }

  /**
   * Everything identity holds about the signed-in account (POPIA's right of access): the account without its
   * password hash, a pending email change, and the email links sent (when, what for, used or not; never a hash).
   */
  async export(accountId: string, request: PageRequest): Promise<ExportChunk> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || account.disabledAt) throw AccountErrors.accountNotFound();
    return exportChunk(
      request,
      () =>
        Promise.resolve({
          ...toSessionUser(account),
          verifiedAt: account.verifiedAt?.toISOString() ?? null,
          emailProvedAt: account.emailProvedAt?.toISOString() ?? null,
          passwordChangedAt: account.passwordChangedAt.toISOString(),
          createdAt: account.createdAt.toISOString(),
          updatedAt: account.updatedAt.toISOString(),
          pendingEmail: account.pendingEmail,
          pendingEmailRequestedAt: account.pendingEmailAt?.toISOString() ?? null,
        }),
      [
        {
          name: 'emailLinks',
          read: async (start, limit, part) =>
            toPage(
              await this.tokens.tokensPage(this.db, accountId, start, limit),
              limit,
              (rows) =>
                rows.map((l) => ({
                  purpose: l.purpose,
                  sentTo: l.sentTo ?? l.newEmail,
                  createdAt: l.createdAt.toISOString(),
                  expiresAt: l.expiresAt.toISOString(),
                  usedAt: l.usedAt?.toISOString() ?? null,
                })),
              part,
            ),
        },
      ],
    );
  }
}
