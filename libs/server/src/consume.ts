import type { z } from 'zod';
import { deadLetterStreamFor, streamFor, type EventDefinition } from '@digicard/contracts';
import { durableName, handleOnce, startEventConsumer, type ProcessedMessagesTable, type RunningConsumer, type Transaction } from '@digicard/messaging';
import type { ServiceContext } from './context.js';

/**
 * The usual way a service reacts to another's event: a durable consumer named after this service and the event,
 * and the work done once per event id, in one transaction with the record of it (`processed`, the service's own
 * table). A redelivered event is logged and skipped. The consumer stops with the service.
 */
export async function consumeEventOnce<C, T extends z.ZodType>(
  ctx: ServiceContext<C>,
  processed: ProcessedMessagesTable,
  event: EventDefinition<T>,
  work: (tx: Transaction, data: z.output<T>, eventId: string) => Promise<void>,
): Promise<RunningConsumer> {
  const durable = durableName(ctx.service, event.subject);
  const consumer = await startEventConsumer(
    ctx.js,
    ctx.jsm,
    {
      stream: streamFor(event.owner).name,
      durable,
      event,
      deadLetterSubject: deadLetterStreamFor(ctx.service).subjectFor(event.subject),
      handle: async ({ id, data }) => {
        const first = await handleOnce(ctx.db, processed, durable, id, (tx) => work(tx, data, id));
        if (!first) ctx.logger.info({ eventId: id, subject: event.subject }, 'duplicate event skipped');
        // The work may have recorded events of its own: relay them now rather than at the next tick.
        else ctx.relay?.kick();
      },
    },
    ctx.logger,
  );
  ctx.onShutdown(() => consumer.stop());
  return consumer;
}
