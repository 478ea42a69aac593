#!/usr/bin/env node
// The chaos run: the whole enquiry path (gateway -> orders -> outbox -> NATS JetStream -> notifications -> BullMQ
// -> SMTP) on spare ports, with private PostgreSQL, Redis and NATS servers it may kill, while leads arrive at a
// steady rate. In turn it kills NATS, the notifications service and Redis (SIGKILL) and restarts PostgreSQL, then
// counts: sent, accepted, stored, emailed, duplicates, lost, 500s, and how long the system took to drain.
//
//   npm run build:all && node tools/chaos/chaos.mjs [--leads 10000] [--rate 200] [--down-seconds 5] [--json out.json]
//
// Never touches the machine's shared servers except the shared Redis keys of its own prefix (cleaned at the end).
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { PrivatePostgres, PrivateRedis, SALES_INBOX, TestSystem } from '../../libs/testing/dist/src/index.js';

const { values: args } = parseArgs({
  options: {
    leads: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '200' },
    'down-seconds': { type: 'string', default: '5' },
    'drain-timeout': { type: 'string', default: '180' },
    json: { type: 'string' },
    logs: { type: 'string' },
  },
});
const N = Number(args.leads);
const RATE = Number(args.rate);
const DOWN_MS = Number(args['down-seconds']) * 1000;
const DRAIN_TIMEOUT_MS = Number(args['drain-timeout']) * 1000;
if (!(N > 0) || !(RATE > 0)) throw new Error('--leads and --rate must be positive numbers');

const log = (msg, extra = {}) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 23)} ${msg}${Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ''}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const postgres = new PrivatePostgres();
const redis = new PrivateRedis({ appendOnly: true });
/** @type {TestSystem | undefined} */
let system;

const statuses = new Map();
/** @type {Set<string>} */
const accepted = new Set();
const faults = [];
let sent = 0;
let inFlight = 0;

async function sendLead(i) {
  sent += 1;
  inFlight += 1;
  const body = { name: `Chaos Lead ${i}`, email: `lead${i}@example.co.za`, number: `08${String(10_000_000 + i).slice(-8)}` };
  let status = 0;
  try {
    const res = await fetch(`${system.gatewayUrl}/api/enquiries/call-back`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: system.gatewayUrl },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    status = res.status;
    const json = /** @type {{ id?: string } | null} */ (await res.json().catch(() => null));
    if (status === 202 && json?.id) accepted.add(json.id);
  } catch {
    status = 0; // no answer (connection refused or timed out)
  } finally {
    inFlight -= 1;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
}

async function fault(name, kill, restart) {
  const started = Date.now();
  log(`fault: ${name} down`);
  await kill();
  await sleep(DOWN_MS);
  await restart();
  faults.push({ name, at: new Date(started).toISOString().slice(11, 23), downMs: Date.now() - started });
  log(`fault: ${name} back`, { afterMs: Date.now() - started });
}

const count = async (sql) => Number((await system.sql(sql))[0].n);
/** Every email to the sales inbox: the enquiry it is about, its Message-ID, when it arrived. */
async function emailsCaught() {
  const mails = await system.mail.list(SALES_INBOX);
  return mails
    .map((m) => ({ ref: /Reference: ([0-9a-f-]{36})/.exec(m.text)?.[1], messageId: m.messageId, at: m.receivedAt.slice(11, 23) }))
    .filter((m) => m.ref);
}
const emailedReferences = async () => (await emailsCaught()).map((m) => m.ref);

async function main() {
  log('starting private PostgreSQL, Redis (AOF) and the apps', { leads: N, rate: RATE });
  await postgres.start();
  await redis.start();
  system = await TestSystem.start({
    apps: ['mail-catcher', 'orders', 'notifications', 'gateway'],
    postgresUrl: postgres.url,
    env: {
      gateway: { REDIS_URL: redis.url, ENQUIRY_RATE_LIMIT: '100000000/60', LOG_LEVEL: 'info', REQUEST_TIMEOUT_MS: '5000' },
      notifications: { REDIS_URL: redis.url, LOG_LEVEL: 'warn', EMAIL_CONCURRENCY: '20' },
      orders: { LOG_LEVEL: 'warn' },
      'mail-catcher': { KEEP_MESSAGES: String(N * 3) },
    },
  });
  log('system up', { gateway: system.gatewayUrl });

  const durationMs = (N / RATE) * 1000;
  /** @type {[at: number, run: () => Promise<unknown>][]} */
  const schedule = [
    [
      0.15,
      () =>
        fault(
          'NATS (SIGKILL)',
          () => system.nats.kill(),
          () => system.nats.start(),
        ),
    ],
    [
      0.35,
      () =>
        fault(
          'notifications (SIGKILL)',
          () => system.killApp('notifications'),
          () => system.startApp('notifications'),
        ),
    ],
    [
      0.55,
      () =>
        fault(
          'Redis (SIGKILL)',
          () => redis.kill(),
          () => redis.start(),
        ),
    ],
    [
      0.75,
      () =>
        fault(
          'PostgreSQL (restart)',
          () => postgres.stop('fast'),
          () => postgres.start(),
        ),
    ],
  ];
  // One fault at a time: the first after 10% of the run, then each as soon as the last is over and the system had
  // a few seconds to recover.
  const faultRuns = [
    (async () => {
      await sleep(0.1 * durationMs);
      for (const [, run] of schedule) {
        await run();
        await sleep(Math.max(3000, 0.05 * durationMs));
      }
    })(),
  ];

  const t0 = Date.now();
  const sends = [];
  for (let i = 0; i < N; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    sends.push(sendLead(i));
    if (i > 0 && i % Math.max(1, Math.round(RATE * 5)) === 0) log('sending', { sent, inFlight, accepted: accepted.size });
  }
  await Promise.all(sends);
  await Promise.all(faultRuns);
  const sendEnd = Date.now();
  log('all sent', { sent, accepted: accepted.size, seconds: Math.round((sendEnd - t0) / 1000) });

  // Drain: the outbox empty and every stored enquiry emailed.
  let outboxEmptyAt = null;
  let drainedAt = null;
  let stored = 0;
  let refs = [];
  while (Date.now() - sendEnd < DRAIN_TIMEOUT_MS) {
    try {
      const unsent = await count('SELECT count(*) AS n FROM orders.outbox WHERE sent_at IS NULL');
      if (unsent === 0 && outboxEmptyAt === null) outboxEmptyAt = Date.now();
      stored = await count('SELECT count(*) AS n FROM orders.enquiries');
      refs = await emailedReferences();
      if (unsent === 0 && new Set(refs).size >= stored) {
        drainedAt = Date.now();
        break;
      }
    } catch (error) {
      log('drain check failed; retrying', { error: error.message });
    }
    await sleep(1000);
  }
  await sleep(3000); // anything sent twice arrives late
  const caught = await emailsCaught();
  refs = caught.map((m) => m.ref);
  /** @type {Map<string, { messageId: string | null, at: string }[]>} */
  const copiesOf = new Map();
  for (const m of caught) copiesOf.set(m.ref, [...(copiesOf.get(m.ref) ?? []), { messageId: m.messageId, at: m.at }]);
  const duplicated = [...copiesOf].filter(([, copies]) => copies.length > 1);
  const storedIds = new Set((await system.sql('SELECT id FROM orders.enquiries')).map((r) => String(r.id)));
  const emailed = new Set(refs);
  const result = {
    leads: N,
    rate: RATE,
    downSeconds: DOWN_MS / 1000,
    sent,
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    accepted: accepted.size,
    stored: storedIds.size,
    acceptedNotStored: [...accepted].filter((id) => !storedIds.has(id)).length,
    storedNotAccepted: [...storedIds].filter((id) => !accepted.has(id)).length,
    emailed: emailed.size,
    storedNotEmailed: [...storedIds].filter((id) => !emailed.has(id)).length,
    duplicates: refs.length - emailed.size,
    // A copy whose Message-ID another copy of the same email already had: one message to the receiving side.
    duplicatesSameMessageId: duplicated.reduce((n, [, copies]) => n + copies.length - new Set(copies.map((c) => c.messageId)).size, 0),
    duplicateDetail: duplicated.slice(0, 10).map(([ref, copies]) => ({ ref, copies })),
    http500: statuses.get(500) ?? 0,
    outboxEmptySeconds: outboxEmptyAt === null ? null : Math.round((outboxEmptyAt - sendEnd) / 100) / 10,
    drainSeconds: drainedAt === null ? null : Math.round((drainedAt - sendEnd) / 100) / 10,
    faults,
    processesAlive: /** @type {const} */ (['orders', 'notifications', 'gateway']).filter((a) => system.isRunning(a)),
    fatalLogLines: system.logs.filter((l) => /"level":60/.test(l.line)).length,
  };
  // Where anything not emailed is: the mail log, the queue (failed jobs and why), the dead letters.
  const q = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  const key = (k) => `${system.redisPrefix}:email:${k}`;
  const failedIds = await q.zrange(key('failed'), '0', '4');
  result.diagnostics = {
    mailLog: Object.fromEntries(
      (await system.sql('SELECT status, count(*)::int AS n FROM notifications.mail_log GROUP BY status')).map((r) => [r.status, r.n]),
    ),
    processedEvents: await count('SELECT count(*) AS n FROM notifications.processed_messages'),
    queue: {
      waiting: await q.llen(key('wait')),
      active: await q.llen(key('active')),
      delayed: await q.zcard(key('delayed')),
      failed: await q.zcard(key('failed')),
    },
    failedReasons: await Promise.all(failedIds.map((id) => q.hget(key(id), 'failedReason'))),
    deadLetters: system.logs.filter((l) => l.line.includes('event dead-lettered')).length,
  };
  await q.quit();
  // A run where nothing was accepted (a machine too loaded to answer) shows nothing: it does not meet the target.
  const verdict =
    result.accepted > 0 &&
    result.acceptedNotStored === 0 &&
    result.storedNotEmailed === 0 &&
    result.duplicates === 0 &&
    result.http500 === 0 &&
    result.outboxEmptySeconds !== null &&
    result.outboxEmptySeconds <= 60;
  result.target = verdict ? 'met' : 'NOT met';
  process.stdout.write(`\n${JSON.stringify(result, null, 2)}\n`);
  if (args.json) writeFileSync(args.json, JSON.stringify(result, null, 2));
  if (args.logs) writeFileSync(args.logs, system.logs.map((l) => `${l.app} ${l.line}`).join('\n'));
  return verdict;
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  log('chaos run failed', { error: error.stack ?? String(error) });
} finally {
  try {
    await postgres.start().catch(() => undefined);
    await redis.start().catch(() => undefined);
    await system?.stop();
  } catch (error) {
    log('cleanup failed', { error: error.message });
  }
  await redis.kill();
  await postgres.destroy();
}
process.exit(ok ? 0 : 1);
