import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AccountMessages, Events, type RegisterCommand, type Registration } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, OUTBOX_RELAY } from '@digicard/server';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { registeredEvent } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';
import { hashPassword, passwordProblem } from '../passwords.js';

const isUniqueViolation = (error: unknown, index: string): boolean => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e.cause ?? e;
  return pg.code === '23505' && pg.constraint === index;
};

/**
 * Sign-up: a unique username (usernames are public: a taken one is refused), a password that is not among the most
 * common ones, and an email. A new email: the account is stored with `identity.user.registered` in one transaction
 * (the profile and the verification email follow from the event); the event carries no secret. An email that has an
 * account already (whatever its case) is not refused, so nobody learns whether an address is registered
 * (decisions.md): nothing is created, `identity.registration.attempted` tells notifications to email the owner, and
 * the answer is `{ accountId: null }`, which the gateway answers exactly as it answers a new account. The special
 * offer's specials ride on the new account's event (orders places their unpaid order from it); a taken email's
 * are dropped with the rest of the attempt.
 */
@Injectable()
export class RegisterAccount {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute(input: RegisterCommand): Promise<Registration> {
    const weak = passwordProblem(input.password, input);
    if (weak) throw AccountErrors.field('password', weak);
    // A removed team rep's username and email are free again once their grace period is over.
    await this.accounts.releaseExpired(
      this.db,
      input.username,
      input.email,
      new Date(Date.now() - this.config.REMOVED_REP_GRACE_DAYS * 24 * 3600 * 1000),
    );
    if (await this.accounts.findByUsername(this.db, input.username)) throw AccountErrors.field('username', AccountMessages.usernameTaken);
    // The hash is computed either way, so a taken email takes as long as a new one.
    const passwordHash = await hashPassword(input.password);
    const owner = await this.accounts.findByEmail(this.db, input.email);
    if (owner) return this.attempted(owner.id);
    try {
      const account = await this.db.transaction(async (tx) => {
        const row = await this.accounts.insert(tx, {
          id: randomUUID(),
          username: input.username,
          email: input.email,
          emailNormalized: input.email.toLowerCase(),
          firstName: input.firstName,
          lastName: input.lastName,
          passwordHash,
        });
        await recordEvent(tx, outbox, Events.userRegistered, {
          ...registeredEvent(row),
          ...(input.specials?.length ? { specials: input.specials } : {}),
        });
        return row;
      });
      this.relay?.kick();
      return { accountId: account.id };
    } catch (error) {
      // Two registrations raced for the same name or email: the unique index decides.
      if (isUniqueViolation(error, 'accounts_username_idx')) throw AccountErrors.field('username', AccountMessages.usernameTaken);
      if (isUniqueViolation(error, 'accounts_email_idx')) {
        const winner = await this.accounts.findByEmail(this.db, input.email);
        if (winner) return this.attempted(winner.id);
      }
      throw error;
    }
  }

  /** The owner of the email is told (by notifications); nothing else changes. */
  private async attempted(accountId: string): Promise<Registration> {
    await this.db.transaction(async (tx) => {
      await recordEvent(tx, outbox, Events.registrationAttempted, { accountId, attemptedAt: new Date().toISOString() });
    });
    this.relay?.kick();
    return { accountId: null };
  }
}
