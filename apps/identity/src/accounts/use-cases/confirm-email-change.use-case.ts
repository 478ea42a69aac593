import { Inject, Injectable } from '@nestjs/common';
import { Events, type SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { changedEvent, toSessionUser } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';
import { EmailTokensRepository } from '../email-tokens.repository.js';
import { CredentialsRepository } from '../credentials.repository.js';
import { hashToken } from '../tokens.js';

const uniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
};

/**
 * The link sent to the new address: it proves the mailbox, so the account's email becomes that address, proved (and
 * the account counts as verified). In one transaction: the token is spent, the email changed, every other unused link
 * (sent to the old address) spent, and `identity.user.changed` (profiles' copy) with `identity.user.email-changed`
 * (the notice to the old address) recorded. Unknown, used, expired and replaced links all get the same answer, and so
 * does a link whose address another account took in the meantime.
 */
@Injectable()
export class ConfirmEmailChange {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(EmailTokensRepository) private readonly tokens: EmailTokensRepository,
    @Inject(CredentialsRepository) private readonly credentials: CredentialsRepository,
  ) {}

  async execute(token: string): Promise<SessionUser> {
    const now = new Date();
    let account;
    try {
      account = await this.db.transaction(async (tx) => {
        const spent = await this.tokens.consumeEmailChangeToken(tx, hashToken(token), now);
        if (!spent?.newEmail) return null;
        const current = await this.accounts.findById(tx, spent.accountId);
        if (!current || current.disabledAt || current.pendingEmail?.toLowerCase() !== spent.newEmail.toLowerCase()) return null;
        const row = await this.credentials.changeEmail(tx, current.id, spent.newEmail, now);
        if (!row) return null;
        const changed = row.isVerified ? row : await this.credentials.markVerified(tx, row.id, now);
        if (!row.isVerified) await recordEvent(tx, outbox, Events.userVerified, { accountId: row.id, verifiedAt: now.toISOString() });
        await recordEvent(tx, outbox, Events.userChanged, changedEvent(row, now));
        await recordEvent(tx, outbox, Events.emailChanged, {
          accountId: row.id,
          oldEmail: current.email,
          newEmail: row.email,
          changedAt: now.toISOString(),
        });
        return changed;
      });
    } catch (error) {
      // Another account registered the address after the link was sent: the link no longer works.
      if (uniqueViolation(error)) throw AccountErrors.linkInvalid();
      throw error;
    }
    if (!account) throw AccountErrors.linkInvalid();
    this.relay?.kick();
    return toSessionUser(account);
  }
}
