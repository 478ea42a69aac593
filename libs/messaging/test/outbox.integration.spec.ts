import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { pgSchema } from 'drizzle-orm/pg-core';
import { isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { Events, streamFor } from '@digicard/contracts';
import { createDatabase, type Database } from '@digicard/db';
import { DEFAULTS, PrivateNats, waitFor } from '@digicard/testing';
import {
  OutboxRelay,
  connectNats,
  durableName,
  provisionStream,
  handleOnce,
  jetStreamHandles,
  messagingTables,
  recordEvent,
  startEventConsumer,
  type NatsConnection,
} from '../src/index.js';

const silent = { info() {}, warn() {}, error() {} };
const schemaName = `outbox_test_${randomUUID().slice(0, 8)}`;
const tables = messagingTables(pgSchema(schemaName));

const enquiry = (n: number) => ({
  enquiryId: randomUUID(),
  kind: 'call-back' as const,
  name: `Person ${n}`,
  email: `p${n}@example.co.za`,
  phone: '0821234567',
  message: null,
  receivedAt: new Date().toISOString(),
});

describe('transactional outbox and idempotent consumer (real PostgreSQL and NATS JetStream)', () => {
  const nats = new PrivateNats();
  let pool: pg.Pool;
  let db: Database;
  let nc: NatsConnection;

  beforeAll(async () => {
    await nats.start();
    pool = new pg.Pool({ connectionString: DEFAULTS.databaseUrl, max: 4 });
    db = createDatabase(pool);
    await pool.query(`CREATE SCHEMA "${schemaName}"`);
    await pool.query(`CREATE TABLE "${schemaName}".outbox (id uuid PRIMARY KEY, subject text NOT NULL, payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), sent_at timestamptz, attempts integer NOT NULL DEFAULT 0, last_error text,
      trace_parent text)`);
    await pool.query(`CREATE TABLE "${schemaName}".processed_messages (consumer text NOT NULL, message_id text NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (consumer, message_id))`);
    nc = await connectNats(nats.url, 'outbox-test');
    await provisionStream((await jetStreamHandles(nc)).jsm, streamFor('orders'));
  });

  afterAll(async () => {
    await nc?.close();
    await nats.destroy();
    await pool.query(`DROP SCHEMA "${schemaName}" CASCADE`);
    await pool.end();
  });

  it('writes no event when the transaction rolls back', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await recordEvent(tx, tables.outbox, Events.enquiryReceived, enquiry(0));
        throw new Error('state change failed');
      }),
    );
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(tables.outbox);
    assert.equal(row!.n, 0);
  });

  it('refuses an event whose data breaks its contract', async () => {
    await assert.rejects(recordEvent(db, tables.outbox, Events.enquiryReceived, { ...enquiry(0), email: 42 } as never));
  });

  it('keeps events while NATS is down and publishes each exactly once when it is back', async () => {
    const { js, jsm } = await jetStreamHandles(nc);
    const relay = new OutboxRelay(db, tables.outbox, js, silent);
    await nats.stop();
    for (let i = 1; i <= 5; i++) {
      await db.transaction((tx) => recordEvent(tx, tables.outbox, Events.enquiryReceived, enquiry(i)));
    }
    await assert.rejects(relay.relayOnce());
    const unsent = await db.select().from(tables.outbox).where(isNull(tables.outbox.sentAt));
    assert.equal(unsent.length, 5);
    // The relay stops at the first refusal and records it on that row.
    const tried = unsent.filter((r) => r.attempts === 1);
    assert.equal(tried.length, 1);
    assert.ok(tried[0]!.lastError);

    await nats.start();
    await waitFor('NATS reconnect', async () => {
      await nc.flush();
      return true;
    });
    await provisionStream(jsm, streamFor('orders'));
    assert.equal(await waitFor('relay to publish', () => relay.relayOnce().catch(() => 0)), 5);
    assert.equal(await relay.relayOnce(), 0);
    const stream = await jsm.streams.info(streamFor('orders').name);
    assert.equal(stream.state.messages, 5);

    // A row published but not marked (a crash between the two) goes again with the same Nats-Msg-Id: dropped.
    await pool.query(`UPDATE "${schemaName}".outbox SET sent_at = NULL`);
    assert.equal(await relay.relayOnce(), 5);
    assert.equal((await jsm.streams.info(streamFor('orders').name)).state.messages, 5);
  });

  it('hands each event to a durable consumer once, even when it is delivered twice', async () => {
    const { js, jsm } = await jetStreamHandles(nc);
    const handled: string[] = [];
    const durable = durableName('test', Events.enquiryReceived.subject);
    const consumer = await startEventConsumer(
      js,
      jsm,
      {
        stream: streamFor('orders').name,
        durable,
        event: Events.enquiryReceived,
        deadLetterSubject: 'deadletter.test.orders.enquiry.received',
        handle: async (envelope) => {
          await handleOnce(db, tables.processedMessages, durable, envelope.id, (tx) => {
            handled.push(envelope.data.name);
            return tx.execute(sql`SELECT 1`).then(() => undefined);
          });
        },
      },
      silent,
    );
    await waitFor('5 events handled', () => Promise.resolve(handled.length === 5));
    // The same event published again under another message id (as a redelivery would be): handled once.
    const [first] = await db.select().from(tables.outbox).limit(1);
    await js.publish(first!.subject, JSON.stringify(first!.payload), { msgID: randomUUID() });
    await new Promise((r) => setTimeout(r, 800));
    await consumer.stop();
    assert.equal(handled.length, 5);
    assert.deepEqual([...handled].sort(), ['Person 1', 'Person 2', 'Person 3', 'Person 4', 'Person 5']);
    const processed = await db.select().from(tables.processedMessages);
    assert.equal(processed.length, 5);
  });
});
