import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { AccountsRepository } from '../accounts.repository.js';

/** Asks for a (new) verification email for the signed-in account; the notifications service will send it. */
@Injectable()
export class RequestVerification {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(accountId: string): Promise<{ requested: boolean }> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw AccountErrors.accountNotFound();
    if (account.isVerified) return { requested: false };
    await this.db.transaction((tx) =>
      recordEvent(tx, outbox, Events.verificationRequested, { accountId, requestedAt: new Date().toISOString() }),
    );
    this.relay?.kick();
    return { requested: true };
  }
}
