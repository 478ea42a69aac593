import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { HttpRoutes } from '@digicard/contracts';
import { SALES_INBOX, TestSystem, withinOneWindow } from '@digicard/testing';

const callBack = { name: 'Thabo Mokoena', email: 'thabo@example.co.za', number: '0821234567' };
const message = { name: 'Lerato Dlamini', email: 'lerato@example.co.za', message: 'Do you print bamboo cards with our logo?' };

describe('enquiries through the gateway (gateway -> NATS -> orders -> outbox -> notifications -> SMTP)', () => {
  let system: TestSystem;
  const count = async () => Number((await system.sql<{ n: string }>('SELECT count(*) AS n FROM orders.enquiries'))[0]!.n);

  beforeAll(async () => {
    system = await TestSystem.start({ apps: ['mail-catcher', 'orders', 'notifications', 'gateway'] });
  });
  afterAll(() => system?.stop());

  it('stores a call-back request and emails the sales inbox', async () => {
    const res = await system.api('/api/enquiries/call-back', { body: { ...callBack, name: '  Thabo Mokoena ' } });
    assert.equal(res.status, 202);
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    const [row] = await system.sql('SELECT kind, name, email, phone, message FROM orders.enquiries WHERE id = $1', [res.body.id]);
    assert.deepEqual(row, { kind: 'call-back', name: 'Thabo Mokoena', email: callBack.email, phone: callBack.number, message: null });
    const mail = await system.mail.waitFor((m) => m.text.includes(res.body.id));
    assert.deepEqual(mail.to, [SALES_INBOX]);
    assert.equal(mail.subject, '[DigiCard] Call-back request from Thabo Mokoena');
    assert.equal(mail.replyTo, callBack.email);
    assert.match(mail.text, /Number: 0821234567/);
    assert.match(mail.html ?? '', /0821234567/);
  });

  it('stores a contact-page message and emails it, escaping what the visitor typed', async () => {
    const res = await system.api('/api/enquiries/message', { body: { ...message, message: '<script>alert(1)</script> & more' } });
    assert.equal(res.status, 202);
    const mail = await system.mail.waitFor((m) => m.text.includes(res.body.id));
    assert.equal(mail.subject, '[DigiCard] New message from Lerato Dlamini');
    assert.match(mail.text, /<script>alert\(1\)<\/script> & more/);
    assert.ok(!(mail.html ?? '').includes('<script>alert(1)'));
    assert.match(mail.html ?? '', /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; more/);
  });

  it('answers 400 with a message for every bad field and stores nothing', async () => {
    const before = await count();
    const cases: Array<[string, unknown, string[]]> = [
      ['/api/enquiries/call-back', {}, ['email', 'name', 'number']],
      ['/api/enquiries/call-back', { ...callBack, number: '082123456' }, ['number']],
      ['/api/enquiries/call-back', { ...callBack, number: '08212345678' }, ['number']],
      ['/api/enquiries/call-back', { ...callBack, email: 'thabo@' }, ['email']],
      ['/api/enquiries/call-back', { ...callBack, name: '   ' }, ['name']],
      ['/api/enquiries/call-back', { ...callBack, number: 821234567 }, ['number']],
      ['/api/enquiries/message', { ...message, message: '' }, ['message']],
      ['/api/enquiries/message', { ...message, message: 'x'.repeat(5001) }, ['message']],
      ['/api/enquiries/message', [], ['_form']],
    ];
    for (const [path, body, fields] of cases) {
      const res = await system.api(path, { body });
      assert.equal(res.status, 400, `${path} ${JSON.stringify(body).slice(0, 80)}`);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.deepEqual(Object.keys(res.body.fieldErrors).sort(), fields, JSON.stringify(res.body));
      for (const f of fields) assert.ok(res.body.fieldErrors[f][0].length > 5);
    }
    const broken = await system.api('/api/enquiries/call-back', { body: '{"name": "Thabo"' });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.message, 'The request body is not valid JSON.');
    const huge = await system.api('/api/enquiries/message', { body: { ...message, message: 'x'.repeat(200_000) } });
    assert.equal(huge.status, 413);
    assert.equal(await count(), before);
  });

  it('refuses a cross-site POST with 403 and stores nothing', async () => {
    const before = await count();
    const forged = await system.api('/api/enquiries/call-back', {
      body: callBack,
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    assert.equal(forged.status, 403);
    assert.equal(forged.body.code, 'FORBIDDEN');
    const otherOrigin = await system.api('/api/enquiries/call-back', {
      body: callBack,
      headers: { 'sec-fetch-site': '', origin: 'https://evil.example' },
    });
    assert.equal(otherOrigin.status, 403);
    assert.equal(await count(), before);
  });

  it('serves the web app: 200 for its pages with the site config, 404 for unknown pages and API routes', async () => {
    const home = await fetch(`${system.gatewayUrl}/`);
    assert.equal(home.status, 200);
    const html = await home.text();
    assert.match(html, /<script type="application\/json" id="site-config">\{"brandName":"DigiCard"/);
    assert.match(home.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.equal((await fetch(`${system.gatewayUrl}/contact`)).status, 200);
    const missing = await fetch(`${system.gatewayUrl}/no/such/page`);
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /text\/html/);
    const api = await system.api('/api/nothing-here');
    assert.equal(api.status, 404);
    assert.equal(api.body.code, 'NOT_FOUND');
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    assert.ok(asset, 'index.html references a hashed script');
    const script = await fetch(`${system.gatewayUrl}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(script.status, 200);
    assert.match(script.headers.get('cache-control') ?? '', /max-age=31536000, immutable/);
    assert.equal(script.headers.get('content-encoding'), 'gzip');
  });

  it('reports the health of every part it talks to', async () => {
    const res = await system.api('/api/health');
    assert.equal(res.status, 503, 'identity, profiles, teams and payments are not started in this file');
    assert.deepEqual(res.body, { status: 'down' }, 'the public port says up or down, nothing more');
    const detailed = await fetch(`${system.gatewayHealthUrl}/health/system`);
    assert.equal(detailed.status, 503);
    res.body = await detailed.json();
    assert.equal(res.body.checks.orders.status, 'up');
    assert.equal(res.body.checks.notifications.status, 'up');
    assert.equal(res.body.checks.nats.status, 'up');
    assert.equal(res.body.checks.redis.status, 'up');
    assert.equal(res.body.checks.identity.status, 'down');
    const ready = await fetch(`${system.gatewayUrl}/health`);
    assert.equal(ready.status, 200);
  });

  it('answers 503 when the orders service does not answer, and stores nothing', async () => {
    await system.stopApp('gateway');
    await system.startApp('gateway', { REQUEST_TIMEOUT_MS: '800' });
    await system.stopApp('orders');
    try {
      const res = await system.api('/api/enquiries/call-back', { body: callBack });
      assert.equal(res.status, 503);
      assert.equal(res.body.code, 'SERVICE_UNAVAILABLE');
      assert.match(res.body.message, /try again/);
    } finally {
      await system.startApp('orders');
    }
  });

  it('limits how often one address may submit (429)', async () => {
    await system.stopApp('gateway');
    // A key prefix of its own, so the submissions of the tests above do not count.
    await system.startApp('gateway', { ENQUIRY_RATE_LIMIT: '2/60', REDIS_KEY_PREFIX: `${system.redisPrefix}:limits` });
    await withinOneWindow(60);
    assert.equal((await system.api('/api/enquiries/call-back', { body: callBack })).status, 202);
    assert.equal((await system.api('/api/enquiries/message', { body: message })).status, 202);
    const third = await system.api('/api/enquiries/call-back', { body: callBack });
    assert.equal(third.status, 429);
    assert.equal(third.body.code, 'TOO_MANY_REQUESTS');
    assert.match(third.body.message, /try again in \d+ minute/);
  });

  it('exposes exactly the API routes its contract (and so the OpenAPI document) describes', () => {
    const mapped = new Set<string>();
    for (const line of system.logsOf('gateway')) {
      const m = /Mapped \{(\/(?:api|scim)\/[^,]*), (\w+)\} route/.exec(line);
      if (m) mapped.add(`${m[2]!.toLowerCase()} ${m[1]}`);
    }
    const described = new Set(Object.values(HttpRoutes).map((r) => `${r.method} ${r.path}`));
    assert.deepEqual([...mapped].sort(), [...described].sort());
  });

  it('stops gracefully on SIGTERM', async () => {
    assert.equal(await system.stopApp('gateway'), 0);
    assert.equal(await system.stopApp('notifications'), 0);
    assert.ok(system.logsOf('notifications').some((l) => l.includes('notifications stopped')));
  });
});
