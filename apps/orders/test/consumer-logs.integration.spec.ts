import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { pgSchema } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { Events, streamFor } from '@digicard/contracts';
import { createLogger } from '@digicard/config';
import { createDatabase } from '@digicard/db';
import {
  connectNats,
  provisionStream,
  handleOnce,
  jetStreamHandles,
  messagingTables,
  startEventConsumer,
  type NatsConnection,
} from '@digicard/messaging';
import { DEFAULTS, PrivateNats, waitFor } from '@digicard/testing';

const SECRET = 'thandi.private@example.co.za';

/**
 * An event whose handling fails on a query: the consumer logs "event handling failed; will be redelivered" with the
 * error, and drizzle's error quotes the query's parameters in its message. Through the service logger (its error
 * serializer) the log line keeps the SQLSTATE and never the parameter's value.
 */
describe('a consumer warning about a failed query does not log the query parameters', () => {
  const nats = new PrivateNats();
  const database = `digicard_clog_${randomUUID().slice(0, 8)}`;
  const url = Object.assign(new URL(DEFAULTS.databaseUrl), { pathname: `/${database}` }).toString();
  let nc: NatsConnection;
  let pool: pg.Pool;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: DEFAULTS.databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    await admin.end();
    pool = new pg.Pool({ connectionString: url, max: 2 });
    await pool.query(
      `CREATE SCHEMA clog; CREATE TABLE clog.processed_messages (consumer text NOT NULL, message_id text NOT NULL, processed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (consumer, message_id))`,
    );
    await nats.start();
    nc = await connectNats(nats.url, 'consumer-logs-test');
  });
  afterAll(async () => {
    await nc?.close();
    await nats.destroy();
    await pool?.end();
    const admin = new pg.Client({ connectionString: DEFAULTS.databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('logs the warning with the SQLSTATE, not the value sent with the query', async () => {
    const lines: string[] = [];
    const logger = createLogger(
      'test',
      'info',
      new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }),
    );
    const { processedMessages } = messagingTables(pgSchema('clog'));
    const db = createDatabase(pool);
    const { js, jsm } = await jetStreamHandles(nc);
    await provisionStream(jsm, streamFor('orders'));
    const consumer = await startEventConsumer(
      js,
      jsm,
      {
        stream: streamFor('orders').name,
        durable: 'test--consumer-logs',
        event: Events.enquiryReceived,
        deadLetterSubject: 'deadletter.test.orders.enquiry.received',
        maxBackoffMs: 100,
        handle: (envelope) =>
          handleOnce(db, processedMessages, 'test--consumer-logs', envelope.id, async (tx) => {
            // A query that fails with the visitor's email as its parameter (not a uuid): drizzle quotes it in its message.
            await tx.execute(sql`SELECT ${envelope.data.email}::uuid`);
          }).then(() => undefined),
      },
      logger,
    );
    try {
      const data = {
        enquiryId: randomUUID(),
        kind: 'call-back',
        name: 'Thandi',
        email: SECRET,
        phone: '0821234567',
        message: null,
        receivedAt: new Date().toISOString(),
      };
      await js.publish(
        Events.enquiryReceived.subject,
        JSON.stringify({ id: randomUUID(), type: Events.enquiryReceived.subject, occurredAt: new Date().toISOString(), data }),
      );
      await waitFor('the consumer to warn', () =>
        Promise.resolve(lines.some((l) => l.includes('event handling failed; will be redelivered'))),
      );
    } finally {
      await consumer.stop();
    }
    const warning = lines.find((l) => l.includes('event handling failed'))!;
    assert.match(warning, /22P02/, 'the SQLSTATE is kept');
    assert.doesNotMatch(lines.join('\n'), /thandi\.private/, 'the parameter never reaches the log');
  });
});
