import { migrationsFolderOf, type ServiceDefinition } from '@digicard/server';
import { CatalogueModule } from './catalogue/catalogue.module.js';
import { ConfigSchema, type Config } from './config.js';
import { outbox, processedMessages } from './db/schema.js';
import { EnquiriesModule } from './enquiries/enquiries.module.js';
import { OrdersModule } from './orders/orders.module.js';

/** The orders service, as its process and its in-process tests start it. */
export const ordersService: ServiceDefinition<Config> = {
  service: 'orders',
  configSchema: ConfigSchema,
  migrationsFolder: migrationsFolderOf(import.meta.url),
  outbox,
  processedMessages,
  imports: () => [EnquiriesModule, CatalogueModule, OrdersModule],
};
