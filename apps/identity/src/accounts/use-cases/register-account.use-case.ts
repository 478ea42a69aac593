import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AccountMessages, Events, type RegisterRequest, type SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, OUTBOX_RELAY } from '@digicard/server';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { toSessionUser } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';
import { hashPassword, isCommonPassword } from '../passwords.js';

const isUniqueViolation = (error: unknown, index: string): boolean => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e.cause ?? e;
  return pg.code === '23505' && pg.constraint === index;
};

/**
 * Sign-up: a unique username and email (whatever its case), a password that is not among the most common ones. The
 * account is stored with `identity.user.registered` in one transaction (the profile follows from the event); the
 * event carries no secret.
 */
@Injectable()
export class RegisterAccount {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute(input: RegisterRequest): Promise<SessionUser> {
    if (isCommonPassword(input.password)) throw AccountErrors.field('password', AccountMessages.commonPassword);
    // A removed team rep's username and email are free again once their grace period is over.
    await this.accounts.releaseExpired(this.db, input.username, input.email, new Date(Date.now() - this.config.REMOVED_REP_GRACE_DAYS * 24 * 3600 * 1000));
    if (await this.accounts.findByUsername(this.db, input.username)) throw AccountErrors.field('username', AccountMessages.usernameTaken);
    if (await this.accounts.findByEmail(this.db, input.email)) throw AccountErrors.field('email', AccountMessages.emailTaken);
    const passwordHash = await hashPassword(input.password);
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
          accountId: row.id,
          username: row.username,
          email: row.email,
          firstName: row.firstName,
          lastName: row.lastName,
          role: row.role,
          registeredAt: row.createdAt.toISOString(),
        });
        return row;
      });
      this.relay?.kick();
      return toSessionUser(account);
    } catch (error) {
      // Two registrations raced for the same name or email: the unique index decides.
      if (isUniqueViolation(error, 'accounts_username_idx')) throw AccountErrors.field('username', AccountMessages.usernameTaken);
      if (isUniqueViolation(error, 'accounts_email_idx')) throw AccountErrors.field('email', AccountMessages.emailTaken);
      throw error;
    }
  }
}
