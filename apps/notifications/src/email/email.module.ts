import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { CrmModule } from '../crm/crm.module.js';
import type { CrmWebhookQueue } from '../crm/crm-webhook.producer.js';
import { AccountDeleted } from './account-deleted.handler.js';
import { AccountEmails } from './account-emails.handler.js';
import { AccountLookup } from './account-lookup.js';
import { EmailQueue } from './email.producer.js';
import { LeadEmails } from './lead-emails.handler.js';
import { MailLogQueries } from './mail-log-queries.js';
import { MailLogController } from './mail-log.controller.js';
import { MailLogRepository } from './mail-log.repository.js';
import { MembershipEmails } from './membership-emails.handler.js';
import { OrderEmails } from './order-emails.handler.js';

/** The events that fill the `email` queue (opened, with its worker, by the service definition). */
@Module({})
export class EmailModule {
  static register(ctx: ServiceContext<Config>, queue: EmailQueue, crmQueue: CrmWebhookQueue): DynamicModule {
    return {
      module: EmailModule,
      // A new lead is emailed to its owner and handed to their CRM by the same consumer (one per event).
      imports: [CrmModule.register(ctx, crmQueue)],
      controllers: [MailLogController],
      providers: [
        MailLogRepository,
        MailLogQueries,
        AccountDeleted,
        { provide: EmailQueue, useValue: queue },
        AccountLookup,
        // Every event that sends an email, by what the email is about.
        AccountEmails,
        LeadEmails,
        OrderEmails,
        MembershipEmails,
      ],
    };
  }
}
