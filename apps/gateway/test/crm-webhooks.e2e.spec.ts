import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { CrmMessages } from '@digicard/contracts';
import { TestSystem, registerOwner, setMembership, waitFor, type TestOwner } from '@digicard/testing';

// The CRM routes through the gateway, every app a real process; a local HTTP server stands in for the owner's CRM.

describe('CRM webhooks through the gateway: tiers, bodies, owners, and a lead that reaches the CRM signed', () => {
  let system: TestSystem;
  let crm: Server;
  let crmUrl: string;
  const received: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];
  const owners = {} as Record<'share' | 'silver' | 'gold' | 'platinum', TestOwner>;

  beforeAll(async () => {
    crm = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(req.url === '/broken' ? 500 : 204).end();
      });
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
    crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'],
      env: { notifications: { CRM_WEBHOOK_ALLOW_LOCAL: 'true', CRM_WEBHOOK_RETRY_DELAYS_MS: '200,200' } },
    });
    const tiers = { share: 'DigiShare', silver: 'DigiSilver', gold: 'DigiGold', platinum: 'DigiPlatinum' } as const;
    for (const [key, tier] of Object.entries(tiers) as Array<[keyof typeof tiers, string]>) {
      owners[key] = await registerOwner(system, {
        username: `crm-${key}`,
        firstName: 'Owner',
        lastName: key,
        email: `crm-${key}@example.co.za`,
      });
      await setMembership(system, `crm-${key}`, tier);
    }
  });
  afterAll(async () => {
    await system?.stop();
    await new Promise<void>((resolve) => crm.close(() => resolve()));
  });

  const routes = (deliveryId = '00000000-0000-4000-8000-000000000000') =>
    [
      ['/api/crm/webhook', 'GET', undefined],
      ['/api/crm/webhook', 'PUT', { url: `${crmUrl}/x`, enabled: true }],
      ['/api/crm/webhook/secret', 'POST', {}],
      ['/api/crm/webhook/test', 'POST', {}],
      ['/api/crm/deliveries', 'GET', undefined],
      [`/api/crm/deliveries/${deliveryId}`, 'GET', undefined],
    ] as const;

  it('refuses a visitor (401) on every route', async () => {
    const visitor = system.client();
    for (const [path, method, body] of routes()) {
      const res = await visitor.request(path, { method, body });
      assert.equal(res.status, 401, `${method} ${path}`);
    }
  });

  it('refuses DigiShare and DigiSilver (403, the upgrade message) on every route, and stores nothing', async () => {
    for (const owner of [owners.share, owners.silver]) {
      for (const [path, method, body] of routes()) {
        const res = await owner.client.request(path, { method, body });
        assert.equal(res.status, 403, `${owner.username} ${method} ${path}`);
        assert.equal(res.body.message, CrmMessages.upgrade);
      }
    }
    assert.deepEqual(
      await system.sql('SELECT account_id FROM notifications.webhook_endpoints WHERE account_id = ANY($1::uuid[])', [
        [owners.share.accountId, owners.silver.accountId],
      ]),
      [],
    );
  });

  it('answers bad bodies with field errors, a missing CSRF token with 403, and a bad delivery id with 404', async () => {
    const { client } = owners.gold;
    const empty = await client.request('/api/crm/webhook', { method: 'PUT', body: {} });
    assert.equal(empty.status, 400);
    assert.ok(empty.body.fieldErrors.url && empty.body.fieldErrors.enabled);
    const ftp = await client.request('/api/crm/webhook', { method: 'PUT', body: { url: 'ftp://crm.example.com/hook', enabled: true } });
    assert.equal(ftp.status, 400);
    assert.deepEqual(ftp.body.fieldErrors, { url: [CrmMessages.httpsOnly] });
    const noCsrf = await client.request('/api/crm/webhook', { method: 'PUT', body: { url: `${crmUrl}/x`, enabled: true }, csrf: false });
    assert.equal(noCsrf.status, 403);
    assert.equal((await client.request('/api/crm/deliveries/not-a-uuid')).status, 404);
    assert.equal((await client.request('/api/crm/webhook/test', { method: 'POST', body: {} })).status, 404, 'nothing saved to test yet');
  });

  it('lets DigiGold save its CRM, posts a visitor’s lead to it signed, and logs it; DigiPlatinum may too', async () => {
    const { client } = owners.gold;
    assert.deepEqual((await client.request('/api/crm/webhook')).body, { endpoint: null });
    const saved = await client.request('/api/crm/webhook', { method: 'PUT', body: { url: `${crmUrl}/gold`, enabled: true } });
    assert.equal(saved.status, 200);
    const secret: string = saved.body.endpoint.secret;
    assert.match(secret, /^whsec_/);

    const visitor = system.client();
    const lead = await visitor.request('/api/profiles/crm-gold/leads', {
      body: {
        kind: 'lead',
        firstName: 'Zanele',
        lastName: 'Khumalo',
        email: 'zanele@example.co.za',
        phone: '082 123 4567',
        message: 'Quote please',
        consent: true,
      },
    });
    assert.equal(lead.status, 202);
    const hit = await waitFor('the CRM to get the lead', () => Promise.resolve(received.find((r) => r.path === '/gold') ?? null));
    const header = String(hit.headers['x-digicard-signature']);
    const t = /^t=(\d+),v1=[0-9a-f]{64}$/.exec(header)?.[1];
    assert.ok(t, header);
    assert.equal(header, `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${hit.body}`).digest('hex')}`);
    const body = JSON.parse(hit.body);
    assert.equal(body.type, 'lead.captured');
    assert.equal(body.id, hit.headers['x-digicard-event-id']);
    assert.deepEqual(
      [body.data.lead.firstName, body.data.lead.email, body.data.lead.phone, body.data.lead.message],
      ['Zanele', 'zanele@example.co.za', '+27821234567', 'Quote please'],
    );

    const log = await waitFor('the delivery logged', async () => {
      const res = await client.request('/api/crm/deliveries');
      return res.body.deliveries?.[0]?.status === 'succeeded' ? res.body.deliveries : null;
    });
    assert.deepEqual([log.length, log[0].summary, log[0].lastStatusCode, log[0].attempts], [1, 'Zanele Khumalo', 204, 1]);
    const detail = await client.request(`/api/crm/deliveries/${log[0].id}`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.attemptLog[0].statusCode, 204);

    // Someone else's delivery and settings: not found, not theirs.
    const other = owners.platinum.client;
    assert.equal((await other.request(`/api/crm/deliveries/${log[0].id}`)).status, 404);
    assert.deepEqual((await other.request('/api/crm/deliveries')).body, { deliveries: [], nextCursor: null });
    assert.deepEqual((await other.request('/api/crm/webhook')).body, { endpoint: null });

    // DigiPlatinum: a failing CRM is retried and logged as failed; the test send answers 202.
    assert.equal(
      (await other.request('/api/crm/webhook', { method: 'PUT', body: { url: `${crmUrl}/broken`, enabled: true } })).status,
      200,
    );
    const sent = await other.request('/api/crm/webhook/test', { method: 'POST', body: {} });
    assert.equal(sent.status, 202);
    const failed = await waitFor('the test delivery to fail', async () => {
      const res = await other.request(`/api/crm/deliveries/${sent.body.deliveryId}`);
      return res.body.status === 'failed' ? res.body : null;
    });
    assert.deepEqual(
      failed.attemptLog.map((a: { statusCode: number }) => a.statusCode),
      [500, 500, 500],
    );
    const rotated = await other.request('/api/crm/webhook/secret', { method: 'POST', body: {} });
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.endpoint.secret, secret);
  });
});
