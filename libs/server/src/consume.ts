import type { z } from 'zod';
import { deadLetterStreamFor, streamFor, type EventDefinition } from '@digicard/contracts';
import { and, eq } from 'drizzle-orm';
import {
  durableName,
  handleOnce,
  startEventConsumer,
  type ProcessedMessagesTable,
  type RunningConsumer,
  type Transaction,
} from '@digicard/messaging';
import type { ServiceContext } from './context.js';
import { insideTransaction } from './queue-producer.js';

/**
 * The usual way a service reacts to another's event: a durable consumer named after this service and the event,
 * and the work done once per event id, in one transaction with the record of it (`processed`, the service's own
 * table). A redelivered event is logged and skipped. The consumer stops with the service.
 *
 * The work may register tasks to run once its transaction has committed (`afterCommit`: queueing jobs). When one
 * fails, the record of the event is deleted again and the event is redelivered, so it is handled again as a whole.
 */
export async function consumeEventOnce<C, T extends z.ZodType>(
  ctx: ServiceContext<C>,
  processed: ProcessedMessagesTable,
  event: EventDefinition<T>,
  work: (tx: Transaction, data: z.output<T>, eventId: string, afterCommit: (task: () => Promise<void>) => void) => Promise<void>,
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
        const tasks: Array<() => Promise<void>> = [];
        const first = await handleOnce(ctx.db, processed, durable, id, (tx) =>
          insideTransaction(`handling ${event.subject}`, () => work(tx, data, id, (task) => tasks.push(task))),
        );
        if (!first) {
          ctx.logger.info({ eventId: id, subject: event.subject }, 'duplicate event skipped');
          return;
        }
        // The work may have recorded events of its own: relay them now rather than at the next tick.
        ctx.relay?.kick();
        try {
          for (const task of tasks) await task();
        } catch (error) {
          // Not done after all: forget the event was handled, so its redelivery runs the handler again.
          await ctx.db
            .delete(processed)
            .where(and(eq(processed.consumer, durable), eq(processed.messageId, id)))
            .catch((forgetError: unknown) =>
              ctx.logger.error(
                { eventId: id, subject: event.subject, err: forgetError },
                'could not take back the record of an event whose follow-up failed',
              ),
            );
          throw error;
        }
      },
    },
    ctx.logger,
  );
  ctx.onShutdown(() => consumer.stop());
  return consumer;
}
