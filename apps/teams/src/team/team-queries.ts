import { Inject, Injectable } from '@nestjs/common';
import type { Team } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { MembersRepository } from './members.repository.js';
import { toRep } from './team.mapping.js';

/** What the teams service answers without changing anything. */
@Injectable()
export class TeamQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(MembersRepository) private readonly members: MembersRepository,
  ) {}

  /** The leader's own reps only: the leader is who signed in, never a body field. */
  async team(leaderId: string): Promise<Team> {
    return { reps: (await this.members.teamOf(this.db, leaderId)).map(toRep) };
  }
}
