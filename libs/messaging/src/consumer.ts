import { AckPolicy, DeliverPolicy, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { ConsumerMessages } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { contextFrom, SpanKind, withSpan } from '@digicard/config';
import { EventEnvelopeSchema, type EventDefinition, type EventEnvelope } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { z } from 'zod';
import { retry } from '@digicard/config';
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
  /**
   * Where an event goes when it cannot be handled (a bad payload at once, a failing one after `maxDeliver`
   * deliveries): the consuming service's dead-letter subject for it (`deadLetterStreamFor(service).subjectFor`).
   */
  deadLetterSubject: string;
  /** Deliveries before an event is given up on and dead-lettered; 12 by default (about 8 minutes of retries). */
  maxDeliver?: number;
  /** The longest delay between two deliveries of a failing event; 60 s by default. */
  maxBackoffMs?: number;
  /**
   * A consumer created now starts this far back in the stream, not at its beginning: a new consumer (a new
   * service, a new handler) handles the events of a start-up race or a rolling deploy, and does not replay 30
   * days of history into emails. An existing durable consumer carries on where it was. One hour by default.
   */
  newConsumerCatchUpMs?: number;
  /** While the owner has not declared its stream yet: how often to look again (250 ms, growing to 5 s). */
  streamWaitMs?: number;
}

export { durableName } from '@digicard/contracts';

export interface RunningConsumer {
  stop(): Promise<void>;
  /** Resolves once the consumer is attached to its stream (the owner may declare the stream after we start). */
  readonly attached: Promise<void>;
}

export const DEFAULT_MAX_DELIVER = 12;

/** The owner has not declared the stream yet: look again later. */
class StreamNotDeclared extends Error {}

/**
 * Pulls one event type from its stream with a durable consumer: events published while this service was down are
 * delivered when it comes back. Success acks; a transient failure naks with a growing delay; an event that cannot
 * succeed (bad payload), or still fails after `maxDeliver` deliveries, is copied to the service's dead-letter stream,
 * terminated and logged as an error for an operator. The consumer never declares the stream (its owner does): until
 * the stream exists it waits in the background, and start-up goes on.
 */
export async function startEventConsumer<T extends z.ZodType>(
  js: JetStreamClient,
  jsm: JetStreamManager,
  spec: EventConsumerSpec<T>,
  logger: LoggerLike,
): Promise<RunningConsumer> {
  const maxDeliver = spec.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const stopping = new AbortController();
  let messages: ConsumerMessages | null = null;
  let loop: Promise<void> = Promise.resolve();

  const attach = async (): Promise<boolean> => {
    try {
      await jsm.streams.info(spec.stream);
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
    await ensureConsumer(jsm, spec, maxDeliver, logger);
    const consumer = await js.consumers.get(spec.stream, spec.durable);
    messages = await consumer.consume({ max_messages: 50 });
    const running = messages;
    loop = (async () => {
      for await (const msg of running) {
        await handleMessage(msg, spec, maxDeliver, js, logger);
      }
    })();
    return true;
  };

  const retryInBackground = async (): Promise<void> => {
    const firstWait = spec.streamWaitMs ?? 250;
    logger.info({ durable: spec.durable, stream: spec.stream }, 'waiting for the owner to declare its stream');
    await retry(
      async () => {
        if (!(await attach())) throw new StreamNotDeclared();
      },
      {
        signal: stopping.signal,
        delayMs: (attempt) => Math.min(5000, firstWait * 2 ** (attempt - 1)),
        onRetry: (error) => {
          if (!(error instanceof StreamNotDeclared))
            logger.warn({ durable: spec.durable, stream: spec.stream, err: error }, 'could not attach the consumer; will retry');
        },
      },
    ).catch((error: unknown) => {
      // Stopped before the owner declared its stream: nothing to attach any more.
      if (!stopping.signal.aborted) throw error;
    });
  };
  // Attached before start-up goes on when the stream is there; otherwise in the background, once its owner declares it.
  const attached = (await attach()) ? Promise.resolve() : retryInBackground();
  return {
    attached,
    async stop() {
      stopping.abort();
      await attached.catch(() => undefined);
      await messages?.close();
      await loop.catch(() => undefined);
    },
  };
}

async function ensureConsumer<T extends z.ZodType>(
  jsm: JetStreamManager,
  spec: EventConsumerSpec<T>,
  maxDeliver: number,
  logger: LoggerLike,
): Promise<void> {
  // A few deliveries more than the handler's own limit: should dead-lettering itself fail (NATS away), the event
  // is still delivered again rather than dropped by the server.
  const serverMaxDeliver = maxDeliver + 3;
  try {
    const info = await jsm.consumers.info(spec.stream, spec.durable);
    if (info.config.max_deliver !== serverMaxDeliver) {
      await jsm.consumers.update(spec.stream, spec.durable, { max_deliver: serverMaxDeliver }).catch((error: unknown) => {
        logger.warn({ durable: spec.durable, err: error }, 'could not set max_deliver on an existing consumer');
      });
    }
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const catchUpMs = spec.newConsumerCatchUpMs ?? 3600_000;
    await jsm.consumers.add(spec.stream, {
      durable_name: spec.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(Date.now() - catchUpMs).toISOString(),
      filter_subject: spec.event.subject,
      ack_wait: nanos(30_000),
      max_ack_pending: 100,
      max_deliver: serverMaxDeliver,
    });
  }
}

async function handleMessage<T extends z.ZodType>(
  msg: JsMsg,
  spec: EventConsumerSpec<T>,
  maxDeliver: number,
  js: JetStreamClient,
  logger: LoggerLike,
): Promise<void> {
  const context = { durable: spec.durable, subject: msg.subject, seq: msg.seq, deliveries: msg.info.deliveryCount };
  try {
    // Republished by a stream (its `republish` setting stamps `Nats-Stream`): written by whoever configured that
    // stream, not by the event's owner, whose publishes alone the bus permissions let in. Never handled.
    const republishedFrom = msg.headers?.get('Nats-Stream');
    if (republishedFrom)
      throw new PermanentFailure(`event republished from stream ${republishedFrom}, not published by ${spec.event.owner}`);
    const envelope = EventEnvelopeSchema.parse(msg.json());
    const data = spec.event.data.safeParse(envelope.data);
    if (!data.success) throw new PermanentFailure(`event ${envelope.id} does not match ${spec.event.subject}`);
    // The trace of the action that recorded the event continues in the consumer (its `traceparent` header).
    const attributes = {
      'messaging.system': 'nats',
      'messaging.destination.name': msg.subject,
      'messaging.consumer.group.name': spec.durable,
      'messaging.message.id': envelope.id,
    };
    await withSpan(`${msg.subject} process`, { kind: SpanKind.CONSUMER, attributes, parent: contextFrom(msg.headers ?? null) }, () =>
      spec.handle({ ...envelope, data: data.data }, msg),
    );
    msg.ack();
  } catch (error) {
    const permanent = error instanceof PermanentFailure || (error as Error)?.name === 'ZodError' || error instanceof SyntaxError;
    if (permanent || msg.info.deliveryCount >= maxDeliver) {
      const reason = permanent ? 'cannot be handled' : `failed ${msg.info.deliveryCount} deliveries`;
      try {
        const h = headers();
        h.set('DigiCard-Dead-Letter-Reason', reason);
        h.set('DigiCard-Consumer', spec.durable);
        h.set('DigiCard-Stream-Seq', String(msg.seq));
        await js.publish(spec.deadLetterSubject, msg.data, { headers: h, msgID: `${spec.durable}:${msg.seq}`, timeout: 5000 });
      } catch (publishError) {
        logger.warn({ ...context, err: publishError }, 'event could not be dead-lettered; will be redelivered');
        msg.nak(5000);
        return;
      }
      // The alert: an operator looks at the dead-letter stream (health reports it too).
      logger.error(
        { ...context, deadLetter: spec.deadLetterSubject, reason, errorName: (error as Error)?.name },
        `event dead-lettered (${reason})`,
      );
      msg.term(reason);
      return;
    }
    const delay = Math.min(spec.maxBackoffMs ?? 60_000, 1000 * 2 ** Math.min(msg.info.deliveryCount - 1, 6));
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
