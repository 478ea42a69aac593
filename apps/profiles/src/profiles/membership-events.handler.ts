import { Inject, Injectable } from '@nestjs/common';
import { Events, type MembershipChanged } from '@digicard/contracts';
import { recordEvent } from '@digicard/messaging';
import { OnEvent, type EventContext } from '@digicard/server';
import { outbox } from '../db/schema.js';
import { announceMembers } from './profile-writer.js';
import { ProfilesRepository } from './profiles.repository.js';
import { AccountFactsRepository } from './account-facts.repository.js';

/**
 * The tier is the payments service's to decide; profiles keeps it as a projection, because every page and every
 * gate reads it. Content above a lower tier is hidden from then on, never deleted (libs/domain `visibleContent`).
 */
@Injectable()
export class MembershipEvents {
  constructor(
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(AccountFactsRepository) private readonly facts: AccountFactsRepository,
  ) {}

  @OnEvent(Events.membershipChanged)
  async changed(data: MembershipChanged, { tx }: EventContext): Promise<void> {
    const newer = await this.facts.recordMembership(tx, {
      accountId: data.accountId,
      membership: data.membership,
      paidUntil: data.paidUntil ? new Date(data.paidUntil) : null,
      version: data.version,
      changedAt: new Date(data.changedAt),
    });
    if (!newer) return;
    const profile = await this.profiles.applyMembership(tx, data.accountId, data.membership);
    // Gateways drop the cached page: what it shows depends on the tier.
    if (profile) {
      await recordEvent(tx, outbox, Events.profileUpdated, {
        accountId: profile.accountId,
        username: profile.username,
        updatedAt: profile.updatedAt.toISOString(),
      });
      // A leader's reps share the leader's tier: their pages change too.
      await announceMembers(this.profiles, tx, profile.accountId, profile.updatedAt);
    }
  }
}
