import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { PAGE_MAX_BYTES, decodeCursor, encodeCursor, type ExportChunk } from '@digicard/contracts';
import { exportChunk, pageStart, toPage, type ExportList, type KeysetPosition } from './paging.js';
import { ServiceError } from './rpc.js';

// The services' half of paging without a database: how rows become a page (limit, byte budget, next cursor) and how
// a data export is read chunk after chunk.

const row = (i: number, size = 10) => ({
  id: `id-${String(i).padStart(4, '0')}`,
  position: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000000Z`,
  text: 'x'.repeat(size),
});

describe('toPage', () => {
  it('takes `limit` of the `limit + 1` rows fetched and points the next cursor at the last one it took', async () => {
    const rows = [row(1), row(2), row(3), row(4)];
    const page = await toPage(rows, 3, (taken) => taken.map((r) => r.id));
    assert.deepEqual(page.items, ['id-0001', 'id-0002', 'id-0003']);
    assert.deepEqual(decodeCursor(page.nextCursor!), { at: rows[2]!.position, id: 'id-0003' });
    assert.equal((await toPage(rows.slice(0, 3), 3, (taken) => taken)).nextCursor, null, 'the last page has no next');
    assert.equal((await toPage([], 3, (taken) => taken)).nextCursor, null);
  });

  it('ends the page before the item that would pass PAGE_MAX_BYTES, yet always holds one item', async () => {
    const rows = Array.from({ length: 11 }, (_, i) => row(i, 60 * 1024));
    const page = await toPage(rows, 10, (taken) => taken);
    assert.equal(page.items.length, 4);
    assert.ok(Buffer.byteLength(JSON.stringify(page.items)) <= PAGE_MAX_BYTES);
    assert.deepEqual(decodeCursor(page.nextCursor!), { at: rows[3]!.position, id: rows[3]!.id });
    const huge = await toPage([row(1, PAGE_MAX_BYTES * 2)], 10, (taken) => taken);
    assert.equal(huge.items.length, 1);
    assert.equal(huge.nextCursor, null);
  });

  it('marks the cursor with the list it belongs to (an export’s part)', async () => {
    const page = await toPage([row(1), row(2)], 1, (taken) => taken, 3);
    assert.equal(decodeCursor(page.nextCursor!)?.part, 3);
  });
});

describe('pageStart', () => {
  it('reads a list’s cursor and refuses one made for something else (400 on cursor)', () => {
    assert.equal(pageStart({}), null);
    assert.deepEqual(pageStart({ cursor: encodeCursor({ at: '2026-01-01T00:00:00.000000Z', id: 'abc' }) }), {
      at: '2026-01-01T00:00:00.000000Z',
      id: 'abc',
    });
    for (const cursor of [encodeCursor({ part: 1 }), encodeCursor({ part: 0, at: '2026-01-01T00:00:00.000000Z', id: 'abc' }), 'garbage'])
      assert.throws(
        () => pageStart({ cursor }),
        (error: unknown) => error instanceof ServiceError && error.body.statusCode === 400 && 'cursor' in (error.body.fieldErrors ?? {}),
      );
  });
});

describe('exportChunk', () => {
  /** A list of `count` numbered items read `limit` at a time by position, as a repository would. */
  const list = (name: string, count: number): ExportList => ({
    name,
    read: (start: KeysetPosition | null, limit: number, part: number) => {
      const all = Array.from({ length: count }, (_, i) => row(i));
      const from = start ? all.findIndex((r) => r.id === start.id) + 1 : 0;
      return toPage(all.slice(from, from + limit + 1), limit, (taken) => taken.map((r) => `${name}:${r.id}`), part);
    },
  });

  it('answers the fields first, then each list a page at a time in order, an empty list as one chunk', async () => {
    const lists = [list('leads', 5), list('none', 0), list('mail', 2)];
    const chunks: ExportChunk[] = [];
    let cursor: string | undefined;
    let fieldsAsked = 0;
    do {
      const chunk = await exportChunk(
        { ...(cursor ? { cursor } : {}), limit: 2 },
        () => Promise.resolve({ profile: { n: ++fieldsAsked } }),
        lists,
      );
      chunks.push(chunk);
      cursor = chunk.nextCursor ?? undefined;
    } while (cursor);
    assert.equal(fieldsAsked, 1);
    assert.deepEqual(chunks[0]!.fields, { profile: { n: 1 } });
    assert.deepEqual(
      chunks.map((c) => [c.list?.name, c.list?.items.length]),
      [
        ['leads', 2],
        ['leads', 2],
        ['leads', 1],
        ['none', 0],
        ['mail', 2],
      ],
    );
    assert.deepEqual(
      chunks.flatMap((c) => c.list?.items ?? []).filter((i) => String(i).startsWith('leads')),
      ['leads:id-0000', 'leads:id-0001', 'leads:id-0002', 'leads:id-0003', 'leads:id-0004'],
    );
  });

  it('reads a list ordered by text with its own positions, and refuses a time list’s there', async () => {
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const byKey: ExportList = {
      name: 'analytics',
      orderedBy: 'text',
      read: (start, limit, part) => {
        const from = start ? keys.indexOf(start.key) + 1 : 0;
        return toPage(
          keys.slice(from, from + limit + 1),
          limit,
          (taken) => taken,
          part,
          (key) => ({ id: 'click', key }),
        );
      },
    };
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const chunk = await exportChunk({ ...(cursor ? { cursor } : {}), limit: 2 }, () => Promise.resolve({}), [list('leads', 1), byKey]);
      seen.push(...(chunk.list?.items ?? []));
      cursor = chunk.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, ['leads:id-0000', ...keys]);
    const timeCursor = encodeCursor({ part: 1, at: '2026-01-01T00:00:00.000000Z', id: 'abc' });
    await assert.rejects(
      exportChunk({ cursor: timeCursor, limit: 2 }, () => Promise.resolve({}), [list('leads', 1), byKey]),
      ServiceError,
    );
    const textCursor = encodeCursor({ part: 0, id: 'click', key: 'a' });
    await assert.rejects(
      exportChunk({ cursor: textCursor, limit: 2 }, () => Promise.resolve({}), [list('leads', 1), byKey]),
      ServiceError,
    );
  });

  it('answers a service without lists in one chunk, and refuses a cursor of no list of its own', async () => {
    assert.deepEqual(await exportChunk({ limit: 5 }, () => Promise.resolve({ team: null }), []), {
      fields: { team: null },
      list: null,
      nextCursor: null,
    });
    for (const cursor of [encodeCursor({ part: 3 }), encodeCursor({ at: '2026-01-01T00:00:00.000000Z', id: 'abc' })])
      await assert.rejects(
        exportChunk({ cursor, limit: 5 }, () => Promise.resolve({}), [list('leads', 3)]),
        ServiceError,
      );
  });
});
