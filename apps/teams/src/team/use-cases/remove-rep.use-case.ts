import { Inject, Injectable } from '@nestjs/common';
import { Events, TeamMessages } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError, type SignedInMeta } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { IdentityClient } from '../identity.client.js';
import { MembersRepository } from '../members.repository.js';
import { LeaderTier } from '../leader-tier.js';

/**
 * A leader removes one of their reps: identity disables the account first (no more sign-in; the username is held
 * for the grace period), then the link is marked removed with `teams.member.removed`, on which profiles moves the
 * rep's leads to the leader and takes the page down.
 */
@Injectable()
export class RemoveRep {
  constructor(
    @Inject(LeaderTier) private readonly tier: LeaderTier,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(IdentityClient) private readonly identity: IdentityClient,
    @Inject(MembersRepository) private readonly members: MembersRepository,
  ) {}

  async execute(memberId: string, meta: SignedInMeta): Promise<{ removed: true }> {
    await this.tier.assertPlatinum(meta);
    const current = await this.members.repOf(this.db, meta.userId, memberId);
    if (!current) throw ServiceError.notFound(TeamMessages.noSuchRep);
    await this.identity.disableRepAccount(memberId, meta);
    const now = new Date();
    await this.db.transaction(async (tx) => {
      const removed = await this.members.markRemoved(tx, memberId, now);
      if (removed) {
        await recordEvent(tx, outbox, Events.teamMemberRemoved, {
          leaderAccountId: removed.leaderAccountId,
          memberAccountId: removed.memberAccountId,
          username: removed.username,
          removedAt: now.toISOString(),
        });
      }
    });
    this.relay?.kick();
    return { removed: true };
  }
}
