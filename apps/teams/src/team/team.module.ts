import { Module, type DynamicModule } from '@nestjs/common';
import { createNatsClient, RpcClient, type ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { IDENTITY_RPC, IdentityClient } from './identity.client.js';
import { LeaderTier, PROFILES_RPC } from './leader-tier.js';
import { MembersRepository } from './members.repository.js';
import { TeamController } from './team.controller.js';
import { TeamQueries } from './team-queries.js';
import { PendingRepsSweeper } from './pending-reps.sweeper.js';
import { AddReps } from './use-cases/add-reps.use-case.js';
import { CompleteRepAdditions } from './use-cases/complete-rep-additions.use-case.js';
import { RemoveRep } from './use-cases/remove-rep.use-case.js';
import { UpdateRep } from './use-cases/update-rep.use-case.js';

@Module({})
export class TeamModule {
  static register(ctx: ServiceContext<Config>): DynamicModule {
    return {
      module: TeamModule,
      controllers: [TeamController],
      providers: [
        {
          provide: IDENTITY_RPC,
          useFactory: async () => {
            const proxy = createNatsClient(ctx.config.NATS_URL, 'teams-client');
            await proxy.connect();
            ctx.onShutdown(async () => {
              await (proxy.close() as Promise<void>);
            });
            return new RpcClient(proxy, 5000);
          },
        },
        // Profiles answers on the same NATS connection (one client, two symbols).
        { provide: PROFILES_RPC, useExisting: IDENTITY_RPC },
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
    };
  }
}
