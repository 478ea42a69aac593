import { migrationsFolderOf } from '@digicard/db';
import type { ServiceDefinition } from '@digicard/server';
import { ConfigSchema, type Config } from './config.js';
import { outbox, processedMessages } from './db/schema.js';
import { ScimModule } from './scim/scim.module.js';
import { SsoModule } from './sso/sso.module.js';
import { TeamModule } from './team/team.module.js';

/** The teams service, as its process and its in-process tests start it. */
export const teamsService: ServiceDefinition<Config> = {
  service: 'teams',
  configSchema: ConfigSchema,
  migrationsFolder: migrationsFolderOf(import.meta.url),
  outbox,
  processedMessages,
  imports: () => [TeamModule.register(), SsoModule.register(), ScimModule.register()],
};
