import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { CrmMessages, Events, Rpc, type Membership } from '@digicard/contracts';
import type { NatsConnection } from '@digicard/messaging';
import { InProcessService } from '@digicard/service-testing';
import { DEFAULTS, waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { notificationsService } from '../src/service.js';
import { startProfilesStandIn } from './profiles-stand-in.js';

// The notifications service as in production: CRM_WEBHOOK_ALLOW_LOCAL=false (NODE_ENV=test would refuse anyway).
// Addresses on private networks are refused when saved, and again at delivery (an address that changed since).

let service: InProcessService<Config>;
let profilesStandIn: NatsConnection;
let local: Server;
let localPort: number;
let localHits = 0;
const tiers = new Map<string, Membership>();
const prefix = `ssrf-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  local = createServer((_req, res) => {
    localHits++;
    res.writeHead(200).end('should never be reached');
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  localPort = (local.address() as AddressInfo).port;
  service = await InProcessService.start(notificationsService(), {
    REDIS_URL: DEFAULTS.redisUrl,
    QUEUE_PREFIX: prefix,
    SMTP_URL: 'smtp://127.0.0.1:1',
    MAIL_FROM: 'DigiCard <no-reply@digicard.test>',
    SALES_INBOX: 'sales@digicard.test',
    PUBLIC_URL: 'http://localhost:8080',
    CRM_WEBHOOK_ALLOW_LOCAL: 'false',
    CRM_WEBHOOK_RETRY_DELAYS_MS: '50',
  });
  profilesStandIn = await startProfilesStandIn(service.natsUrl, tiers);
});

afterAll(async () => {
  await profilesStandIn?.close();
  await service?.stop();
  await new Promise<void>((resolve) => local.close(() => resolve()));
  const redis = new Redis(DEFAULTS.redisUrl);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const gold = () => {
  const accountId = randomUUID();
  tiers.set(accountId, 'DigiGold');
  return { accountId };
};

describe('CRM webhooks outside development: https to public addresses only', () => {
  it.each([
    ['http://crm.example.com/hook', CrmMessages.httpsOnly],
    [`http://127.0.0.1:${9}/hook`, CrmMessages.httpsOnly],
    ['https://127.0.0.1/hook', CrmMessages.privateAddress],
    ['https://localhost/hook', CrmMessages.privateAddress],
    ['https://10.0.0.8/hook', CrmMessages.privateAddress],
    ['https://192.168.1.10/hook', CrmMessages.privateAddress],
    ['https://172.20.0.1/hook', CrmMessages.privateAddress],
    ['https://169.254.169.254/latest/meta-data', CrmMessages.privateAddress],
    ['https://100.64.0.1/hook', CrmMessages.privateAddress],
    ['https://[::1]/hook', CrmMessages.privateAddress],
    ['https://[fd00::1]/hook', CrmMessages.privateAddress],
    ['https://[fe80::1]/hook', CrmMessages.privateAddress],
    ['https://[::ffff:127.0.0.1]/hook', CrmMessages.privateAddress],
    ['https://no-such-host.invalid/hook', CrmMessages.unresolvable],
  ])('refuses to save %s (400 on the url field)', async (url, message) => {
    const owner = gold();
    const answer = await service.call(Rpc.saveWebhook, { url, enabled: true }, owner);
    expect(answer).toMatchObject({ ok: false, status: 400, fieldErrors: { url: [message] } });
    expect(await service.sql('SELECT 1 FROM notifications.webhook_endpoints WHERE account_id = $1', [owner.accountId])).toEqual([]);
  });

  it('checks again at delivery: an endpoint that now points inside is not posted to, and the attempt says why', async () => {
    const owner = gold();
    // As if it had resolved to a public address when saved, and to loopback now (DNS rebinding).
    await service.sql("INSERT INTO notifications.webhook_endpoints (account_id, url, secret) VALUES ($1, $2, 'whsec_x')", [
      owner.accountId,
      `https://127.0.0.1:${localPort}/hook`,
    ]);
    const eventId = await service.publish(Events.leadCaptured, {
      leadId: randomUUID(),
      accountId: owner.accountId,
      ownerEmail: 'owner@example.test',
      ownerFirstName: 'Naledi',
      kind: 'lead',
      firstName: 'Thabo',
      lastName: 'Mokoena',
      email: 'thabo@example.test',
      phone: '',
      message: '',
      createdAt: new Date().toISOString(),
    });
    const [row] = await waitFor('the delivery to fail', async () => {
      const rows = await service.sql<{ id: string; status: string; attempts: number }>(
        'SELECT id, status, attempts FROM notifications.webhook_deliveries WHERE event_id = $1',
        [eventId],
      );
      return rows[0]?.status === 'failed' ? rows : null;
    });
    const detail = await service.call(Rpc.getWebhookDelivery, { deliveryId: row!.id }, owner);
    if (!detail.ok) throw new Error(detail.message);
    expect(detail.value.attemptLog).toHaveLength(2);
    for (const attempt of detail.value.attemptLog)
      expect(attempt).toMatchObject({ statusCode: null, error: `Not sent: ${CrmMessages.privateAddress}` });
    expect(localHits).toBe(0);
  });
});
