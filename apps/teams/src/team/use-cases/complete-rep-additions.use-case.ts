import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, LOGGER, OUTBOX_RELAY } from '@digicard/server';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { IdentityClient } from '../identity.client.js';
import { MembersRepository, type MemberRow } from '../members.repository.js';

type RepAccount = { accountId: string; username: string; email: string; firstName: string; lastName: string };

/**
 * The second half of adding reps: the accounts identity made become members, with `teams.member.added` each, in the
 * transaction that takes their pending rows away. Whoever takes a row records it (the request, or the sweeper after
 * teams or NATS died between identity's answer and this), so each member and event is recorded once.
 */
@Injectable()
export class CompleteRepAdditions {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(IdentityClient) private readonly identity: IdentityClient,
    @Inject(MembersRepository) private readonly members: MembersRepository,
  ) {}

  /** Records the accounts as members (those still pending); returns them as members, in the order given. */
  async record(accounts: RepAccount[]): Promise<MemberRow[]> {
    const ids = accounts.map((a) => a.accountId);
    const byId = new Map(accounts.map((a) => [a.accountId, a]));
    const now = new Date();
    await this.db.transaction(async (tx) => {
      const pending = await this.members.takePending(tx, ids);
      const inserted = await this.members.insert(
        tx,
        pending.map((p) => {
          const account = byId.get(p.accountId)!;
          return {
            memberAccountId: p.accountId,
            leaderAccountId: p.leaderAccountId,
            username: account.username,
            firstName: account.firstName,
            lastName: account.lastName,
            email: account.email,
            tel: p.tel,
            addedAt: now,
            updatedAt: now,
          };
        }),
      );
      for (const row of inserted) {
        await recordEvent(tx, outbox, Events.teamMemberAdded, {
          leaderAccountId: row.leaderAccountId,
          memberAccountId: row.memberAccountId,
          username: row.username,
          tel: row.tel,
          addedAt: row.addedAt.toISOString(),
        });
      }
    });
    this.relay?.kick();
    const rows = await this.members.byIds(this.db, ids);
    return ids.map((id) => rows.find((r) => r.memberAccountId === id)).filter((r): r is MemberRow => !!r);
  }

  /**
   * Pending reps old enough that their request is over: identity says which accounts it made; those become members,
   * and those it never made are dropped once they are older than PENDING_REP_ABANDON_MS.
   */
  async sweep(now = Date.now()): Promise<void> {
    const stale = await this.members.stalePending(this.db, new Date(now - this.config.PENDING_REP_AGE_MS));
    if (stale.length === 0) return;
    const { accounts } = await this.identity.findRepAccounts(stale.map((r) => r.accountId));
    if (accounts.length > 0) {
      const recorded = await this.record(accounts);
      this.logger.warn({ accountIds: recorded.map((r) => r.memberAccountId) }, 'reps whose addition was cut short recorded as members');
    }
    const made = new Set(accounts.map((a) => a.accountId));
    const abandoned = stale
      .filter((r) => !made.has(r.accountId) && r.createdAt.getTime() < now - this.config.PENDING_REP_ABANDON_MS)
      .map((r) => r.accountId);
    if (abandoned.length > 0) {
      await this.members.dropPending(this.db, abandoned);
      this.logger.warn({ accountIds: abandoned }, 'pending reps identity never created dropped');
    }
  }
}
