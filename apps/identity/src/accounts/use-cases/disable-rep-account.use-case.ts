import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@digicard/db';
import { ErrorCode, ScimMessages } from '@digicard/contracts';
import { DATABASE, ServiceError } from '@digicard/server';
import { AccountErrors } from '../account.errors.js';
import { AccountsRepository } from '../accounts.repository.js';

/**
 * A rep left the team (the teams service checked the leader): the account stays, so the username is held for the
 * grace period, but it can no longer sign in and its email links stop working. Saying it twice changes nothing.
 */
@Injectable()
export class DisableRepAccount {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(accountId: string): Promise<{ disabled: true }> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw AccountErrors.accountNotFound();
    if (account.role !== 'teamMember') throw ServiceError.forbidden('Only team members are removed this way.');
    if (!account.disabledAt) await this.db.transaction((tx) => this.accounts.disable(tx, accountId, new Date()));
    return { disabled: true };
  }
}

/**
 * A rep the team's identity provider deactivated comes back (SCIM `active: true`): the account can sign in again.
 * One whose username or email was released after the grace period (`releaseExpired`) cannot: 409, nothing changed.
 */
@Injectable()
export class EnableRepAccount {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(accountId: string): Promise<{ enabled: true }> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw AccountErrors.accountNotFound();
    if (account.role !== 'teamMember') throw ServiceError.forbidden('Only team members are enabled this way.');
    if (account.username.startsWith('removed-') || account.emailNormalized.startsWith('removed-'))
      throw new ServiceError({ statusCode: 409, code: ErrorCode.Conflict, message: ScimMessages.cannotReactivate });
    if (account.disabledAt) await this.db.transaction((tx) => this.accounts.disable(tx, accountId, new Date(), true));
    return { enabled: true };
  }
}
