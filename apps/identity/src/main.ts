import { fileURLToPath } from 'node:url';
import { bootstrapService } from '@digicard/server';
import { ConfigSchema } from './config.js';
import { AccountsModule } from './accounts/accounts.module.js';
import { outbox } from './db/schema.js';

await bootstrapService({
  service: 'identity',
  configSchema: ConfigSchema,
  migrationsFolder: fileURLToPath(new URL('../../drizzle', import.meta.url)),
  outbox,
  imports: () => [AccountsModule],
});
