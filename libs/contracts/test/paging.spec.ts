import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  HttpRoutes,
  NATS_MAX_PAYLOAD_BYTES,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_MAX_BYTES,
  PageMessages,
  PageQuerySchema,
  PageRequestSchema,
  Rpc,
  buildOpenApiDocument,
  decodeCursor,
  encodeCursor,
  toFieldErrors,
  type HttpRoute,
} from '../src/index.js';

// Paging (issue 28, item 4): what a cursor may hold, how `?cursor=&limit=` is read, and that a page fits one message.

const position = { at: '2026-03-02T08:00:00.123456Z', id: '0f8b6b1e-3c2a-4d5e-8f9a-1b2c3d4e5f60' };

describe('page cursors', () => {
  it('are opaque URL-safe texts that give back the position they were made from', () => {
    for (const p of [position, { part: 2 }, { part: 0, ...position }, { part: 1, id: 'click', key: 'wl:Café “Ubuntu” 🌍' }]) {
      const cursor = encodeCursor(p);
      assert.match(cursor, /^[A-Za-z0-9_-]+$/);
      assert.deepEqual(decodeCursor(cursor), p);
    }
  });

  it('read as nothing when they are not one of ours', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [
      '',
      'not a cursor',
      'x'.repeat(257),
      'x'.repeat(2049),
      b64('not json'),
      b64('[1,2]'),
      b64('{"at":"2026-03-02T08:00:00Z","id":"x"}'), // milliseconds only: not a position we make
      b64('{"at":"2026-03-02T08:00:00.123456Z"}'), // a time without an id
      b64('{"part":99}'),
      b64('{"id":"alone"}'), // an id without a time or a key
      b64(`{"at":"${position.at}","id":"x","key":"both"}`),
      b64(`{"at":"${position.at}","id":"a'; DROP TABLE leads; --"}`),
      b64(`{"at":"${position.at}","id":"${position.id}","accountId":"someone"}`),
    ])
      assert.equal(decodeCursor(cursor), null, cursor);
  });
});

describe('a page asked for', () => {
  it('over HTTP: ?cursor=&limit= as texts, empty ones as absent, 50 items by default', () => {
    const cursor = encodeCursor(position);
    assert.deepEqual(PageQuerySchema.parse({}), { limit: PAGE_LIMIT_DEFAULT });
    assert.deepEqual(PageQuerySchema.parse({ cursor: '', limit: '' }), { limit: PAGE_LIMIT_DEFAULT });
    assert.deepEqual(PageQuerySchema.parse({ cursor, limit: '100', other: 'ignored' }), { cursor, limit: 100 });
  });

  it('refuses a bad cursor or limit with a field error on it', () => {
    const errors = (query: unknown) => {
      const parsed = PageQuerySchema.safeParse(query);
      assert.ok(!parsed.success, JSON.stringify(query));
      return toFieldErrors(parsed.error);
    };
    for (const limit of ['0', '101', '-1', '1.5', 'ten', ['1', '2']])
      assert.deepEqual(errors({ limit }), { limit: [PageMessages.badLimit] });
    for (const cursor of ['%', 'eyJ4IjoxfQ', ['a', 'b']]) assert.deepEqual(errors({ cursor }), { cursor: [PageMessages.badCursor] });
    assert.equal(PageRequestSchema.safeParse({ limit: PAGE_LIMIT_MAX + 1 }).success, false);
    assert.equal(PageRequestSchema.safeParse({ cursor: 'bad' }).success, false);
  });

  it('is how every paged route and subject reads its pages, and the OpenAPI document says so', () => {
    const paged: HttpRoute[] = [
      HttpRoutes.listLeads,
      HttpRoutes.listOrders,
      HttpRoutes.listOrderDetails,
      HttpRoutes.printQueue,
      HttpRoutes.staffFailedProofs,
      HttpRoutes.listTeam,
    ];
    for (const route of paged) assert.equal(route.query, PageQuerySchema, route.operationId);
    for (const rpc of [
      Rpc.listLeads,
      Rpc.listTeamLeads,
      Rpc.listOrders,
      Rpc.listOrderDetails,
      Rpc.printQueue,
      Rpc.staffFailedProofs,
      Rpc.listTeam,
    ])
      assert.equal(rpc.request, PageRequestSchema, rpc.subject);
    const doc = buildOpenApiDocument('test') as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; responses: object }>>;
    };
    const leads = doc.paths['/api/profile/leads']!['get']!;
    assert.deepEqual(
      leads.parameters?.map((p) => `${p.in}:${p.name}`),
      ['query:cursor', 'query:limit'],
    );
    assert.ok('400' in leads.responses);
  });
});

describe('a page answered', () => {
  it('fits one NATS message with room for the envelope, even made of items escaped six-fold', () => {
    // A service ends a page at PAGE_MAX_BYTES of items as they are serialized: the envelope and the next cursor are
    // what comes on top.
    assert.ok(PAGE_MAX_BYTES + 64 * 1024 < NATS_MAX_PAYLOAD_BYTES);
    // Without the byte budget, a full page of long leads would not fit: 100 messages of 2000 control characters.
    assert.ok(PAGE_LIMIT_MAX * JSON.stringify('\u0001'.repeat(2000)).length > NATS_MAX_PAYLOAD_BYTES);
  });
});
