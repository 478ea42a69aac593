import { fileURLToPath } from 'node:url';
import { bootstrapService } from '@digicard/server';
import { ConfigSchema } from './config.js';
import { outbox } from './db/schema.js';
import { CatalogueModule } from './catalogue/catalogue.module.js';
import { EnquiriesModule } from './enquiries/enquiries.module.js';

await bootstrapService({
  service: 'orders',
  configSchema: ConfigSchema,
  migrationsFolder: fileURLToPath(new URL('../../drizzle', import.meta.url)),
  outbox,
  imports: () => [EnquiriesModule, CatalogueModule],
});
