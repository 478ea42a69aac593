import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { SMTPServer } from 'smtp-server';
import { CrmMessages, Events, PageMessages, QueueName, Rpc, type Membership, type WebhookDeliveryList } from '@digicard/contracts';
import type { NatsConnection } from '@digicard/messaging';
import { InProcessService, type Answer } from '@digicard/service-testing';
import { DEFAULTS, waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { notificationsService } from '../src/service.js';
import { startProfilesStandIn } from './profiles-stand-in.js';

// CRM hand-off in the notifications service, in this process: a fresh database, its own NATS server, real Redis
// (BullMQ) and, on the wire, a local HTTP server standing in for an owner's CRM. CRM_WEBHOOK_ALLOW_LOCAL lets it
// use http://127.0.0.1 (crm-webhook-ssrf.integration.spec.ts runs without it); retries wait 100 ms instead of hours.

let service: InProcessService<Config>;
let smtp: SMTPServer;
let profilesStandIn: NatsConnection;
let crm: Server;
let crmUrl: string;
const prefix = `crm-${randomBytes(4).toString('hex')}`;

const tiers = new Map<string, Membership>();

/** What the CRM stand-in received, per path; and what it answers (a list of statuses, the last one repeating). */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const answers = new Map<string, number[]>();
const hits = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData: (stream, _s, cb) => stream.on('end', () => cb()).resume(),
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  crm = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const list = answers.get(path) ?? [200];
      const status = list.length > 1 ? list.shift()! : list[0]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok thanks' : `nope ${status} ${'x'.repeat(500)}`);
    });
  });
  await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
  crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
  service = await InProcessService.start(notificationsService(), {
    REDIS_URL: DEFAULTS.redisUrl,
    QUEUE_PREFIX: prefix,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    MAIL_FROM: 'DigiCard <no-reply@digicard.test>',
    SALES_INBOX: 'sales@digicard.test',
    PUBLIC_URL: 'http://localhost:8080',
    CRM_WEBHOOK_ALLOW_LOCAL: 'true',
    CRM_WEBHOOK_RETRY_DELAYS_MS: '100,100,100',
    // Deliveries owed are looked for every second, and are overdue 2 s after their attempt was due.
    CRM_WEBHOOK_REQUEUE_INTERVAL_MS: '1000',
    CRM_WEBHOOK_TIMEOUT_MS: '1000',
    QUEUE_ADD_TIMEOUT_MS: '1000',
  });
  profilesStandIn = await startProfilesStandIn(service.natsUrl, tiers);
});

afterAll(async () => {
  await profilesStandIn?.close();
  await service?.stop();
  await new Promise<void>((resolve) => crm.close(() => resolve()));
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  const redis = new Redis(DEFAULTS.redisUrl);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const owner = (tier: Membership) => {
  const accountId = randomUUID();
  tiers.set(accountId, tier);
  return { accountId };
};

const lead = (accountId: string) => ({
  leadId: randomUUID(),
  accountId,
  ownerEmail: 'naledi@example.test',
  ownerFirstName: 'Naledi',
  kind: 'lead' as const,
  firstName: 'Thabo',
  lastName: 'Mokoena',
  email: 'thabo@example.test',
  phone: '+27821234567',
  message: 'Please call me about the flat',
  createdAt: new Date().toISOString(),
});

/** The signature as a receiver computes it, independently of the service's code. */
const expectedSignature = (secret: string, header: string, body: string) => {
  const t = /t=(\d+)/.exec(header)?.[1];
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
};

async function saveEndpoint(caller: { accountId: string }, path: string): Promise<string> {
  const saved = await service.call(Rpc.saveWebhook, { url: `${crmUrl}${path}`, enabled: true }, caller);
  if (!saved.ok) throw new Error(`save refused: ${saved.status} ${saved.message}`);
  return saved.value.endpoint!.secret;
}

const deliveryOf = (eventId: string) =>
  service.sql<{ id: string; status: string; attempts: number; last_status_code: number | null }>(
    'SELECT id, status, attempts, last_status_code FROM notifications.webhook_deliveries WHERE event_id = $1',
    [eventId],
  );

describe('CRM webhooks: a new lead reaches the owner’s CRM, signed, retried and logged', () => {
  it('posts a Gold owner’s new lead, signed with the secret shown to the owner, and logs the 200', async () => {
    const gold = owner('DigiGold');
    const secret = await saveEndpoint(gold, '/gold');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const data = lead(gold.accountId);
    const eventId = await service.publish(Events.leadCaptured, data);

    const [hit] = await waitFor('the CRM to receive the lead', () => Promise.resolve(hits('/gold').length ? hits('/gold') : null));
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.headers['x-digicard-event-id']).toBe(eventId);
    expect(hit!.headers['x-digicard-event']).toBe('lead.captured');
    const header = String(hit!.headers['x-digicard-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(header).toBe(expectedSignature(secret, header, hit!.body));
    expect(Math.abs(Number(/t=(\d+)/.exec(header)![1]) - Date.now() / 1000)).toBeLessThan(60);
    expect(header).not.toBe(expectedSignature('whsec_another', header, hit!.body));
    expect(JSON.parse(hit!.body)).toEqual({
      id: eventId,
      type: 'lead.captured',
      createdAt: expect.any(String),
      data: {
        lead: {
          id: data.leadId,
          kind: 'lead',
          firstName: 'Thabo',
          lastName: 'Mokoena',
          email: 'thabo@example.test',
          phone: '+27821234567',
          message: 'Please call me about the flat',
          createdAt: data.createdAt,
        },
      },
    });

    const [row] = await waitFor('the delivery to be logged as succeeded', async () => {
      const rows = await deliveryOf(eventId);
      return rows[0]?.status === 'succeeded' ? rows : null;
    });
    expect(row).toMatchObject({ attempts: 1, last_status_code: 200 });
    const list = await service.call(Rpc.listWebhookDeliveries, {}, gold);
    expect(list.ok && list.value.deliveries.map((d) => [d.eventId, d.status, d.attempts, d.lastStatusCode, d.summary])).toEqual([
      [eventId, 'succeeded', 1, 200, 'Thabo Mokoena'],
    ]);
    const detail = await service.call(Rpc.getWebhookDelivery, { deliveryId: row!.id }, gold);
    expect(detail.ok && detail.value.attemptLog).toEqual([
      { attempt: 1, at: expect.any(String), statusCode: 200, error: null, durationMs: expect.any(Number), responseExcerpt: 'ok thanks' },
    ]);
  });

  it('posts a redelivered event once, even when it is handled again', async () => {
    const gold = owner('DigiPlatinum');
    await saveEndpoint(gold, '/twice');
    const data = lead(gold.accountId);
    const eventId = await service.publish(Events.leadCaptured, data);
    await waitFor('the first post', () => Promise.resolve(hits('/twice').length > 0));
    // The same event again: skipped by processed_messages.
    await service.publish(Events.leadCaptured, data, eventId);
    // And handled again as if that record were lost: the delivery row and the job id (from the event) hold.
    await service.sql('DELETE FROM notifications.processed_messages WHERE message_id = $1', [eventId]);
    await service.publish(Events.leadCaptured, data, eventId);
    await service.handled(Events.leadCaptured, eventId);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hits('/twice')).toHaveLength(1);
    expect(await deliveryOf(eventId)).toHaveLength(1);
  });

  it('queues a delivery again from PostgreSQL when Redis lost its job, and posts it once', async () => {
    const gold = owner('DigiGold');
    await saveEndpoint(gold, '/lost');
    const queue = new Queue(QueueName.CrmWebhook, { connection: { url: DEFAULTS.redisUrl }, prefix });
    try {
      // No worker takes a job while the queue is paused; the lead's delivery is recorded and its job queued...
      await queue.pause();
      const eventId = await service.publish(Events.leadCaptured, lead(gold.accountId));
      await service.handled(Events.leadCaptured, eventId);
      await waitFor('the job to be queued', async () => (await queue.count()) > 0);
      // ...and Redis loses it (flushed, or a failover that dropped the last writes).
      await queue.obliterate({ force: true });
      await queue.resume();
      expect(await deliveryOf(eventId)).toMatchObject([{ status: 'pending', attempts: 0 }]);

      const [row] = await waitFor('the delivery to be queued again and succeed', async () => {
        const rows = await deliveryOf(eventId);
        return rows[0]?.status === 'succeeded' ? rows : null;
      });
      expect(row).toMatchObject({ attempts: 1, last_status_code: 200 });
      // Later sweeps find nothing owed: one post.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(hits('/lost')).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });

  it('retries a failing endpoint with backoff until it answers 2xx, logging every attempt', async () => {
    const gold = owner('DigiGold');
    answers.set('/flaky', [500, 503, 200]);
    const secret = await saveEndpoint(gold, '/flaky');
    const eventId = await service.publish(Events.leadCaptured, lead(gold.accountId));
    const [row] = await waitFor('the third attempt to succeed', async () => {
      const rows = await deliveryOf(eventId);
      return rows[0]?.status === 'succeeded' ? rows : null;
    });
    expect(row).toMatchObject({ attempts: 3, last_status_code: 200 });
    const detail = await service.call(Rpc.getWebhookDelivery, { deliveryId: row!.id }, gold);
    if (!detail.ok) throw new Error(detail.message);
    expect(detail.value.attemptLog.map((a) => a.statusCode)).toEqual([500, 503, 200]);
    expect(detail.value.attemptLog[0]!.responseExcerpt).toHaveLength(200);
    // Each attempt is signed afresh over the same body.
    const posts = hits('/flaky');
    expect(new Set(posts.map((p) => p.body)).size).toBe(1);
    for (const p of posts)
      expect(String(p.headers['x-digicard-signature'])).toBe(expectedSignature(secret, String(p.headers['x-digicard-signature']), p.body));
    expect(new Set(posts.map((p) => p.headers['x-digicard-event-id']))).toEqual(new Set([eventId]));
  });

  it('gives up after the last attempt and logs the delivery as failed; a network error is logged too', async () => {
    const gold = owner('DigiGold');
    answers.set('/down', [500]);
    await saveEndpoint(gold, '/down');
    const eventId = await service.publish(Events.leadCaptured, lead(gold.accountId));
    const [row] = await waitFor('the delivery to fail', async () => {
      const rows = await deliveryOf(eventId);
      return rows[0]?.status === 'failed' ? rows : null;
    });
    expect(row).toMatchObject({ attempts: 4, last_status_code: 500 });
    expect(hits('/down')).toHaveLength(4);

    // Nothing listens on this port: no status, the error instead.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const other = owner('DigiGold');
    const saved = await service.call(Rpc.saveWebhook, { url: `http://127.0.0.1:${port}/nobody`, enabled: true }, other);
    expect(saved.ok).toBe(true);
    const sent = await service.call(Rpc.sendTestWebhook, {}, other);
    if (!sent.ok) throw new Error(sent.message);
    const detail = await waitFor('the test delivery to fail', async () => {
      const d = await service.call(Rpc.getWebhookDelivery, { deliveryId: sent.value.deliveryId }, other);
      return d.ok && d.value.status === 'failed' ? d.value : null;
    });
    expect(detail.type).toBe('lead.test');
    expect(detail.attemptLog).toHaveLength(4);
    expect(detail.attemptLog[0]).toMatchObject({ statusCode: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('turns the endpoint off when it answers 410 Gone, and stops', async () => {
    const gold = owner('DigiGold');
    answers.set('/gone', [410]);
    await saveEndpoint(gold, '/gone');
    const eventId = await service.publish(Events.leadCaptured, lead(gold.accountId));
    const [row] = await waitFor('the delivery to fail', async () => {
      const rows = await deliveryOf(eventId);
      return rows[0]?.status === 'failed' ? rows : null;
    });
    expect(row).toMatchObject({ attempts: 1, last_status_code: 410 });
    const settings = await service.call(Rpc.getWebhook, {}, gold);
    expect(settings.ok && settings.value.endpoint).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('410') });
    // A later lead is not sent while it is off.
    const later = await service.publish(Events.leadCaptured, lead(gold.accountId));
    await service.handled(Events.leadCaptured, later);
    expect(await deliveryOf(later)).toEqual([]);
    expect(hits('/gone')).toHaveLength(1);
  });

  it('sends a test lead on demand, signed like a real one', async () => {
    const gold = owner('DigiGold');
    const secret = await saveEndpoint(gold, '/test-send');
    const sent = await service.call(Rpc.sendTestWebhook, {}, gold);
    if (!sent.ok) throw new Error(sent.message);
    const [hit] = await waitFor('the test lead', () => Promise.resolve(hits('/test-send').length ? hits('/test-send') : null));
    expect(hit!.headers['x-digicard-event']).toBe('lead.test');
    expect(JSON.parse(hit!.body)).toMatchObject({ type: 'lead.test', data: { lead: { firstName: 'Test', lastName: 'Lead' } } });
    expect(String(hit!.headers['x-digicard-signature'])).toBe(
      expectedSignature(secret, String(hit!.headers['x-digicard-signature']), hit!.body),
    );
  });

  it('rotates the secret: the next delivery is signed with the new one', async () => {
    const gold = owner('DigiGold');
    const old = await saveEndpoint(gold, '/rotate');
    const rotated = await service.call(Rpc.rotateWebhookSecret, {}, gold);
    if (!rotated.ok) throw new Error(rotated.message);
    const secret = rotated.value.endpoint!.secret;
    expect(secret).not.toBe(old);
    // Saving the address again keeps the secret.
    expect(await saveEndpoint(gold, '/rotate')).toBe(secret);
    await service.publish(Events.leadCaptured, lead(gold.accountId));
    const [hit] = await waitFor('the post', () => Promise.resolve(hits('/rotate').length ? hits('/rotate') : null));
    const header = String(hit!.headers['x-digicard-signature']);
    expect(header).toBe(expectedSignature(secret, header, hit!.body));
    expect(header).not.toBe(expectedSignature(old, header, hit!.body));
  });
});

describe('CRM webhooks: who may', () => {
  const allSubjects = (deliveryId: string) =>
    [
      () => service.call(Rpc.getWebhook, {}, null),
      () => service.call(Rpc.saveWebhook, { url: `${crmUrl}/x`, enabled: true }, null),
      () => service.call(Rpc.rotateWebhookSecret, {}, null),
      () => service.call(Rpc.sendTestWebhook, {}, null),
      () => service.call(Rpc.listWebhookDeliveries, {}, null),
      () => service.call(Rpc.getWebhookDelivery, { deliveryId }, null),
    ] as const;

  it.each(['DigiShare', 'DigiSilver'] as const)('refuses %s every subject with the upgrade message (403)', async (tier) => {
    const low = owner(tier);
    const answers = await Promise.all([
      service.call(Rpc.getWebhook, {}, low),
      service.call(Rpc.saveWebhook, { url: `${crmUrl}/low`, enabled: true }, low),
      service.call(Rpc.rotateWebhookSecret, {}, low),
      service.call(Rpc.sendTestWebhook, {}, low),
      service.call(Rpc.listWebhookDeliveries, {}, low),
      service.call(Rpc.getWebhookDelivery, { deliveryId: randomUUID() }, low),
    ]);
    for (const answer of answers) expect(answer).toMatchObject({ ok: false, status: 403, message: CrmMessages.upgrade });
    expect(await service.sql('SELECT 1 FROM notifications.webhook_endpoints WHERE account_id = $1', [low.accountId])).toEqual([]);
  });

  it.each(['DigiGold', 'DigiPlatinum'] as const)('lets %s read, save, rotate and test', async (tier) => {
    const high = owner(tier);
    expect(await service.call(Rpc.getWebhook, {}, high)).toEqual({ ok: true, value: { endpoint: null } });
    expect(await service.call(Rpc.sendTestWebhook, {}, high)).toMatchObject({ ok: false, status: 404, message: CrmMessages.noEndpoint });
    const saved = await service.call(Rpc.saveWebhook, { url: `${crmUrl}/${tier}`, enabled: true }, high);
    expect(saved).toMatchObject({ ok: true, value: { endpoint: { url: `${crmUrl}/${tier}`, enabled: true } } });
    expect(await service.call(Rpc.rotateWebhookSecret, {}, high)).toMatchObject({ ok: true });
    expect(await service.call(Rpc.sendTestWebhook, {}, high)).toMatchObject({ ok: true });
    expect(await service.call(Rpc.listWebhookDeliveries, {}, high)).toMatchObject({ ok: true });
  });

  it('does not post a lead for an owner whose tier fell below DigiGold', async () => {
    const was = owner('DigiGold');
    await saveEndpoint(was, '/downgraded');
    tiers.set(was.accountId, 'DigiSilver');
    const eventId = await service.publish(Events.leadCaptured, lead(was.accountId));
    await service.handled(Events.leadCaptured, eventId);
    expect(await deliveryOf(eventId)).toEqual([]);
    expect(hits('/downgraded')).toEqual([]);
  });

  it('refuses a visitor (401) and a bad body (400 with the field)', async () => {
    for (const call of allSubjects(randomUUID())) expect(await call()).toMatchObject({ ok: false, status: 401 });
    const gold = owner('DigiGold');
    const bad = await service.call(Rpc.saveWebhook, { url: 'ftp://crm.example.com/hook', enabled: true }, gold);
    expect(bad).toMatchObject({ ok: false, status: 400, fieldErrors: { 'body.url': [CrmMessages.httpsOnly] } });
    const noFlag = await service.call(Rpc.saveWebhook, { url: `${crmUrl}/x` } as never, gold);
    expect(noFlag).toMatchObject({ ok: false, status: 400, fieldErrors: { 'body.enabled': expect.any(Array) } });
    const badId = await service.call(Rpc.getWebhookDelivery, { deliveryId: 'nope' }, gold);
    expect(badId).toMatchObject({ ok: false, status: 400 });
  });

  it('never shows one owner another owner’s settings or deliveries', async () => {
    const naledi = owner('DigiGold');
    const sipho = owner('DigiGold');
    const secret = await saveEndpoint(naledi, '/naledi');
    const sent = await service.call(Rpc.sendTestWebhook, {}, naledi);
    if (!sent.ok) throw new Error(sent.message);
    await waitFor('naledi’s test lead', () => Promise.resolve(hits('/naledi').length > 0));
    expect(await service.call(Rpc.getWebhookDelivery, { deliveryId: sent.value.deliveryId }, sipho)).toMatchObject({
      ok: false,
      status: 404,
      message: CrmMessages.noDelivery,
    });
    expect(await service.call(Rpc.listWebhookDeliveries, {}, sipho)).toEqual({ ok: true, value: { deliveries: [], nextCursor: null } });
    expect(await service.call(Rpc.getWebhook, {}, sipho)).toEqual({ ok: true, value: { endpoint: null } });
    // Sipho's save makes his own endpoint and secret; Naledi's stays as it was.
    await saveEndpoint(sipho, '/sipho');
    const hers = await service.call(Rpc.getWebhook, {}, naledi);
    expect(hers).toMatchObject({ ok: true, value: { endpoint: { url: `${crmUrl}/naledi`, secret } } });
    expect(await service.call(Rpc.getWebhookDelivery, { deliveryId: sent.value.deliveryId }, naledi)).toMatchObject({ ok: true });
  });
});

describe('CRM webhooks: a deleted account', () => {
  it('forgets the account’s webhook, secret and delivery log', async () => {
    const gone = owner('DigiGold');
    await saveEndpoint(gone, '/deleted');
    const eventId = await service.publish(Events.leadCaptured, lead(gone.accountId));
    await waitFor('the post', () => Promise.resolve(hits('/deleted').length > 0));
    const kept = owner('DigiGold');
    await saveEndpoint(kept, '/kept');
    const deletedEvent = await service.publish(Events.userDeleted, { accountId: gone.accountId, deletedAt: new Date().toISOString() });
    await service.handled(Events.userDeleted, deletedEvent);
    expect(await service.sql('SELECT 1 FROM notifications.webhook_endpoints WHERE account_id = $1', [gone.accountId])).toEqual([]);
    expect(await deliveryOf(eventId)).toEqual([]);
    expect(
      await service.sql(
        'SELECT 1 FROM notifications.webhook_attempts a LEFT JOIN notifications.webhook_deliveries d ON d.id = a.delivery_id WHERE d.id IS NULL',
      ),
    ).toEqual([]);
    expect(await service.sql('SELECT 1 FROM notifications.webhook_endpoints WHERE account_id = $1', [kept.accountId])).toHaveLength(1);
  });
});

describe('the delivery log, a page at a time', () => {
  it('pages the owner’s deliveries newest first by cursor: none missing or repeated, another owner’s never shown, a bad cursor 400', async () => {
    const thandi = owner('DigiGold');
    const bongani = owner('DigiGold');
    // 23 of Thandi's (five of them in the same microsecond: the id orders those) and 4 of Bongani's, already delivered.
    const at = (i: number) => new Date(Date.UTC(2026, 10, 1, 8, 0, i < 5 ? 0 : i)).toISOString();
    const insert = (accountId: string, i: number) =>
      service.sql(
        `INSERT INTO notifications.webhook_deliveries (account_id, event_id, type, url, body, summary, status, attempts, created_at, updated_at)
         VALUES ($1, $2, 'lead.captured', 'https://crm.example.com/hook', '{}', $3, 'succeeded', 1, $4, $4) RETURNING id`,
        [accountId, `page-test-${randomUUID()}`, `Lead ${i}`, at(i)],
      );
    const hers: string[] = [];
    for (let i = 0; i < 23; i++) hers.push(((await insert(thandi.accountId, i))[0] as { id: string }).id);
    for (let i = 0; i < 4; i++) await insert(bongani.accountId, i);

    const seen: Array<{ id: string; createdAt: string }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Answer<WebhookDeliveryList> = await service.call(
        Rpc.listWebhookDeliveries,
        { limit: 5, ...(cursor ? { cursor } : {}) },
        thandi,
      );
      if (!page.ok) throw new Error(page.message);
      expect(page.value.deliveries.length).toBeLessThanOrEqual(5);
      seen.push(...page.value.deliveries);
      cursor = page.value.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen.map((d) => d.id).sort()).toEqual([...hers].sort());
    expect(new Set(seen.map((d) => d.id)).size).toBe(23);
    // Newest first.
    const times = seen.map((d) => d.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    // Bongani sees his four, never hers; Thandi's cursor opens nothing of his (a position in his own list).
    const first = await service.call(Rpc.listWebhookDeliveries, { limit: 5 }, thandi);
    if (!first.ok) throw new Error(first.message);
    const his = await service.call(Rpc.listWebhookDeliveries, { cursor: first.value.nextCursor! }, bongani);
    if (!his.ok) throw new Error(his.message);
    expect(his.value.deliveries.every((d) => !hers.includes(d.id))).toBe(true);
    const all = await service.call(Rpc.listWebhookDeliveries, {}, bongani);
    expect(all).toMatchObject({ ok: true, value: { nextCursor: null } });
    if (all.ok) expect(all.value.deliveries.map((d) => d.summary).sort()).toEqual(['Lead 0', 'Lead 1', 'Lead 2', 'Lead 3']);
    // A cursor that is not ours (refused by the request's schema, as the gateway's edge does), or one of another kind
    // of list (a position by text), is refused with a field error.
    expect(await service.call(Rpc.listWebhookDeliveries, { cursor: 'not-a-cursor' }, thandi)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.cursor': [PageMessages.badCursor] },
    });
    const byText = Buffer.from(JSON.stringify({ id: 'x', key: 'y' })).toString('base64url');
    expect(await service.call(Rpc.listWebhookDeliveries, { cursor: byText }, thandi)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { cursor: [PageMessages.badCursor] },
    });
    expect(await service.call(Rpc.listWebhookDeliveries, { limit: 101 }, thandi)).toMatchObject({ ok: false, status: 400 });
  });
});
