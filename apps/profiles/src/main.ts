import { fileURLToPath } from 'node:url';
import { ensureEventStream } from '@digicard/messaging';
import { bootstrapService } from '@digicard/server';
import { ConfigSchema, type Config } from './config.js';
import { outbox } from './db/schema.js';
import { startAccountEventConsumers } from './profiles/account-events.consumer.js';
import { ProfilesModule } from './profiles/profiles.module.js';

await bootstrapService<Config>({
  service: 'profiles',
  configSchema: ConfigSchema,
  migrationsFolder: fileURLToPath(new URL('../../drizzle', import.meta.url)),
  outbox,
  imports: () => [ProfilesModule],
  afterStart: async (_app, ctx) => {
    await ensureEventStream(ctx.jsm, 'identity', ctx.config.JETSTREAM_REPLICAS);
    await startAccountEventConsumers(ctx);
  },
});
