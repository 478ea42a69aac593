import { Inject, Injectable } from '@nestjs/common';
import { AccountMessages, Events, type Rpc, type SessionUser } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, OUTBOX_RELAY, ServiceError, type RpcBody } from '@digicard/server';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { changedEvent, toSessionUser } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * A leader changes a rep's username, names or email (the teams service checked the rep is theirs; only services
 * call this). Only team members' accounts change this way; `identity.user.changed` tells profiles. A new address is
 * not proved (the leader typed it) until the rep follows a link sent to it.
 */
@Injectable()
export class UpdateRepAccount {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(input: RpcBody<typeof Rpc.updateRepAccount>): Promise<SessionUser> {
    const account = await this.accounts.findById(this.db, input.accountId);
    // A disabled rep is changed too while the teams service still counts them as a rep (one their company's identity
    // provider deactivated: teams checked the membership); once the username was released, the account is nobody's.
    if (!account || (account.disabledAt && account.username.startsWith('removed-'))) throw AccountErrors.accountNotFound();
    if (account.role !== 'teamMember') throw ServiceError.forbidden('Only team members are changed this way.');
    const email = input.email.trim();
    await this.accounts.releaseExpired(this.db, input.username, email, new Date(Date.now() - this.config.REMOVED_REP_GRACE_DAYS * DAY_MS));
    const byName = await this.accounts.findByUsername(this.db, input.username);
    if (byName && byName.id !== account.id) throw AccountErrors.field('username', AccountMessages.usernameTaken);
    const byEmail = await this.accounts.findByEmail(this.db, email);
    if (byEmail && byEmail.id !== account.id) throw AccountErrors.field('email', 'An account with this email already exists.');
    const now = new Date();
    const row = await this.db.transaction(async (tx) => {
      const updated = await this.accounts.updateFields(
        tx,
        account.id,
        { username: input.username, email, emailNormalized: email.toLowerCase(), firstName: input.firstName, lastName: input.lastName },
        now,
      );
      if (!updated) return null;
      await recordEvent(tx, outbox, Events.userChanged, changedEvent(updated, now));
      return updated;
    });
    if (!row) throw AccountErrors.accountNotFound();
    this.relay?.kick();
    return toSessionUser(row);
  }
}
