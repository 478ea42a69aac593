import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { pgSchema } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { deadLetterStreamFor, Events, provisionedStreams, streamFor } from '@digicard/contracts';
import { createDatabase, type Database } from '@digicard/db';
import { DEFAULTS, PrivateNats, waitFor } from '@digicard/testing';
import {
  EVENT_RETENTION_MS,
  ProcessedMessagesPurge,
  connectNats,
  provisionStream,
  jetStreamHandles,
  messagingTables,
  missingStreams,
  nanos,
  provisionStreams,
  purgeProcessedMessages,
  startEventConsumer,
  waitForStreams,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
} from '../src/index.js';

const logs: Array<{ level: string; msg: string | undefined }> = [];
const logger = {
  info: (_o: object, msg?: string) => logs.push({ level: 'info', msg }),
  warn: (_o: object, msg?: string) => logs.push({ level: 'warn', msg }),
  error: (_o: object, msg?: string) => logs.push({ level: 'error', msg }),
};
const enquiry = (n: number) => ({
  enquiryId: randomUUID(),
  kind: 'call-back' as const,
  name: `Person ${n}`,
  email: `p${n}@example.co.za`,
  phone: '0821234567',
  message: null,
  receivedAt: new Date().toISOString(),
});
const envelope = (data: unknown) =>
  JSON.stringify({ id: randomUUID(), type: Events.enquiryReceived.subject, occurredAt: new Date().toISOString(), data });

describe('streams have one owner; consumers give up into a dead-letter stream and start near the present', () => {
  const nats = new PrivateNats();
  let nc: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    await nats.start();
    nc = await connectNats(nats.url, 'streams-test');
    ({ js, jsm } = await jetStreamHandles(nc));
  });
  afterAll(async () => {
    await nc?.close();
    await nats.destroy();
  });

  it('a consumer does not declare the stream it reads: it waits until the owner does, then handles what comes', async () => {
    const handled: string[] = [];
    const consumer = await startEventConsumer(
      js,
      jsm,
      {
        stream: 'EVENTS_NOT_YET',
        durable: 'test--waits',
        event: Events.enquiryReceived,
        deadLetterSubject: 'deadletter.test.orders.enquiry.received',
        streamWaitMs: 50,
        handle: (e) => {
          handled.push(e.data.name);
          return Promise.resolve();
        },
      },
      logger,
    );
    await new Promise((r) => setTimeout(r, 300));
    const names: string[] = [];
    for await (const s of jsm.streams.names()) names.push(s);
    assert.ok(!names.includes('EVENTS_NOT_YET'), 'the consumer created no stream');
    assert.ok(logs.some((l) => l.msg === 'waiting for the owner to declare its stream'));
    // The owner comes (runs before the other tests, so no other stream holds the subject yet).
    await jsm.streams.add({ name: 'EVENTS_NOT_YET', subjects: [Events.enquiryReceived.subject] });
    await consumer.attached;
    await js.publish(Events.enquiryReceived.subject, envelope(enquiry(0)));
    await waitFor('the event handled', () => Promise.resolve(handled.includes('Person 0')));
    await consumer.stop();
    await jsm.streams.delete('EVENTS_NOT_YET');
  });

  it('an older build of the owner never shrinks the subjects a newer one declared', async () => {
    const { name, subjects } = streamFor('orders');
    await provisionStream(jsm, streamFor('orders'));
    // A newer build, which knows one more event, declared it.
    const info = await jsm.streams.info(name);
    await jsm.streams.update(name, { ...info.config, subjects: [...subjects, 'orders.future-thing.happened'] });
    // A replica of the older build starts (a rolling deploy, a rollback).
    await provisionStream(jsm, streamFor('orders'));
    const after = (await jsm.streams.info(name)).config.subjects ?? [];
    assert.ok(after.includes('orders.future-thing.happened'), `the newer subject stays: ${after.join(', ')}`);
    for (const s of subjects) assert.ok(after.includes(s));
  });

  it('dead-letters an event that keeps failing after max_deliver deliveries, logs it as an error, and goes on', async () => {
    const { name } = streamFor('orders');
    await provisionStream(jsm, deadLetterStreamFor('orders'));
    const dlq = deadLetterStreamFor('orders');
    const deliveries = new Map<string, number>();
    const handled: string[] = [];
    const consumer = await startEventConsumer(
      js,
      jsm,
      {
        stream: name,
        durable: 'test--dead-letters',
        event: Events.enquiryReceived,
        deadLetterSubject: dlq.subjectFor(Events.enquiryReceived.subject),
        maxDeliver: 3,
        maxBackoffMs: 50,
        newConsumerCatchUpMs: 0,
        handle: (e) => {
          deliveries.set(e.data.name, (deliveries.get(e.data.name) ?? 0) + 1);
          if (e.data.name === 'Person 1') return Promise.reject(new Error('the database is away'));
          handled.push(e.data.name);
          return Promise.resolve();
        },
      },
      logger,
    );
    await consumer.attached;
    assert.equal((await jsm.consumers.info(name, 'test--dead-letters')).config.max_deliver, 6, 'the server bounds deliveries too');
    await js.publish(Events.enquiryReceived.subject, envelope(enquiry(1)));
    await js.publish(Events.enquiryReceived.subject, envelope(enquiry(2)));
    await waitFor('the dead letter', async () => (await jsm.streams.info(dlq.name)).state.messages === 1, 10_000);
    await waitFor('the next event handled', () => Promise.resolve(handled.includes('Person 2')), 5_000);
    assert.equal(deliveries.get('Person 1'), 3);
    const dead = await jsm.streams.getMessage(dlq.name, { last_by_subj: dlq.subjectFor(Events.enquiryReceived.subject) });
    assert.equal(dead!.header.get('DigiCard-Dead-Letter-Reason'), 'failed 3 deliveries');
    assert.equal((dead!.json() as { data: { name: string } }).data.name, 'Person 1');
    assert.ok(
      logs.some((l) => l.level === 'error' && l.msg?.startsWith('event dead-lettered')),
      'an error in the logs',
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(deliveries.get('Person 1'), 3, 'not delivered again');
    // A payload that can never be handled goes there at once.
    await js.publish(Events.enquiryReceived.subject, envelope({ name: 'broken' }));
    await waitFor('the second dead letter', async () => (await jsm.streams.info(dlq.name)).state.messages === 2, 10_000);
    await consumer.stop();
  });

  it('a new durable consumer does not replay history older than its catch-up window; within it, it does', async () => {
    const { name } = streamFor('orders');
    await js.publish(Events.enquiryReceived.subject, envelope(enquiry(100)));
    await new Promise((r) => setTimeout(r, 400));
    const seen = (label: string, catchUpMs: number) => {
      const names: string[] = [];
      return {
        names,
        start: () =>
          startEventConsumer(
            js,
            jsm,
            {
              stream: name,
              durable: `test--${label}`,
              event: Events.enquiryReceived,
              deadLetterSubject: 'deadletter.orders.x',
              newConsumerCatchUpMs: catchUpMs,
              handle: (e) => {
                names.push(e.data.name);
                return Promise.resolve();
              },
            },
            logger,
          ),
      };
    };
    const fresh = seen('fresh', 200);
    const recent = seen('recent', 3600_000);
    const [a, b] = [await fresh.start(), await recent.start()];
    await js.publish(Events.enquiryReceived.subject, envelope(enquiry(101)));
    await waitFor('both to see the new event', () =>
      Promise.resolve(fresh.names.includes('Person 101') && recent.names.includes('Person 101')),
    );
    assert.ok(!fresh.names.includes('Person 100'), 'history before the window is not replayed');
    assert.ok(!fresh.names.some((n) => n === 'Person 1' || n === 'Person 2'));
    assert.ok(recent.names.includes('Person 100'), 'an event of a start-up race is handled');
    await a.stop();
    await b.stop();
  });

  it('the provisioner declares every stream, and brings one changed behind its back to its declared settings', async () => {
    const declared = await provisionStreams(jsm);
    assert.deepEqual(
      declared.map((d) => d.name),
      provisionedStreams().map((s) => s.name),
    );
    // Orders' streams (declared above, one subject more than this build knows) are kept as they are; the others are new.
    const earlier = [streamFor('orders').name, deadLetterStreamFor('orders').name];
    for (const d of declared) assert.equal(d.result, earlier.includes(d.name) ? 'unchanged' : 'created', d.name);
    assert.ok((await jsm.streams.info(streamFor('orders').name)).config.subjects?.includes('orders.future-thing.happened'));
    assert.ok(
      (await provisionStreams(jsm)).every((d) => d.result === 'unchanged'),
      'a second run changes nothing',
    );
    // Someone with the rights (an operator's slip, an app's user before this step) made payments' stream source
    // identity's, keep an hour, and lose a subject.
    const payments = streamFor('payments');
    const info = await jsm.streams.info(payments.name);
    await jsm.streams.update(payments.name, {
      ...info.config,
      subjects: payments.subjects.slice(1),
      max_age: nanos(3600_000),
      sources: [{ name: streamFor('identity').name }],
    });
    const again = await provisionStreams(jsm, 1);
    assert.deepEqual(
      again.filter((d) => d.result !== 'unchanged').map((d) => d.name),
      [payments.name],
    );
    const restored = (await jsm.streams.info(payments.name)).config;
    assert.equal(restored.max_age, nanos(EVENT_RETENTION_MS));
    assert.deepEqual([...(restored.subjects ?? [])].sort(), [...payments.subjects].sort());
    assert.equal(restored.sources?.length ?? 0, 0);
    // A republishing stream cannot be mended by an update (JetStream refuses it): the run fails and says what to do.
    await jsm.streams.delete(payments.name);
    await jsm.streams.add({ name: payments.name, subjects: payments.subjects, republish: { src: '>', dest: 'stolen.>' } });
    await assert.rejects(provisionStreams(jsm), /EVENTS_PAYMENTS republishes > to stolen\.>.*nats stream rm EVENTS_PAYMENTS/);
    await jsm.streams.delete(payments.name);
    assert.equal((await provisionStreams(jsm)).find((d) => d.name === payments.name)?.result, 'created');
  });

  it('an app waits for its streams: says once what it waits for, carries on when they come, stops when told', async () => {
    const from = logs.length;
    const stop = new AbortController();
    const waiting = waitForStreams(jsm, [streamFor('orders').name, 'EVENTS_LATER'], logger, stop.signal, 20);
    await new Promise((r) => setTimeout(r, 300));
    const said = logs.slice(from).filter((l) => l.msg?.startsWith('waiting for the stream provisioner'));
    assert.deepEqual(
      said.map((l) => l.msg),
      ['waiting for the stream provisioner (nats-streams) to declare EVENTS_LATER: events stay in the outbox until then'],
    );
    assert.deepEqual(await missingStreams(jsm, [streamFor('orders').name, 'EVENTS_LATER']), ['EVENTS_LATER']);
    await jsm.streams.add({ name: 'EVENTS_LATER', subjects: ['later.>'] });
    assert.equal(await waiting, true);
    await jsm.streams.delete('EVENTS_LATER');
    const stopped = new AbortController();
    const never = waitForStreams(jsm, ['EVENTS_NEVER'], logger, stopped.signal, 20);
    stopped.abort();
    assert.equal(await never, false);
  });
});

describe('processed_messages is purged after the streams retention', () => {
  const schemaName = `purge_test_${randomUUID().slice(0, 8)}`;
  const tables = messagingTables(pgSchema(schemaName));
  let pool: pg.Pool;
  let db: Database;
  const day = 24 * 3600 * 1000;
  const insert = (id: string, ageMs: number) =>
    pool.query(
      `INSERT INTO "${schemaName}".processed_messages (consumer, message_id, processed_at) VALUES ('c', $1, now() - make_interval(secs => $2))`,
      [id, ageMs / 1000],
    );
  const ids = async () =>
    (await pool.query<{ message_id: string }>(`SELECT message_id FROM "${schemaName}".processed_messages ORDER BY 1`)).rows.map(
      (r) => r.message_id,
    );

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: DEFAULTS.databaseUrl, max: 2 });
    db = createDatabase(pool);
    await pool.query(`CREATE SCHEMA "${schemaName}"`);
    await pool.query(`CREATE TABLE "${schemaName}".processed_messages (consumer text NOT NULL, message_id text NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (consumer, message_id))`);
  });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA "${schemaName}" CASCADE`);
    await pool.end();
  });

  it('deletes the records older than 31 days and keeps the rest', async () => {
    await insert('today', 0);
    await insert('29-days', 29 * day);
    await insert('30-and-a-half-days', 30.5 * day);
    await insert('32-days', 32 * day);
    await insert('90-days', 90 * day);
    assert.equal(await purgeProcessedMessages(db, tables.processedMessages), 2);
    assert.deepEqual(await ids(), ['29-days', '30-and-a-half-days', 'today']);
  });

  it('runs periodically by itself', async () => {
    const purge = new ProcessedMessagesPurge(db, tables.processedMessages, logger, { firstRunMs: 10, intervalMs: 100 });
    purge.start();
    try {
      await insert('old-1', 40 * day);
      await waitFor('the first run', async () => !(await ids()).includes('old-1'), 3000, 20);
      await insert('old-2', 40 * day);
      await waitFor('a later run', async () => !(await ids()).includes('old-2'), 3000, 20);
      assert.ok((await ids()).includes('today'));
    } finally {
      await purge.stop();
    }
  });
});
