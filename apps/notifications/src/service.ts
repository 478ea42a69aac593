import { migrationsFolderOf } from '@digicard/db';
import type { ServiceDefinition } from '@digicard/server';
import { ConfigSchema, type Config } from './config.js';
import { outbox, processedMessages } from './db/schema.js';
import { EmailModule } from './email/email.module.js';
import { openEmailQueue } from './email/email.worker.js';
import { openCrmWebhookQueue } from './crm/crm-webhook.worker.js';

/** The notifications service, as its process and its in-process tests start it. */
export function notificationsService(): ServiceDefinition<Config> {
  let emails: ReturnType<typeof openEmailQueue> | null = null;
  let crm: ReturnType<typeof openCrmWebhookQueue> | null = null;
  return {
    service: 'notifications',
    configSchema: ConfigSchema,
    migrationsFolder: migrationsFolderOf(import.meta.url),
    outbox,
    processedMessages,
    imports: (ctx) => {
      emails = openEmailQueue(ctx);
      crm = openCrmWebhookQueue(ctx);
      return [EmailModule.register(ctx, emails.queue, crm.queue)];
    },
    afterStart: () => {
      // The worker sends once the service is up; the queue takes jobs from the start.
      emails?.start();
      crm?.start();
      return Promise.resolve();
    },
  };
}
