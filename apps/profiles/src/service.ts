import { migrationsFolderOf, type ServiceDefinition } from '@digicard/server';
import { ConfigSchema, type Config } from './config.js';
import { outbox, processedMessages } from './db/schema.js';
import { ProfilesModule } from './profiles/profiles.module.js';
import { StaffModule } from './staff/staff.module.js';

/** The profiles service, as its process and its in-process tests start it. */
export const profilesService: ServiceDefinition<Config> = {
  service: 'profiles',
  configSchema: ConfigSchema,
  migrationsFolder: migrationsFolderOf(import.meta.url),
  outbox,
  processedMessages,
  imports: () => [ProfilesModule, StaffModule],
};
