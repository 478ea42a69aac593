import { Module, type DynamicModule } from '@nestjs/common';
import { IdentityClient } from './identity.client.js';
import { LeaderTier } from './leader-tier.js';
import { MembersRepository } from './members.repository.js';
import { TeamController } from './team.controller.js';
import { TeamQueries } from './team-queries.js';
import { PendingRepsSweeper } from './workers/pending-reps.sweeper.js';
import { AddReps } from './use-cases/add-reps.use-case.js';
import { CompleteRepAdditions } from './use-cases/complete-rep-additions.use-case.js';
import { RemoveRep } from './use-cases/remove-rep.use-case.js';
import { UpdateRep } from './use-cases/update-rep.use-case.js';

@Module({})
export class TeamModule {
  static register(): DynamicModule {
    return {
      module: TeamModule,
      controllers: [TeamController],
      providers: [
        IdentityClient,
        LeaderTier,
        MembersRepository,
        TeamQueries,
        AddReps,
        CompleteRepAdditions,
        PendingRepsSweeper,
        UpdateRep,
        RemoveRep,
      ],
      // SCIM provisioning adds, changes and removes reps exactly as the Teams section does.
      exports: [IdentityClient, LeaderTier, MembersRepository, AddReps, UpdateRep, RemoveRep],
    };
  }
}
