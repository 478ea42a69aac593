import { Inject, Injectable } from '@nestjs/common';
import { AccountMessages, Events, type AccountNames, type SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { changedEvent, toSessionUser } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';

/**
 * The owner changes their first and last name (Settings, Account). The change and `identity.user.changed` are one
 * transaction: profiles keeps its copy in step and the cached public page drops. The same names again change nothing.
 */
@Injectable()
export class RenameAccount {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(accountId: string, names: AccountNames): Promise<SessionUser> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || account.disabledAt) throw AccountErrors.accountNotFound();
    // A rep's names and email are the leader's to change (teams keeps them in the leader's list).
    if (account.role === 'teamMember') throw ServiceError.forbidden(AccountMessages.managedByLeader);
    if (account.firstName === names.firstName && account.lastName === names.lastName) return toSessionUser(account);
    const now = new Date();
    const row = await this.db.transaction(async (tx) => {
      const updated = await this.accounts.setNames(tx, accountId, names.firstName, names.lastName, now);
      if (!updated) return null;
      await recordEvent(tx, outbox, Events.userChanged, changedEvent(updated, now));
      return updated;
    });
    if (!row) throw AccountErrors.accountNotFound();
    this.relay?.kick();
    return toSessionUser(row);
  }
}
