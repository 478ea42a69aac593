import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { PaymentsAccountData } from './account-data-queries.js';
import { Clock } from './clock.js';
import { ItnProcessor } from './workers/itn.processor.js';
import { ItnPurge } from './workers/itn-purge.js';
import { LapseJob } from './workers/lapse.job.js';
import { PayFastClient } from './clients/payfast.client.js';
import { PaymentsController } from './payments.controller.js';
import { PaymentsQueries } from './payments-queries.js';
import { ItnsRepository } from './itns.repository.js';
import { PaymentRequestsRepository } from './payment-requests.repository.js';
import { PaymentsRepository } from './payments.repository.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { Peers } from './clients/peers.js';
import { Sweeper } from './workers/sweeper.js';
import { CancelMembership } from './use-cases/cancel-membership.use-case.js';
import { ChangeMembership } from './use-cases/change-membership.use-case.js';
import { GetBilling } from './use-cases/get-billing.use-case.js';
import { ListPlans } from './use-cases/list-plans.use-case.js';
import { ReceiveItn } from './use-cases/receive-itn.use-case.js';
import { StartMembership } from './use-cases/start-membership.use-case.js';
import { PayOrderOnce } from './use-cases/pay-order-once.use-case.js';
import { StartOrderPayment } from './use-cases/start-order-payment.use-case.js';
import { StartSpecialPayment } from './use-cases/start-special-payment.use-case.js';

@Module({})
export class PaymentsModule {
  static register(ctx: ServiceContext<Config>, clock: Clock): DynamicModule {
    return {
      module: PaymentsModule,
      controllers: [PaymentsController],
      providers: [
        { provide: Clock, useValue: clock },
        Peers,
        PaymentsAccountData,
        PaymentsQueries,
        PaymentRequestsRepository,
        ItnsRepository,
        PaymentsRepository,
        SubscriptionsRepository,
        PayFastClient,
        ItnProcessor,
        LapseJob,
        ItnPurge,
        Sweeper,
        ListPlans,
        PayOrderOnce,
        StartOrderPayment,
        StartSpecialPayment,
        StartMembership,
        CancelMembership,
        ChangeMembership,
        GetBilling,
        ReceiveItn,
      ],
    };
  }
}
