import { migrationsFolderOf } from '@digicard/db';
import type { ServiceDefinition } from '@digicard/server';
import { ConfigSchema, type Config } from './config.js';
import { outbox, processedMessages } from './db/schema.js';
import { SystemClock, type Clock } from './payments/clock.js';
import { PaymentsModule } from './payments/payments.module.js';

/** The payments service with a given clock (the tests move theirs). */
export function paymentsServiceWith(clock: Clock = new SystemClock()): ServiceDefinition<Config> {
  return {
    service: 'payments',
    configSchema: ConfigSchema,
    migrationsFolder: migrationsFolderOf(import.meta.url),
    outbox,
    processedMessages,
    imports: (ctx) => [PaymentsModule.register(ctx, clock)],
  };
}

/** The payments service, as its process starts it. */
export const paymentsService = paymentsServiceWith();
