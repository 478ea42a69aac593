import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * One rendered public page, kept as compact bytes: its gzip only, in a buffer of its own exact size. Nearly every
 * browser accepts gzip; the rare client that does not gets it inflated on the way out (`PageCache.html`).
 */
export interface CachedPage {
  readonly gzip: Buffer;
  /** Length of the UTF-8 HTML, for the log and the benchmark. */
  readonly htmlBytes: number;
  /** A strong validator of the HTML, quoted, for ETag / If-None-Match. */
  readonly etag: string;
  /** When it was rendered (ms since the epoch). */
  readonly at: number;
  /** What it costs the cache: the gzip buffer and a fixed allowance for the entry and its key. */
  readonly bytes: number;
}

/** Taken before a page is fetched, handed back when it is stored: a Save in between makes the store a no-op. */
export interface CacheTicket {
  readonly clock: number;
  readonly at: number;
}

export interface PageCacheOptions {
  /** Upper bound of the bytes held (HTML + gzip + per-entry allowance); the least recently used pages go first. */
  maxBytes: number;
  /** A page older than this is not served and is swept. */
  ttlMs: number;
  /** How long a fetch may take and still store its page (older tickets are refused: their invalidations are forgotten). */
  maxFetchMs?: number;
  now?: () => number;
}

/** The Map entry, its key, the object and its fields: what one page costs beyond its bytes (measured, rounded up). */
export const ENTRY_OVERHEAD_BYTES = 400;

/**
 * The gateway's cache of rendered public pages, bounded by bytes rather than by count.
 *
 * - A page is stored as its gzip only (no JS string, which takes two bytes a character once any character is
 *   outside Latin-1), copied out of zlib's pooled output chunk, so an entry of a 4 kB page does not pin 16 kB.
 * - Least recently used pages are dropped once `maxBytes` is reached; expired pages are swept by `sweep()`.
 * - `delete(username)` / `clear()` are what `profile.updated` (and anyone else who changes what a page shows)
 *   calls. A fetch takes a `ticket()` first and passes it to `set()`: if the page was invalidated after the
 *   ticket was taken, the page it carries may predate the Save, and it is not stored.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  /** Per username, the clock of its last invalidation; forgotten after `maxFetchMs`. */
  private readonly invalidated = new Map<string, { clock: number; at: number }>();
  private clock = 0;
  private clearedAt = { clock: 0, at: 0 };
  private held = 0;
  /** The key last in `entries` (the most recently used), or null when that is not known. */
  private newest: string | null = null;
  private readonly maxFetchMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PageCacheOptions) {
    this.maxFetchMs = options.maxFetchMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** Bytes held now (never more than `maxBytes`). */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  get maxBytes(): number {
    return this.options.maxBytes;
  }

  /** A fresh page, or undefined. A hit makes the page the most recently used. */
  get(username: string): CachedPage | undefined {
    const entry = this.entries.get(username);
    if (!entry) return undefined;
    if (this.now() - entry.at >= this.options.ttlMs) {
      this.remove(username, entry);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order, so re-inserting moves it to the end. A page asked for again
    // and again (the usual hot page) is already there: no delete and set per hit.
    if (username !== this.newest) {
      this.entries.delete(username);
      this.entries.set(username, entry);
      this.newest = username;
    }
    return entry;
  }

  ticket(): CacheTicket {
    return { clock: this.clock, at: this.now() };
  }

  /**
   * Stores the page rendered from data fetched after `ticket` was taken, unless the username (or the whole cache)
   * was invalidated since. Returns the stored entry, or null when it was not stored.
   */
  set(username: string, html: string, ticket: CacheTicket): CachedPage | null {
    const now = this.now();
    if (now - ticket.at > this.maxFetchMs) return null;
    if (this.clearedAt.clock > ticket.clock) return null;
    const last = this.invalidated.get(username);
    if (last && last.clock > ticket.clock) return null;
    const entry = PageCache.entry(html, now);
    if (entry.bytes > this.options.maxBytes) return null;
    const old = this.entries.get(username);
    if (old) this.remove(username, old);
    this.entries.set(username, entry);
    this.newest = username;
    this.held += entry.bytes;
    for (const [key, victim] of this.entries) {
      if (this.held <= this.options.maxBytes) break;
      this.remove(key, victim);
    }
    return entry;
  }

  /** Drops a username's page; a fetch already under way for it will not store its (possibly older) page. */
  delete(username: string): boolean {
    this.clock += 1;
    this.invalidated.set(username, { clock: this.clock, at: this.now() });
    const entry = this.entries.get(username);
    if (!entry) return false;
    this.remove(username, entry);
    return true;
  }

  /** Drops every page; fetches already under way store nothing. */
  clear(): void {
    this.clock += 1;
    this.clearedAt = { clock: this.clock, at: this.now() };
    this.entries.clear();
    this.newest = null;
    this.invalidated.clear();
    this.held = 0;
  }

  /** Drops expired pages and forgets invalidations older than any fetch that may still store. */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (now - entry.at >= this.options.ttlMs) this.remove(key, entry);
    }
    for (const [key, mark] of this.invalidated) {
      if (now - mark.at > this.maxFetchMs) this.invalidated.delete(key);
    }
  }

  private remove(username: string, entry: CachedPage): void {
    this.entries.delete(username);
    if (username === this.newest) this.newest = null;
    this.held -= entry.bytes;
  }

  static entry(html: string, at: number): CachedPage {
    const utf8 = Buffer.from(html, 'utf8');
    // zlib hands back a view of its 16 kB output chunk: copy it into an allocation of its own exact size so that
    // nothing larger stays pinned.
    const gzip = own(gzipSync(utf8));
    const etag = `"${createHash('sha256').update(utf8).digest('base64url').slice(0, 27)}"`;
    return { gzip, htmlBytes: utf8.length, etag, at, bytes: gzip.length + ENTRY_OVERHEAD_BYTES };
  }

  /** The page's HTML, for a client that does not accept gzip. */
  static html(page: CachedPage): Buffer {
    return gunzipSync(page.gzip);
  }
}

function own(view: Buffer): Buffer {
  if (view.byteOffset === 0 && view.buffer.byteLength === view.length) return view;
  const copy = Buffer.allocUnsafeSlow(view.length);
  view.copy(copy);
  return copy;
}
