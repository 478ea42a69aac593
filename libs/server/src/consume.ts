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
import { consumerAckPending, consumerPending, consumerRedelivered, eventsHandled, unregister } from './metrics.js';

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
  const stream = streamFor(event.owner).name;
  const consumer = await startEventConsumer(
    ctx.js,
    ctx.jsm,
    {
      stream,
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
          eventsHandled.inc({ durable, outcome: 'duplicate' });
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
          eventsHandled.inc({ durable, outcome: 'failed' });
          throw error;
        }
        eventsHandled.inc({ durable, outcome: 'ok' });
      },
    },
    ctx.logger,
  );
  // The consumer's lag and redeliveries, as JetStream counts them, read at each scrape (one info call for the three).
  const labels = { stream, durable };
  let info: { at: number; value: Promise<{ num_pending: number; num_ack_pending: number; num_redelivered: number }> } | null = null;
  const read = () => {
    if (!info || Date.now() - info.at > 1000) info = { at: Date.now(), value: ctx.jsm.consumers.info(stream, durable) };
    return info.value;
  };
  for (const [gauge, field] of [
    [consumerPending, 'num_pending'],
    [consumerAckPending, 'num_ack_pending'],
    [consumerRedelivered, 'num_redelivered'],
  ] as const) {
    ctx.onShutdown(unregister(gauge.add(async (set) => set(labels, (await read())[field]))));
  }
  ctx.onShutdown(() => consumer.stop());
  return consumer;
}
