import { Inject, Injectable } from '@nestjs/common';
import { Events, type SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { toSessionUser } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';
import { EmailTokensRepository } from '../email-tokens.repository.js';
import { CredentialsRepository } from '../credentials.repository.js';
import { hashToken } from '../tokens.js';

/**
 * The link in the verification email: a live token is spent and the account marked verified, with
 * `identity.user.verified` (once: an account verified already stays as it is), and the address the link was sent to
 * proved if it is still the account's. Unknown, used and expired tokens all get the same answer. A caller signed in
 * (`viewerId`) to another account than the link's is refused and nothing is spent: the link signs its account in,
 * and a browser never switches accounts without asking its person first.
 */
@Injectable()
export class VerifyEmail {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(EmailTokensRepository) private readonly tokens: EmailTokensRepository,
    @Inject(CredentialsRepository) private readonly credentials: CredentialsRepository,
  ) {}

  async execute(token: string, viewerId: string | null): Promise<SessionUser> {
    const now = new Date();
    const account = await this.db.transaction(async (tx) => {
      const spent = await this.tokens.consumeToken(tx, hashToken(token), 'verify-email', now);
      if (!spent) return null;
      const { accountId } = spent;
      // Thrown inside the transaction: its rollback leaves the token unspent.
      if (viewerId !== null && viewerId !== accountId) throw AccountErrors.linkForOtherAccount();
      const current = await this.accounts.findById(tx, accountId);
      if (!current) return null;
      const proved = (await this.credentials.markEmailProved(tx, accountId, spent.sentTo, now)) ?? current;
      if (current.isVerified) return proved;
      const row = await this.credentials.markVerified(tx, accountId, now);
      await recordEvent(tx, outbox, Events.userVerified, { accountId, verifiedAt: now.toISOString() });
      return row;
    });
    if (!account) throw AccountErrors.linkInvalid();
    this.relay?.kick();
    return toSessionUser(account);
  }
}
