import { asc, desc, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  ErrorCode,
  PAGE_MAX_BYTES,
  PageMessages,
  decodeCursor,
  encodeCursor,
  type ExportChunk,
  type PagePosition,
  type PageRequest,
} from '@digicard/contracts';
import { ServiceError } from './rpc.js';

/**
 * Lists read in pages by keyset (libs/contracts `paging.ts`): ordered by a time column, the row's id breaking ties,
 * each page starting after the last row of the one before. A repository selects `positionOf(column)` beside its
 * columns (as `position`), filters with `after(...)`, orders with `orderOf(...)` and fetches `limit + 1` rows; a
 * query turns them into a page with `toPage`.
 */
export interface Keyset {
  /** The time the list is ordered by (created, paid, joined...). */
  readonly at: AnyColumn;
  /** The row's id: ties of `at` are ordered by it. */
  readonly id: AnyColumn;
  readonly order: 'newest-first' | 'oldest-first';
}

/** Where a page ended, as `after` takes it: the last row's time (UTC, to the microsecond) and id. */
export type KeysetPosition = Required<Pick<PagePosition, 'at' | 'id'>>;
/** Where a page of a list ordered by text ended: its last row's `id` and `key` (the analytics totals: metric and key). */
export type TextPosition = Required<Pick<PagePosition, 'id' | 'key'>>;

/**
 * The row's position as text: its time in UTC to the microsecond (PostgreSQL keeps microseconds; a JavaScript Date
 * only milliseconds, which would skip or repeat rows created within one millisecond).
 */
export function positionOf(at: AnyColumn): SQL<string> {
  return sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The rows after a position in the keyset's order (undefined: from the first row). */
export function after(keyset: Keyset, position: KeysetPosition | null): SQL | undefined {
  if (!position) return undefined;
  return keyset.order === 'newest-first'
    ? sql`(${keyset.at}, ${keyset.id}) < (${position.at}::timestamptz, ${position.id})`
    : sql`(${keyset.at}, ${keyset.id}) > (${position.at}::timestamptz, ${position.id})`;
}

/** ORDER BY for the keyset. */
export function orderOf(keyset: Keyset): SQL[] {
  return keyset.order === 'newest-first' ? [desc(keyset.at), desc(keyset.id)] : [asc(keyset.at), asc(keyset.id)];
}

/** 400 with a field error on `cursor`: a cursor that is ours in form but not of this list. */
export function badCursor(): ServiceError {
  return new ServiceError({
    statusCode: 400,
    code: ErrorCode.ValidationFailed,
    message: 'Please correct the highlighted fields.',
    fieldErrors: { cursor: [PageMessages.badCursor] },
  });
}

/** The position a list's page starts after: null for the first page; 400 for a cursor that holds none. */
export function pageStart(request: Pick<PageRequest, 'cursor'>): KeysetPosition | null {
  if (!request.cursor) return null;
  const position = decodeCursor(request.cursor);
  if (!position?.at || !position.id || position.part !== undefined || position.key !== undefined) throw badCursor();
  return { at: position.at, id: position.id };
}

/** A row as a keyset query selects it: its position beside its id. */
export interface Positioned {
  readonly position: string;
  readonly id: string | number;
}

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

type Page<T> = { items: T[]; nextCursor: string | null };

/**
 * A page from the rows a keyset query fetched (at most `limit + 1`: one more says there is a next page). The rows
 * become items (`toItems`, which may read more, e.g. an order's cards), and the page ends early before the item that
 * would take its items past PAGE_MAX_BYTES, so that a page of long items still fits one NATS reply. `part` marks
 * the cursor with the list it belongs to (a data export's lists). The next cursor holds the last item's row's
 * `position` and `id` (`Positioned`), or what `positionOf` says (a list ordered by text).
 */
export function toPage<R extends Positioned, T>(
  rows: readonly R[],
  limit: number,
  toItems: (rows: R[]) => T[] | Promise<T[]>,
  part?: number,
): Promise<Page<T>>;
export function toPage<R, T>(
  rows: readonly R[],
  limit: number,
  toItems: (rows: R[]) => T[] | Promise<T[]>,
  part: number | undefined,
  positionOf: (row: R) => PagePosition,
): Promise<Page<T>>;
export async function toPage<R, T>(
  rows: readonly R[],
  limit: number,
  toItems: (rows: R[]) => T[] | Promise<T[]>,
  part?: number,
  positionOf: (row: R) => PagePosition = (row) => {
    const { position, id } = row as R & Positioned;
    return { at: position, id: String(id) };
  },
): Promise<Page<T>> {
  const taken = rows.slice(0, limit);
  const mapped = await toItems(taken);
  const items: T[] = [];
  let bytes = 0;
  for (const item of mapped) {
    const size = jsonBytes(item) + 1;
    if (items.length > 0 && bytes + size > PAGE_MAX_BYTES) break;
    items.push(item);
    bytes += size;
  }
  const more = rows.length > limit || items.length < taken.length;
  const last = taken[items.length - 1];
  return {
    items,
    nextCursor: more && last ? encodeCursor({ ...(part === undefined ? {} : { part }), ...positionOf(last) }) : null,
  };
}

type ListPage = Promise<{ items: unknown[]; nextCursor: string | null }>;

/**
 * One list of a service's part of the data export: a page of it after a position (the first page after null), the
 * list ordered by time (`KeysetPosition`, the usual) or by text (`orderedBy: 'text'`, `TextPosition`).
 */
export type ExportList =
  | { readonly name: string; readonly orderedBy?: 'time'; read(start: KeysetPosition | null, limit: number, part: number): ListPage }
  | { readonly name: string; readonly orderedBy: 'text'; read(start: TextPosition | null, limit: number, part: number): ListPage };

/**
 * One chunk of a service's part of the data export: with no cursor its fields and the first page of its first list;
 * then each list a page at a time, in order (the cursor says which list and where). A service without lists answers
 * its fields in one chunk.
 */
export async function exportChunk(
  request: PageRequest,
  fields: () => Promise<Record<string, unknown>>,
  lists: readonly ExportList[],
): Promise<ExportChunk> {
  const position = request.cursor ? decodeCursor(request.cursor) : null;
  if (request.cursor && (position?.part === undefined || position.part >= lists.length)) throw badCursor();
  const part = position?.part ?? 0;
  const list = lists[part];
  const head = position ? {} : await fields();
  if (!list) return { fields: head, list: null, nextCursor: null };
  // A list's own kind of position, or none (its first page); another kind is not one of this list's cursors.
  let page: Awaited<ListPage>;
  if (list.orderedBy === 'text') {
    if (position?.at) throw badCursor();
    page = await list.read(position?.id && position.key !== undefined ? { id: position.id, key: position.key } : null, request.limit, part);
  } else {
    if (position?.key !== undefined) throw badCursor();
    page = await list.read(position?.at && position.id ? { at: position.at, id: position.id } : null, request.limit, part);
  }
  const nextCursor = page.nextCursor ?? (part + 1 < lists.length ? encodeCursor({ part: part + 1 }) : null);
  return { fields: head, list: { name: list.name, items: page.items }, nextCursor };
}
