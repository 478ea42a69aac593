import { AckPolicy, DeliverPolicy, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { ConsumerMessages } from '@nats-io/jetstream';
import { EventEnvelopeSchema, type EventDefinition, type EventEnvelope } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { z } from 'zod';
import { isNotFound, nanos } from './nats.js';
import type { Transaction } from './outbox.js';
import type { ProcessedMessagesTable } from './tables.js';

interface LoggerLike {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A message that can never succeed (bad payload): it is terminated rather than retried for ever. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}

export interface EventConsumerSpec<T extends z.ZodType> {
  stream: string;
  /** Durable name, unique per consuming service and event: `<service>--<subject with dashes>`. */
  durable: string;
  event: EventDefinition<T>;
  handle(envelope: EventEnvelope<z.output<T>>, msg: JsMsg): Promise<void>;
}

export const durableName = (service: string, subject: string): string => `${service}--${subject.replaceAll('.', '-')}`;

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * Pulls one event type from its stream with a durable consumer: events published while this service was down are
 * delivered when it comes back. Success acks; a transient failure naks with a growing delay; a permanent one
 * terminates the message and logs it.
 */
export async function startEventConsumer<T extends z.ZodType>(
  js: JetStreamClient,
  jsm: JetStreamManager,
  spec: EventConsumerSpec<T>,
  logger: LoggerLike,
): Promise<RunningConsumer> {
  const config = {
    durable_name: spec.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: spec.event.subject,
    ack_wait: nanos(30_000),
    max_ack_pending: 100,
  };
  try {
    await jsm.consumers.info(spec.stream, spec.durable);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.consumers.add(spec.stream, config);
  }
  const consumer = await js.consumers.get(spec.stream, spec.durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 50 });
  const loop = (async () => {
    for await (const msg of messages) {
      await handleMessage(msg, spec, logger);
    }
  })();
  return {
    async stop() {
      await messages.close();
      await loop.catch(() => undefined);
    },
  };
}

async function handleMessage<T extends z.ZodType>(msg: JsMsg, spec: EventConsumerSpec<T>, logger: LoggerLike): Promise<void> {
  const context = { durable: spec.durable, subject: msg.subject, seq: msg.seq, deliveries: msg.info.deliveryCount };
  try {
    const envelope = EventEnvelopeSchema.parse(msg.json());
    const data = spec.event.data.safeParse(envelope.data);
    if (!data.success) throw new PermanentFailure(`event ${envelope.id} does not match ${spec.event.subject}`);
    await spec.handle({ ...envelope, data: data.data }, msg);
    msg.ack();
  } catch (error) {
    if (error instanceof PermanentFailure || (error as Error)?.name === 'ZodError' || error instanceof SyntaxError) {
      logger.error({ ...context, err: error }, 'event cannot be handled; terminated');
      msg.term(String((error as Error).message));
      return;
    }
    const delay = Math.min(60_000, 1000 * 2 ** Math.min(msg.info.deliveryCount - 1, 6));
    logger.warn({ ...context, err: error, retryInMs: delay }, 'event handling failed; will be redelivered');
    msg.nak(delay);
  }
}

/**
 * Runs `work` once per message id and consumer: the id is recorded in the same transaction as the work, so a
 * redelivered event is recognised and skipped. Returns false when it had already been handled.
 */
export async function handleOnce(
  db: Database,
  processed: ProcessedMessagesTable,
  consumer: string,
  messageId: string,
  work: (tx: Transaction) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(processed)
      .values({ consumer, messageId })
      .onConflictDoNothing()
      .returning({ id: processed.messageId });
    if (inserted.length === 0) return false;
    await work(tx);
    return true;
  });
}
