import { fileURLToPath } from 'node:url';
import { ensureEventStream } from '@digicard/messaging';
import { bootstrapService, createNatsClient, RpcClient } from '@digicard/server';
import { ConfigSchema, type Config } from './config.js';
import { outbox } from './db/schema.js';
import { startEmailTriggers, triggeringStreams } from './email/email-triggers.js';
import { openEmailQueue, type EmailQueue } from './email/email.queue.js';

let emails: { queue: EmailQueue; start(): unknown } | null = null;

await bootstrapService<Config>({
  service: 'notifications',
  configSchema: ConfigSchema,
  migrationsFolder: fileURLToPath(new URL('../../drizzle', import.meta.url)),
  outbox,
  imports: (ctx) => {
    emails = openEmailQueue(ctx);
    return [];
  },
  afterStart: async (_app, ctx) => {
    if (!emails) throw new Error('email queue not opened');
    emails.start();
    const proxy = createNatsClient(ctx.config.NATS_URL, 'notifications-client');
    await proxy.connect();
    ctx.onShutdown(async () => {
      await (proxy.close() as Promise<void>);
    });
    // The streams of the services we listen to; creating them here makes start-up order irrelevant.
    for (const owner of triggeringStreams()) await ensureEventStream(ctx.jsm, owner, ctx.config.JETSTREAM_REPLICAS);
    await startEmailTriggers(ctx, emails.queue, new RpcClient(proxy, 5000));
  },
});
