import { lt } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import { EVENT_RETENTION_MS } from './nats.js';
import type { ProcessedMessagesTable } from './tables.js';

interface LoggerLike {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** A day past the streams' retention: a message this old cannot be delivered again, so its record is no longer needed. */
export const PROCESSED_RETENTION_MS = EVENT_RETENTION_MS + 24 * 3600 * 1000;

/** Deletes the records of handled messages older than `olderThanMs`; returns how many went. */
export async function purgeProcessedMessages(
  db: Database,
  table: ProcessedMessagesTable,
  olderThanMs = PROCESSED_RETENTION_MS,
  now = Date.now(),
): Promise<number> {
  const deleted = await db
    .delete(table)
    .where(lt(table.processedAt, new Date(now - olderThanMs)))
    .returning({ id: table.messageId });
  return deleted.length;
}

export interface PurgeOptions {
  /** How often it runs; hourly by default, the first time a minute after start. */
  intervalMs?: number;
  firstRunMs?: number;
  olderThanMs?: number;
}

/**
 * The periodic job that keeps `processed_messages` from growing for ever: every replica runs it (a DELETE by age is
 * safe to run twice); a failure is logged and tried again at the next run.
 */
export class ProcessedMessagesPurge {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly intervalMs: number;
  private readonly firstRunMs: number;
  private readonly olderThanMs: number;

  constructor(
    private readonly db: Database,
    private readonly table: ProcessedMessagesTable,
    private readonly logger: LoggerLike,
    options: PurgeOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 3600_000;
    this.firstRunMs = options.firstRunMs ?? 60_000;
    this.olderThanMs = options.olderThanMs ?? PROCESSED_RETENTION_MS;
  }

  start(): void {
    this.schedule(this.firstRunMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delay: number): void {
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .then(() => undefined)
        .finally(() => {
          this.running = null;
          if (this.timer) this.schedule(this.intervalMs);
        });
    }, delay);
    this.timer.unref();
  }

  async runOnce(): Promise<number> {
    try {
      const count = await purgeProcessedMessages(this.db, this.table, this.olderThanMs);
      if (count > 0) this.logger.info({ count }, 'records of handled messages past the streams retention purged');
      return count;
    } catch (error) {
      this.logger.warn({ errorName: (error as Error)?.name }, 'purge of handled messages failed; will retry');
      return 0;
    }
  }
}
