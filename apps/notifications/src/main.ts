import { fileURLToPath } from 'node:url';
import { ensureEventStream } from '@digicard/messaging';
import { bootstrapService } from '@digicard/server';
import { ConfigSchema, type Config } from './config.js';
import { outbox } from './db/schema.js';
import { openEmailQueue, type EmailQueue } from './email/email.queue.js';
import { startEnquiryReceivedConsumer } from './enquiries/enquiry-received.consumer.js';

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
    // The streams of the services we listen to; creating them here makes start-up order irrelevant.
    await ensureEventStream(ctx.jsm, 'orders', ctx.config.JETSTREAM_REPLICAS);
    const consumer = await startEnquiryReceivedConsumer(ctx, emails.queue);
    ctx.onShutdown(() => consumer.stop());
  },
});
