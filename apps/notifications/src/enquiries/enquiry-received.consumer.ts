import { Events, streamFor } from '@digicard/contracts';
import { durableName, handleOnce, startEventConsumer, type RunningConsumer } from '@digicard/messaging';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { processedMessages } from '../db/schema.js';
import type { EmailQueue } from '../email/email.queue.js';

/** Each enquiry becomes one email to the sales inbox, however often its event is delivered. */
export async function startEnquiryReceivedConsumer(ctx: ServiceContext<Config>, emails: EmailQueue): Promise<RunningConsumer> {
  const event = Events.enquiryReceived;
  const durable = durableName('notifications', event.subject);
  return startEventConsumer(
    ctx.js,
    ctx.jsm,
    {
      stream: streamFor(event.owner).name,
      durable,
      event,
      handle: async (envelope) => {
        const first = await handleOnce(ctx.db, processedMessages, durable, envelope.id, async () => {
          await emails.enqueue({ template: 'enquiry-received', sourceEventId: envelope.id, enquiry: envelope.data });
        });
        if (!first) ctx.logger.info({ eventId: envelope.id }, 'duplicate enquiry event skipped');
      },
    },
    ctx.logger,
  );
}
