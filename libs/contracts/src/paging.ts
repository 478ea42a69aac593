import { z } from 'zod';

/**
 * Lists that can grow without bound (leads, orders, the print queue, a team, the data export's parts) are read in
 * pages: a service never answers more than one page in one NATS reply (NATS_MAX_PAYLOAD_BYTES). A page ends at the
 * caller's `limit` or at PAGE_MAX_BYTES of items, whichever comes first, and carries the cursor of the next page
 * (null on the last). Cursors are keyset positions (the last item's time to the microsecond and its id), so no item
 * is missed or repeated across pages while new ones arrive, and a cursor only ever positions within the caller's own
 * list: it names no account and opens nothing.
 */

/** Items a page holds when the caller does not say, and at most. */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 100;
/**
 * The most JSON a service puts in one page's items: the page ends before the item that would pass it (a page holds at
 * least one item), so a page of long items still fits one NATS message, envelope and all.
 */
export const PAGE_MAX_BYTES = 256 * 1024;

export const PageMessages = {
  badCursor: 'This page link is not valid. Please start again from the first page.',
  badLimit: `Please ask for 1 to ${PAGE_LIMIT_MAX} items at a time.`,
} as const;

/**
 * What a cursor holds: where the last page ended, and for a sequence of lists (a service's part of the data export)
 * which list (`part`, from 0). A list ordered by time ends at its last item's time (`at`, UTC to the microsecond) and
 * id; a list ordered by text (the export's analytics totals, by metric and key) at its last item's `id` and `key`.
 */
export const PagePositionSchema = z
  .object({
    part: z.number().int().min(0).max(31).optional(),
    at: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
      .optional(),
    id: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/)
      .optional(),
    key: z.string().max(256).optional(),
  })
  .strict()
  .refine((p) => (p.id === undefined ? p.at === undefined && p.key === undefined : (p.at === undefined) !== (p.key === undefined)));
export type PagePosition = z.infer<typeof PagePositionSchema>;

/** What a cursor looks like: base64url, at most 2048 characters (a key of 256 characters, each up to 4 bytes of UTF-8). */
const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,2048}$/;

/** The opaque text a client sends back for the next page: its position as JSON, in UTF-8, in base64url. */
export function encodeCursor(position: PagePosition): string {
  const bytes = new TextEncoder().encode(JSON.stringify(position));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The position a cursor holds, or null when it is not one of ours (bad base64, bad JSON, a shape we never make). */
export function decodeCursor(cursor: string): PagePosition | null {
  if (!CURSOR_TEXT.test(cursor)) return null;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const json = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const parsed = PagePositionSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A cursor as clients pass it: opaque, checked to be one of ours (400 with a field error otherwise). */
export const PageCursorSchema = z.string(PageMessages.badCursor).refine((cursor) => decodeCursor(cursor) !== null, PageMessages.badCursor);

/** One page asked of a service: after `cursor` (none: the first page), at most `limit` items. */
export const PageRequestSchema = z.object({
  cursor: PageCursorSchema.optional(),
  limit: z
    .number()
    .int(PageMessages.badLimit)
    .min(1, PageMessages.badLimit)
    .max(PAGE_LIMIT_MAX, PageMessages.badLimit)
    .default(PAGE_LIMIT_DEFAULT),
});
export type PageRequest = z.output<typeof PageRequestSchema>;

/** `?cursor=&limit=` as the query string holds them (texts; an empty one counts as absent). */
const PageQueryFields = {
  cursor: z
    .string(PageMessages.badCursor)
    .refine((cursor) => cursor === '' || decodeCursor(cursor) !== null, PageMessages.badCursor)
    .optional(),
  limit: z
    .string(PageMessages.badLimit)
    .regex(/^\d{0,3}$/, PageMessages.badLimit)
    .optional(),
};

function toPageRequest(query: { cursor?: string | undefined; limit?: string | undefined }, ctx: z.RefinementCtx): PageRequest {
  const limit = query.limit ? Number(query.limit) : PAGE_LIMIT_DEFAULT;
  if (limit < 1 || limit > PAGE_LIMIT_MAX) ctx.addIssue({ code: 'custom', path: ['limit'], message: PageMessages.badLimit });
  return { ...(query.cursor ? { cursor: query.cursor } : {}), limit };
}

/**
 * `?cursor=&limit=` of a list route, as the query string holds them (texts; an empty one counts as absent), parsed
 * into a PageRequest.
 */
export const PageQuerySchema = z.object(PageQueryFields).transform(toPageRequest);

/**
 * A list route whose query string holds more than the page (the leader view's `?from=&to=`): those fields as `shape`
 * says, beside `cursor` and `limit` parsed as PageQuerySchema parses them.
 */
export function pageQueryWith<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...shape, ...PageQueryFields }).transform((query, ctx) => {
    const { cursor, limit, ...rest } = query as { cursor?: string; limit?: string } & Record<string, unknown>;
    return { ...(rest as z.output<z.ZodObject<S>>), ...toPageRequest({ cursor, limit }, ctx) };
  });
}

/** The cursor of the next page in an answer: null on the last page. */
export const NextCursorSchema = PageCursorSchema.nullable();

/**
 * A page of a list: its items under the list's own name (`{ leads, nextCursor }`, `{ orders, nextCursor }`: the
 * names the web app and the API had before pages), and the next page's cursor.
 */
export function pageOf<const K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({ [key]: z.array(item), nextCursor: NextCursorSchema } as { [P in K]: z.ZodArray<T> } & {
    nextCursor: typeof NextCursorSchema;
  });
}

/**
 * One chunk of a service's part of the data export (POPIA), read in chunks like a list's pages: the fields that are not
 * lists (in the first chunk), then each of the service's lists a page at a time, in order. `list` names the list its
 * items belong to; a list's pages follow one another (the gateway writes them into one JSON array), an empty list
 * comes as one chunk with no items.
 */
export const ExportChunkSchema = z.object({
  fields: z.record(z.string(), z.unknown()),
  list: z.object({ name: z.string().regex(/^[A-Za-z]{1,40}$/), items: z.array(z.unknown()) }).nullable(),
  nextCursor: NextCursorSchema,
});
export type ExportChunk = z.infer<typeof ExportChunkSchema>;
