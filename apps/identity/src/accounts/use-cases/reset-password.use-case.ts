import { Inject, Injectable } from '@nestjs/common';
import { Events, type PasswordReset, type SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { toSessionUser } from '../account.mapping.js';
import { EmailTokensRepository } from '../email-tokens.repository.js';
import { CredentialsRepository } from '../credentials.repository.js';
import { hashPassword, passwordProblem } from '../passwords.js';
import { hashToken } from '../tokens.js';

/**
 * The link in the reset email (or a new rep's welcome email): a live reset token is spent and the new password set,
 * with `identity.user.password-changed` (sessions elsewhere end on it). The link came to the mailbox it was sent to, so
 * that address is proved if it is still the account's. A common password is refused before the token is
 * spent (as is one containing the username or the email's local part), so the same link can be used again with a
 * better one. A caller signed in (`viewerId`) to another account than the link's is refused first, nothing spent
 * or changed (see VerifyEmail).
 */
@Injectable()
export class ResetPassword {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(EmailTokensRepository) private readonly tokens: EmailTokensRepository,
    @Inject(CredentialsRepository) private readonly credentials: CredentialsRepository,
  ) {}

  async execute({ token, password }: PasswordReset, viewerId: string | null): Promise<SessionUser> {
    const now = new Date();
    const owner = await this.tokens.findByLiveToken(this.db, hashToken(token), 'reset-password', now);
    if (!owner) throw AccountErrors.linkInvalid();
    if (viewerId !== null && viewerId !== owner.id) throw AccountErrors.linkForOtherAccount();
    const weak = passwordProblem(password, owner);
    if (weak) throw AccountErrors.field('password', weak);
    const passwordHash = await hashPassword(password);
    const account = await this.db.transaction(async (tx) => {
      const spent = await this.tokens.consumeToken(tx, hashToken(token), 'reset-password', now);
      if (!spent) return null;
      const { accountId } = spent;
      await this.credentials.markEmailProved(tx, accountId, spent.sentTo, now);
      const row = await this.credentials.setPassword(tx, accountId, passwordHash, now);
      await recordEvent(tx, outbox, Events.passwordChanged, { accountId, changedAt: now.toISOString() });
      return row;
    });
    if (!account) throw AccountErrors.linkInvalid();
    this.relay?.kick();
    return toSessionUser(account);
  }
}
