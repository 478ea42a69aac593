import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import type { LoginRequest, SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, LOGGER } from '@digicard/server';
import { AccountErrors } from '../account.errors.js';
import { toSessionUser } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';
import { CredentialsRepository } from '../credentials.repository.js';
import { PasswordHashing } from '../password-hashing.js';
import { hashPassword, needsRehash, spendVerifyTime, verifyPassword } from '../passwords.js';

/**
 * The sign-in check. An unknown email and a wrong password get the same answer ("Incorrect email or password."),
 * after the same time (a decoy hash is checked for an unknown email). A right password whose stored hash was made
 * with other argon2 parameters than today's (ARGON2_*) is hashed again with today's: the only moment the password
 * is known.
 */
@Injectable()
export class Authenticate {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(CredentialsRepository) private readonly credentials: CredentialsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
    // Constructed first, so the configured parameters apply to every hash and check below.
    @Inject(PasswordHashing) _hashing: PasswordHashing,
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
    if (needsRehash(account.passwordHash)) await this.upgradeHash(account.id, account.passwordHash, password);
    return toSessionUser(account);
  }

  /** Best effort: a failure leaves the old hash, which still works, and the next sign-in tries again. */
  private async upgradeHash(accountId: string, oldHash: string, password: string): Promise<void> {
    try {
      await this.credentials.replaceHash(this.db, accountId, oldHash, await hashPassword(password));
      this.logger.info({ accountId }, 'password hash upgraded to the current argon2 parameters');
    } catch (error) {
      this.logger.warn({ accountId, err: error }, 'password hash not upgraded; the old one still works');
    }
  }
}
