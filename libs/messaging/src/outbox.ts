import { randomUUID } from 'node:crypto';
import { and, asc, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { EventDefinition, EventEnvelope } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { JetStreamClient } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { contextFrom, currentTraceparent, SpanKind, traceHeaders, withSpan } from '@digicard/config';
import type { OutboxTable } from './tables.js';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
type Executor = Database | Transaction;

interface LoggerLike {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Writes an event into the outbox. Call it inside the transaction that makes the state change, so the event
 * exists exactly when the change does. Returns the envelope (its id is the `Nats-Msg-Id`).
 */
export async function recordEvent<T extends z.ZodType>(
  tx: Executor,
  outbox: OutboxTable,
  event: EventDefinition<T>,
  data: z.input<T>,
): Promise<EventEnvelope<z.output<T>>> {
  const envelope: EventEnvelope<z.output<T>> = {
    id: randomUUID(),
    type: event.subject,
    occurredAt: new Date().toISOString(),
    data: event.data.parse(data),
  };
  await tx.insert(outbox).values({ id: envelope.id, subject: event.subject, payload: envelope, traceParent: currentTraceparent() });
  return envelope;
}

export interface OutboxRelayOptions {
  intervalMs?: number;
  batchSize?: number;
  /** Sent rows are deleted after this long. */
  retentionMs?: number;
}

/**
 * Publishes outbox rows to JetStream and marks them sent. Several replicas may relay at once: rows are claimed
 * with `FOR UPDATE SKIP LOCKED`. A row published but not marked (crash, lost connection) is published again with
 * the same `Nats-Msg-Id`, which JetStream drops as a duplicate; consumers are idempotent besides.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wakeRequested = false;
  private failures = 0;
  private lastPurge = 0;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly retentionMs: number;

  constructor(
    private readonly db: Database,
    private readonly outbox: OutboxTable,
    private readonly js: JetStreamClient,
    private readonly logger: LoggerLike,
    options: OutboxRelayOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.batchSize = options.batchSize ?? 100;
    this.retentionMs = options.retentionMs ?? 7 * 24 * 3600 * 1000;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Relay now rather than at the next tick; call after committing a transaction that recorded events. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
      });
    }, delay);
  }

  private async tick(): Promise<void> {
    let published = 0;
    try {
      published = await this.relayOnce();
      this.failures = 0;
      await this.purgeOld();
    } catch (error) {
      this.failures += 1;
      this.logger.warn({ err: error, failures: this.failures }, 'outbox relay could not publish; will retry');
    }
    const backoff = this.failures > 0 ? Math.min(30_000, 500 * 2 ** Math.min(this.failures, 6)) : null;
    const more = published === this.batchSize || this.wakeRequested;
    this.wakeRequested = false;
    this.schedule(backoff ?? (more ? 0 : this.intervalMs));
  }

  /**
   * Publishes one batch; returns how many rows were published. When NATS refuses the first row it throws, after
   * recording the attempt on that row.
   */
  async relayOnce(): Promise<number> {
    const { sent, failure } = await this.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: this.outbox.id, subject: this.outbox.subject, payload: this.outbox.payload, traceParent: this.outbox.traceParent })
        .from(this.outbox)
        .where(isNull(this.outbox.sentAt))
        .orderBy(asc(this.outbox.createdAt))
        .limit(this.batchSize)
        .for('update', { skipLocked: true });
      const published: string[] = [];
      let error: unknown = null;
      for (const row of rows) {
        try {
          await this.publish(row);
          published.push(row.id);
        } catch (publishError) {
          error = publishError;
          await tx
            .update(this.outbox)
            .set({
              attempts: sql`${this.outbox.attempts} + 1`,
              lastError: String((publishError as Error)?.message ?? publishError).slice(0, 500),
            })
            .where(inArray(this.outbox.id, [row.id]));
          break;
        }
      }
      if (published.length > 0) {
        await tx.update(this.outbox).set({ sentAt: new Date() }).where(inArray(this.outbox.id, published));
      }
      return { sent: published.length, failure: error };
    });
    if (sent > 0) this.logger.info({ count: sent }, 'outbox events published');
    if (failure && sent === 0) throw failure instanceof Error ? failure : new Error('publish failed');
    return sent;
  }

  /** Publishes a row in the trace that recorded it: the publish span's context travels as the message's headers. */
  private publish(row: { id: string; subject: string; payload: unknown; traceParent: string | null }): Promise<unknown> {
    const send = async () => {
      const trace = traceHeaders();
      const names = Object.keys(trace);
      const h = names.length > 0 ? natsHeaders() : undefined;
      for (const name of names) h?.set(name, trace[name] as string);
      return this.js.publish(row.subject, JSON.stringify(row.payload), { msgID: row.id, timeout: 5000, ...(h ? { headers: h } : {}) });
    };
    if (!row.traceParent) return send();
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': row.subject, 'messaging.message.id': row.id };
    return withSpan(
      `${row.subject} publish`,
      { kind: SpanKind.PRODUCER, attributes, parent: contextFrom({ traceparent: row.traceParent }) },
      send,
    );
  }

  private async purgeOld(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < 3600_000) return;
    this.lastPurge = now;
    await this.db.delete(this.outbox).where(and(isNotNull(this.outbox.sentAt), lt(this.outbox.sentAt, new Date(now - this.retentionMs))));
  }
}
