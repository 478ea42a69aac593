import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { CrmController } from './crm.controller.js';
import { CrmHandoff } from './crm-handoff.js';
import { CrmWebhookQueue } from './crm-webhook.producer.js';
import { ProfilesClient } from './profiles.client.js';
import { RotateWebhookSecret } from './use-cases/rotate-webhook-secret.use-case.js';
import { SaveWebhook } from './use-cases/save-webhook.use-case.js';
import { SendTestWebhook } from './use-cases/send-test-webhook.use-case.js';
import { WebhookQueries } from './webhook-queries.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/** CRM hand-off: the owner's webhook, its delivery log, and the hand-off of each new lead (the `crm-webhook` queue). */
@Module({})
export class CrmModule {
  static register(ctx: ServiceContext<Config>, queue: CrmWebhookQueue): DynamicModule {
    return {
      module: CrmModule,
      controllers: [CrmController],
      providers: [
        { provide: CrmWebhookQueue, useValue: queue },
        ProfilesClient,
        WebhookEndpointsRepository,
        WebhookDeliveriesRepository,
        WebhookQueries,
        SaveWebhook,
        RotateWebhookSecret,
        SendTestWebhook,
        CrmHandoff,
      ],
      exports: [CrmHandoff],
    };
  }
}
