import { Inject, Injectable } from '@nestjs/common';
import type { PageRequest, Team } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, pageStart, toPage, type SignedInMeta } from '@digicard/server';
import { LeaderTier } from './leader-tier.js';
import { MembersRepository } from './members.repository.js';
import { toRep } from './team.mapping.js';

/** What the teams service answers without changing anything. */
@Injectable()
export class TeamQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(MembersRepository) private readonly members: MembersRepository,
    @Inject(LeaderTier) private readonly tier: LeaderTier,
  ) {}

  /** A page of the leader's own reps only: the leader is who signed in, never a body field. */
  async team(meta: SignedInMeta, request: PageRequest): Promise<Team> {
    await this.tier.assertPlatinum(meta);
    const rows = await this.members.teamPage(this.db, meta.userId, pageStart(request), request.limit);
    const { items, nextCursor } = await toPage(
      rows.map((row) => ({ ...row, id: row.username })),
      request.limit,
      (page) => page.map(toRep),
    );
    return { reps: items, nextCursor };
  }

  /**
   * What teams holds about the signed-in account (POPIA): its own place in a team (the fields its leader keeps about
   * it, and when it joined or left) and, for a leader, how many reps it leads; never the reps' own details, which are
   * theirs.
   */
  async accountData(accountId: string): Promise<Record<string, unknown>> {
    const [member, reps] = await Promise.all([this.members.asMember(this.db, accountId), this.members.repCounts(this.db, accountId)]);
    return {
      membership: member
        ? {
            leaderAccountId: member.leaderAccountId,
            username: member.username,
            firstName: member.firstName,
            lastName: member.lastName,
            email: member.email,
            tel: member.tel,
            addedAt: member.addedAt.toISOString(),
            updatedAt: member.updatedAt.toISOString(),
            removedAt: member.removedAt?.toISOString() ?? null,
          }
        : null,
      leaderOf: reps.ever > 0 ? { currentReps: reps.current, repsEver: reps.ever } : null,
    };
  }
}
