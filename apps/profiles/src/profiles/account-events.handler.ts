import { Inject, Injectable } from '@nestjs/common';
import { Events, ProfileDefaults, type UserRegistered } from '@digicard/contracts';
import { FREE_TIER } from '@digicard/domain';
import { recordEvent } from '@digicard/messaging';
import { OnEvent, type EventContext } from '@digicard/server';
import { outbox } from '../db/schema.js';
import { WalletPassEvents } from '../wallet/wallet-pass-events.handler.js';
import { ProfilesRepository } from './profiles.repository.js';
import { AccountFactsRepository } from './account-facts.repository.js';

/**
 * Keeps profiles in step with accounts: a registered account gets its profile document with the product's
 * defaults; a verified one is marked so (an unverified profile is not shared publicly); a deleted one is forgotten.
 */
@Injectable()
export class AccountEvents {
  constructor(
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(AccountFactsRepository) private readonly facts: AccountFactsRepository,
    @Inject(WalletPassEvents) private readonly walletPasses: WalletPassEvents,
  ) {}

  @OnEvent(Events.userRegistered)
  async registered(data: UserRegistered, { tx }: EventContext): Promise<void> {
    // Identity's other events may have come first (each subject has its own consumer): a deleted account gets no
    // profile, a verified one starts verified, a tier paid for already is kept.
    await this.profiles.lockAccount(tx, data.accountId);
    const facts = await this.facts.accountFactsOf(tx, data.accountId);
    if (facts?.deletedAt) return;
    const membership = (await this.facts.membershipOf(tx, data.accountId)) ?? FREE_TIER;
    // A team rep whose `teams.member.added` came first: the leader's business and the phone the leader gave.
    const team = facts?.businessAccountId ? { businessAccountId: facts.businessAccountId } : {};
    await this.profiles.insertIfNew(tx, {
      ...team,
      membership,
      isVerified: facts?.verifiedAt != null,
      accountId: data.accountId,
      username: data.username,
      email: data.email,
      firstName: data.firstName,
      lastName: data.lastName,
      // A change of username, email or names that came before the registration (each subject has its own consumer).
      ...(facts?.account ?? {}),
      role: data.role,
      // Deactivated by the team's identity provider before the profile was made (SCIM `active: false`).
      suspendedAt: facts?.suspendedAt ?? null,
      document: {
        ...ProfileDefaults,
        ...(facts?.teamTel ? { tel: facts.teamTel } : {}),
        // The job title the team's identity provider gave before the profile was made (SCIM `title`).
        ...(facts?.teamTitle ? { title: facts.teamTitle } : {}),
      },
    });
  }

  /**
   * A leader changed a rep's username, names or email, or an owner their names or email: the page moves, and the old
   * address's cache goes too. Changes are ordered by `changedAt`: one older than the latest applied is skipped, and
   * one that arrives before the profile exists is kept (account_facts) for `registered` to apply.
   */
  @OnEvent(Events.userChanged)
  async changed(
    data: { accountId: string; username: string; email: string; firstName: string; lastName: string; changedAt: string },
    { tx }: EventContext,
  ): Promise<void> {
    await this.profiles.lockAccount(tx, data.accountId);
    const facts = await this.facts.accountFactsOf(tx, data.accountId);
    const at = new Date(data.changedAt);
    if (facts?.deletedAt || (facts?.accountChangedAt && facts.accountChangedAt >= at)) return;
    const account = { username: data.username, email: data.email, firstName: data.firstName, lastName: data.lastName };
    await this.facts.recordAccountFact(tx, data.accountId, { accountChangedAt: at, account });
    const before = await this.profiles.byAccount(tx, data.accountId);
    if (!before) return;
    const after = await this.profiles.update(tx, data.accountId, account);
    if (!after) return;
    if (before.username !== after.username)
      await recordEvent(tx, outbox, Events.profileDeleted, { accountId: after.accountId, username: before.username });
    await recordEvent(tx, outbox, Events.profileUpdated, {
      accountId: after.accountId,
      username: after.username,
      updatedAt: after.updatedAt.toISOString(),
    });
  }

  @OnEvent(Events.userVerified)
  async verified(data: { accountId: string; verifiedAt: string }, { tx }: EventContext): Promise<void> {
    await this.profiles.lockAccount(tx, data.accountId);
    await this.facts.recordAccountFact(tx, data.accountId, { verifiedAt: new Date(data.verifiedAt) });
    await this.profiles.markVerified(tx, data.accountId, new Date(data.verifiedAt));
  }

  /**
   * The owner asked to be forgotten (POPIA): the profile, its images, leads, views and paths go, and their Apple Wallet
   * passes are voided (their devices told).
   */
  @OnEvent(Events.userDeleted)
  async deleted(data: { accountId: string; deletedAt: string }, { tx, afterCommit }: EventContext): Promise<void> {
    // Kept after everything else goes, so a registration event that arrives late creates nothing.
    await this.profiles.lockAccount(tx, data.accountId);
    // The names and email a change left here go too.
    await this.facts.recordAccountFact(tx, data.accountId, { deletedAt: new Date(data.deletedAt), account: null });
    const username = await this.profiles.deleteAll(tx, data.accountId);
    await this.walletPasses.voidPassesOf(tx, data.accountId, afterCommit);
    // Gateways drop the cached page at once.
    if (username) await recordEvent(tx, outbox, Events.profileDeleted, { accountId: data.accountId, username });
  }
}
