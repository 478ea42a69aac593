import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { CrmModule } from '../crm/crm.module.js';
import type { CrmWebhookQueue } from '../crm/crm-webhook.queue.js';
import { EmailTriggers } from './email-triggers.js';
import { EmailQueue } from './email.queue.js';
import { AccountDeleted, MailLogController, MailLogQueries, MailLogRepository } from './mail-log.js';

/** The events that fill the `email` queue (opened, with its worker, by the service definition). */
@Module({})
export class EmailModule {
  static register(ctx: ServiceContext<Config>, queue: EmailQueue, crmQueue: CrmWebhookQueue): DynamicModule {
    return {
      module: EmailModule,
      // A new lead is emailed to its owner and handed to their CRM by the same consumer (one per event).
      imports: [CrmModule.register(ctx, crmQueue)],
      controllers: [MailLogController],
      providers: [MailLogRepository, MailLogQueries, AccountDeleted, { provide: EmailQueue, useValue: queue }, EmailTriggers],
    };
  }
}
