import { migrationsFolderOf } from '@digicard/db';
import type { ServiceDefinition } from '@digicard/server';
import { AccountsModule } from './accounts/accounts.module.js';
import { ConfigSchema, type Config } from './config.js';
import { outbox, processedMessages } from './db/schema.js';
import { StaffModule } from './staff/staff.module.js';

/** The identity service, as its process and its in-process tests start it. */
export const identityService: ServiceDefinition<Config> = {
  service: 'identity',
  configSchema: ConfigSchema,
  migrationsFolder: migrationsFolderOf(import.meta.url),
  outbox,
  processedMessages,
  imports: () => [AccountsModule, StaffModule],
};
