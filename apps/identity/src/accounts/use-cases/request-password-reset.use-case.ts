import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { AccountsRepository } from '../accounts.repository.js';

/**
 * "Forgot password": records `identity.password-reset.requested` when the email has an account (the notifications
 * service sends the link). Says nothing about whether it has one: the answer is the same.
 */
@Injectable()
export class RequestPasswordReset {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(email: string): Promise<{ requested: boolean }> {
    const account = await this.accounts.findByEmail(this.db, email);
    if (account) {
      await this.db.transaction((tx) =>
        recordEvent(tx, outbox, Events.passwordResetRequested, { accountId: account.id, requestedAt: new Date().toISOString() }),
      );
      this.relay?.kick();
    }
    return { requested: true };
  }
}
