import type { Response } from 'express';
import type { Logger } from '@digicard/config';

/** Text gathered before it is written to the socket: one write per ~64 KB rather than one per row. */
const FLUSH_BYTES = 64 * 1024;

/** The browser went away mid-download: nothing more is read from the services. */
class ClientGone extends Error {}

/** Writes text to a response as it comes, waiting whenever the client reads slower than the services answer. */
export class ResponseWriter {
  private buffered: string[] = [];
  private size = 0;
  /** Resolves the write waiting for the socket (one listener each for the whole download, not one per wait). */
  private wake: (() => void) | null = null;

  constructor(private readonly res: Response) {
    const wake = () => {
      this.wake?.();
      this.wake = null;
    };
    res.on('drain', wake);
    res.on('close', wake);
  }

  async write(text: string): Promise<void> {
    this.buffered.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.res.destroyed || this.res.writableEnded) throw new ClientGone();
    if (this.size === 0) return;
    const text = this.buffered.join('');
    this.buffered = [];
    this.size = 0;
    if (!this.res.write(text)) {
      // Back-pressure: wait for the socket to drain, or give up if the client hangs up meanwhile.
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      if (this.res.destroyed) throw new ClientGone();
    }
  }
}

/**
 * Sends a download whose body is written page by page (`body`), after its headers: everything that could fail before
 * the first byte (the session, the first pages) is done by the caller beforehand, so that it is still answered as an
 * error status. A failure once the body has begun (a service that stops answering halfway) cannot change the status:
 * the connection is cut instead of ended, so the browser reports a failed download rather than keep a file that
 * looks complete but is not.
 */
export async function streamDownload(
  res: Response,
  headers: { contentType: string; fileName: string },
  logger: Logger,
  body: (out: ResponseWriter) => Promise<void>,
): Promise<void> {
  res
    .status(200)
    .type(headers.contentType)
    .set('Content-Disposition', `attachment; filename="${headers.fileName}"`)
    .set('Cache-Control', 'no-store');
  const out = new ResponseWriter(res);
  try {
    await body(out);
    await out.flush();
    res.end();
  } catch (error) {
    if (!(error instanceof ClientGone))
      logger.warn({ err: error, fileName: headers.fileName }, 'download cut short: a page could not be read');
    res.destroy();
  }
}

/**
 * A JSON document written a piece at a time, indented as `JSON.stringify(value, null, 2)` would: objects and arrays
 * are opened, filled with fields or items, and closed, so a list of any length never sits in memory whole.
 */
export class JsonWriter {
  private readonly open: Array<{ close: '}' | ']'; empty: boolean }> = [];

  constructor(private readonly out: ResponseWriter) {}

  async openDocument(): Promise<void> {
    await this.out.write('{');
    this.open.push({ close: '}', empty: true });
  }

  /** A field of the object open now (undefined values are left out, as JSON.stringify does). */
  async field(name: string, value: unknown): Promise<void> {
    if (value === undefined) return;
    await this.next(`${JSON.stringify(name)}: ${this.encode(value)}`);
  }

  async openObject(name: string): Promise<void> {
    await this.next(`${JSON.stringify(name)}: {`);
    this.open.push({ close: '}', empty: true });
  }

  async openArray(name: string): Promise<void> {
    await this.next(`${JSON.stringify(name)}: [`);
    this.open.push({ close: ']', empty: true });
  }

  /** An item of the array open now. */
  async item(value: unknown): Promise<void> {
    await this.next(this.encode(value ?? null));
  }

  async close(): Promise<void> {
    const closed = this.open.pop();
    if (!closed) throw new Error('nothing is open');
    await this.out.write(closed.empty ? closed.close : `\n${'  '.repeat(this.open.length)}${closed.close}`);
  }

  private async next(text: string): Promise<void> {
    const current = this.open.at(-1);
    if (!current) throw new Error('nothing is open');
    const separator = current.empty ? '' : ',';
    current.empty = false;
    await this.out.write(`${separator}\n${'  '.repeat(this.open.length)}${text}`);
  }

  private encode(value: unknown): string {
    return JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(this.open.length)}`);
  }
}

/** A CSV cell: quoted when it holds a quote, comma or line break; a leading = + - @ (a spreadsheet formula) as text. */
export const csvCell = (value: string): string => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** A CSV line (CRLF, as spreadsheets expect). */
export const csvLine = (cells: readonly string[]): string => `${cells.map(csvCell).join(',')}\r\n`;
