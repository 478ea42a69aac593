import { Inject, Injectable } from '@nestjs/common';
import type { Team } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, type SignedInMeta } from '@digicard/server';
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

  /** The leader's own reps only: the leader is who signed in, never a body field. */
  async team(meta: SignedInMeta): Promise<Team> {
    await this.tier.assertPlatinum(meta);
    return { reps: (await this.members.teamOf(this.db, meta.userId)).map(toRep) };
  }
}
