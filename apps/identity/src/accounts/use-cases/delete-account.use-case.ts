import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { AccountsRepository } from '../accounts.repository.js';
import { verifyPassword } from '../passwords.js';

/**
 * The owner asks to be forgotten (POPIA), confirming with their password: the account and its tokens go, and
 * `identity.user.deleted` tells the other services to forget theirs, and what they hold under its address when the
 * account proved that address (a link sent to it followed: never on a leader's word).
 */
@Injectable()
export class DeleteAccount {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(accountId: string, password: string): Promise<{ deleted: true }> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw AccountErrors.accountNotFound();
    if (!(await verifyPassword(account.passwordHash, password))) throw AccountErrors.wrongPassword();
    await this.db.transaction(async (tx) => {
      await this.accounts.delete(tx, accountId);
      await recordEvent(tx, outbox, Events.userDeleted, {
        accountId,
        deletedAt: new Date().toISOString(),
        email: account.emailProvedAt ? account.email : null,
      });
    });
    this.relay?.kick();
    return { deleted: true };
  }
}
