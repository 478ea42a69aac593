import { Inject, Injectable } from '@nestjs/common';
import { AccountMessages, Events, type EmailChangeRequest } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { AccountsRepository } from '../accounts.repository.js';
import { CredentialsRepository } from '../credentials.repository.js';
import { verifyPassword } from '../passwords.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The owner asks for a new email, confirming with their password. Nothing changes yet: the address is kept as
 * pending and `identity.email-change.requested` makes notifications send the link to it (the token is made there;
 * only its hash comes back here). An address that has an account gets the same answer (decisions.md: the asker learns
 * nothing about other accounts); nothing is kept and that account's owner is told (`identity.email-change.attempted`).
 */
@Injectable()
export class RequestEmailChange {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(CredentialsRepository) private readonly credentials: CredentialsRepository,
  ) {}

  async execute(accountId: string, request: EmailChangeRequest): Promise<{ requested: true }> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || account.disabledAt) throw AccountErrors.accountNotFound();
    // A rep's names and email are the leader's to change (teams keeps them in the leader's list).
    if (account.role === 'teamMember') throw ServiceError.forbidden(AccountMessages.managedByLeader);
    if (!(await verifyPassword(account.passwordHash, request.password))) throw AccountErrors.wrongPassword();
    const email = request.email.trim();
    if (email.toLowerCase() === account.emailNormalized) throw AccountErrors.field('email', AccountMessages.sameEmail);
    // A removed rep's address is free again after the grace period, as at sign-up.
    await this.accounts.releaseExpired(this.db, '', email, new Date(Date.now() - this.config.REMOVED_REP_GRACE_DAYS * DAY_MS));
    const holder = await this.accounts.findByEmail(this.db, email);
    const now = new Date();
    await this.db.transaction(async (tx) => {
      if (holder) {
        // Disabled accounts (removed reps in their grace period) are not told: nobody reads that mailbox for us.
        if (!holder.disabledAt)
          await recordEvent(tx, outbox, Events.emailChangeAttempted, { accountId: holder.id, attemptedAt: now.toISOString() });
        return;
      }
      await this.credentials.setPendingEmail(tx, accountId, email, now);
      await recordEvent(tx, outbox, Events.emailChangeRequested, { accountId, newEmail: email, requestedAt: now.toISOString() });
    });
    this.relay?.kick();
    return { requested: true };
  }
}
