import { Inject, Injectable } from '@nestjs/common';
import { AccountMessages, ErrorCode, type SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError } from '@digicard/server';
import { toSessionUser } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';

/**
 * Sign-in with a company account: the gateway has checked the provider's ID token and asks for the account of the
 * email it proved. No account, or a disabled one (a rep who left the team), is refused as a failed sign-in; whether
 * the account may use that team's provider is the teams service's to say, which the gateway asks next.
 */
@Injectable()
export class SsoSignIn {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(email: string): Promise<SessionUser> {
    const account = await this.accounts.findByEmail(this.db, email);
    if (!account || account.disabledAt) {
      throw new ServiceError({ statusCode: 401, code: ErrorCode.LoginFailed, message: AccountMessages.loginFailed });
    }
    return toSessionUser(account);
  }
}
