import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { recordEvent, type Transaction } from '@digicard/messaging';
import { OnEvent, type EventContext } from '@digicard/server';
import { outbox } from '../db/schema.js';
import { WalletPassEvents } from '../wallet/wallet-pass-events.handler.js';
import { documentOf } from './profile.mapping.js';
import { ProfilesRepository } from './profiles.repository.js';
import { LeadsRepository } from './leads.repository.js';
import { AccountFactsRepository } from './account-facts.repository.js';

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * Keeps reps' profiles in step with their team (the teams service owns the links): a rep's page shows the leader's
 * business and shares the leader's tier (businessId); a rep who leaves takes nothing: their leads stay with the
 * leader, their page goes. Each change drops the cached pages (`profiles.profile.updated` / `.deleted`).
 */
@Injectable()
export class TeamEvents {
  constructor(
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(LeadsRepository) private readonly leads: LeadsRepository,
    @Inject(AccountFactsRepository) private readonly facts: AccountFactsRepository,
    @Inject(WalletPassEvents) private readonly walletPasses: WalletPassEvents,
  ) {}

  @OnEvent(Events.teamMemberAdded)
  async added(data: Data<typeof Events.teamMemberAdded>, { tx }: EventContext): Promise<void> {
    // Kept for a registration that arrives after this event (each subject has its own consumer).
    await this.profiles.lockAccount(tx, data.memberAccountId);
    await this.facts.recordAccountFact(tx, data.memberAccountId, { businessAccountId: data.leaderAccountId, teamTel: data.tel });
    const row = await this.profiles.byAccount(tx, data.memberAccountId);
    if (!row) return;
    const updated = await this.profiles.update(tx, data.memberAccountId, {
      businessAccountId: data.leaderAccountId,
      document: { ...documentOf(row), tel: data.tel },
    });
    if (updated) await this.announce(tx, updated.accountId, updated.username, updated.updatedAt);
  }

  /** The leader's phone for the rep, or the job title the company's identity provider gave (SCIM), on the card. */
  @OnEvent(Events.teamMemberUpdated)
  async updated(data: Data<typeof Events.teamMemberUpdated>, { tx }: EventContext): Promise<void> {
    await this.profiles.lockAccount(tx, data.memberAccountId);
    const title = data.title === undefined ? {} : { title: data.title };
    await this.facts.recordAccountFact(tx, data.memberAccountId, {
      businessAccountId: data.leaderAccountId,
      teamTel: data.tel,
      ...(data.title === undefined ? {} : { teamTitle: data.title }),
    });
    const row = await this.profiles.byAccount(tx, data.memberAccountId);
    if (!row) return;
    const updated = await this.profiles.update(tx, data.memberAccountId, { document: { ...documentOf(row), tel: data.tel, ...title } });
    if (updated) await this.announce(tx, updated.accountId, updated.username, updated.updatedAt);
  }

  /** The team's identity provider deactivated the rep (SCIM): the page is hidden, nothing else changes. */
  @OnEvent(Events.teamMemberSuspended)
  async suspended(data: Data<typeof Events.teamMemberSuspended>, { tx }: EventContext): Promise<void> {
    const at = new Date(data.suspendedAt);
    await this.suspension(tx, data.memberAccountId, at, at);
  }

  /** Reactivated: the page is back as the rep left it. */
  @OnEvent(Events.teamMemberReinstated)
  async reinstated(data: Data<typeof Events.teamMemberReinstated>, { tx }: EventContext): Promise<void> {
    await this.suspension(tx, data.memberAccountId, new Date(data.reinstatedAt), null);
  }

  /**
   * Each subject has its own consumer: the latest said wins (an older deactivation or reactivation delivered late is
   * skipped), and one that comes before the rep's registration (a user created with `active: false`) is kept in
   * account_facts for `registered` to apply, so the page is never shown in between.
   */
  private async suspension(tx: Transaction, accountId: string, at: Date, suspendedAt: Date | null): Promise<void> {
    await this.profiles.lockAccount(tx, accountId);
    const facts = await this.facts.accountFactsOf(tx, accountId);
    if (facts?.suspensionChangedAt && facts.suspensionChangedAt > at) return;
    await this.facts.recordAccountFact(tx, accountId, { suspensionChangedAt: at, suspendedAt });
    const updated = await this.profiles.update(tx, accountId, { suspendedAt });
    if (updated) await this.announce(tx, updated.accountId, updated.username, updated.updatedAt);
  }

  /** The rep left: leads to the leader (marked with the rep's username), then the page and the rest go, their pass void. */
  @OnEvent(Events.teamMemberRemoved)
  async removed(data: Data<typeof Events.teamMemberRemoved>, { tx, afterCommit }: EventContext): Promise<void> {
    await this.profiles.lockAccount(tx, data.memberAccountId);
    const row = await this.profiles.byAccount(tx, data.memberAccountId);
    await this.facts.recordAccountFact(tx, data.memberAccountId, { deletedAt: new Date(data.removedAt), account: null });
    await this.leads.moveLeads(tx, data.memberAccountId, data.leaderAccountId, row?.username ?? data.username);
    const username = await this.profiles.deleteAll(tx, data.memberAccountId);
    await this.walletPasses.voidPassesOf(tx, data.memberAccountId, afterCommit);
    if (username) await recordEvent(tx, outbox, Events.profileDeleted, { accountId: data.memberAccountId, username });
  }

  private async announce(tx: Transaction, accountId: string, username: string, at: Date): Promise<void> {
    await recordEvent(tx, outbox, Events.profileUpdated, { accountId, username, updatedAt: at.toISOString() });
  }
}
