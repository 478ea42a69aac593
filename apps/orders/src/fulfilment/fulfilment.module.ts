import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { OrdersCoreModule } from '../orders/orders-core.module.js';
import { EnquiriesRepository } from '../enquiries/enquiries.repository.js';
import { OrdersAccountData } from './account-data-queries.js';
import { FulfilmentController } from './fulfilment.controller.js';
import { FulfilmentQueries } from './fulfilment-queries.js';
import { OrderStateMachine } from './order-state-machine.js';
import { RoleCheck } from './role-check.js';
import { ProfilesClient } from './profiles-client.js';
import { ProofQueue } from './proof.producer.js';
import { ProofRequeue } from './workers/proof-requeue.worker.js';
import { AssignCard } from './use-cases/assign-card.use-case.js';
import { CancelOrder } from './use-cases/cancel-order.use-case.js';
import { TeamCards } from './handlers/team-cards.handler.js';
import { DecideProof } from './use-cases/decide-proof.use-case.js';
import { MoveOrderByPrintTeam } from './use-cases/move-order.use-case.js';
import { ProofTriggers } from './handlers/proof-triggers.handler.js';
import { RecordCardChip } from './use-cases/record-card.use-case.js';
import { RenderProof } from './use-cases/render-proof.use-case.js';
import { RerenderProof } from './use-cases/rerender-proof.use-case.js';
import { SetCardDisabled } from './use-cases/set-card-disabled.use-case.js';

/** Proofs, order states after payment, cards and the print console (the `proof-render` queue is opened by the service). */
@Module({})
export class FulfilmentModule {
  static register(ctx: ServiceContext<Config>, proofQueue: ProofQueue): DynamicModule {
    return {
      module: FulfilmentModule,
      imports: [OrdersCoreModule],
      controllers: [FulfilmentController],
      providers: [
        { provide: ProofQueue, useValue: proofQueue },
        ProfilesClient,
        RoleCheck,
        FulfilmentQueries,
        EnquiriesRepository,
        OrdersAccountData,
        OrderStateMachine,
        DecideProof,
        CancelOrder,
        MoveOrderByPrintTeam,
        RecordCardChip,
        RerenderProof,
        SetCardDisabled,
        AssignCard,
        TeamCards,
        RenderProof,
        ProofTriggers,
        ProofRequeue,
      ],
    };
  }
}
