import { Inject, Injectable } from '@nestjs/common';
import type { LoginRequest, SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { AccountErrors } from '../account.errors.js';
import { toSessionUser } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';
import { spendVerifyTime, verifyPassword } from '../passwords.js';

/**
 * The sign-in check. An unknown email and a wrong password get their own messages (as the product always had), but
 * both take as long as checking a password, so timing tells no more than the message does.
 */
@Injectable()
export class Authenticate {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute({ email, password }: LoginRequest): Promise<SessionUser> {
    const account = await this.accounts.findByEmail(this.db, email);
    // The same answer, after the same time, for an unknown email and a wrong password (decisions.md).
    if (!account) {
      await spendVerifyTime(password);
      throw AccountErrors.invalidCredentials();
    }
    if (!(await verifyPassword(account.passwordHash, password))) throw AccountErrors.invalidCredentials();
    // A rep removed from their team: the same answer as any wrong sign-in.
    if (account.disabledAt) throw AccountErrors.invalidCredentials();
    return toSessionUser(account);
  }
}
