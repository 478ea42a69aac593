import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { HttpRoutes, OperationsRoutes, PageRoutes } from '@digicard/contracts';
import { InProcessGateway } from './support/in-process-gateway.js';

const lead = { kind: 'lead', firstName: 'Lindiwe', email: 'lindiwe@example.co.za', consent: true };

/**
 * The gateway alone, in the test's process (the in-process harness), with no service behind it: what `@Route` applies, and in which order (body, access, path
 * parameters, limits, sign-in). A call that gets past all of them reaches NATS, where nobody answers: 503.
 */
describe('the route tables drive every gateway handler', () => {
  let system: InProcessGateway;

  beforeAll(async () => {
    system = await InProcessGateway.start({
      RATE_LIMIT_LOGIN_ACCOUNT: '2/600',
      RATE_LIMIT_LOGIN_IP: '2/86400',
      ENQUIRY_RATE_LIMIT: '1/600',
      REQUEST_TIMEOUT_MS: '1000',
    });
  });
  afterAll(() => system?.stop());

  it('keeps an idle keep-alive connection open past Node’s 5 s, so the client or a load balancer closes it first', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = request(`${system.url}/api/catalogue`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const first = await get();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get();
      assert.equal(second.socket, first.socket, 'the same connection, still open after 6 s idle');
      assert.equal(second.status, first.status);
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it('maps exactly the entries of the route tables, the web app’s fallback last', () => {
    const mapped = system
      .logs()
      .map((line) => /Mapped \{(.*), (\w+)\} route/.exec(line))
      .filter((m) => m !== null)
      .map((m) => `${m[2]!.toLowerCase()} ${m[1]}`);
    const tables = [...Object.values(HttpRoutes), ...Object.values(OperationsRoutes), ...Object.values(PageRoutes)];
    assert.deepEqual([...mapped].sort(), tables.map((r) => `${r.method} ${r.path}`).sort());
    assert.equal(mapped.at(-1), 'get /{*path}');
  });

  it('checks the body first (400, not counted), then the limits, and only then asks for the password', async () => {
    const visitor = system.client();
    for (let i = 0; i < 3; i++) {
      const empty = await visitor.request('/api/session', { body: { email: '', password: '' } });
      assert.equal(empty.status, 400);
      assert.deepEqual(Object.keys(empty.body.fieldErrors).sort(), ['email', 'password']);
    }
    const body = { email: ' Thabo@Example.co.za ', password: 'a password of his' };
    // Passport's local strategy asks the identity service, which is not running.
    assert.equal((await visitor.request('/api/session', { body })).status, 503);
    assert.equal(
      (await visitor.request('/api/session', { body: { ...body, email: 'thabo@example.co.za' } })).status,
      503,
      'one account: the email is trimmed and lower-cased',
    );
    // The per-address limit (2) counts every attempt the body check let through; the per-account one counts failed
    // passwords only (sign-in-limits.e2e.spec.ts), and a sign-in the service could not check is none.
    const limited = await visitor.request('/api/session', { body });
    assert.equal(limited.status, 429, 'the limit is counted before the password is checked');
    assert.equal(limited.body.code, 'TOO_MANY_REQUESTS');
  });

  it('answers signed-out callers of account routes 401 "Please log in first.", before the body check', async () => {
    const visitor = system.client();
    for (const [path, method] of [
      ['/api/profile', 'GET'],
      ['/api/profile/leads', 'GET'],
      ['/api/email-verification/resend', 'POST'],
      ['/api/profile/images/nothing-such', 'POST'],
    ] as const) {
      const res = await visitor.request(path, { method });
      assert.equal(res.status, 401, path);
      assert.deepEqual(res.body, { statusCode: 401, code: 'UNAUTHORIZED', message: 'Please log in first.' });
    }
    // Access comes before the body: a caller without it learns nothing from the field errors.
    assert.equal((await visitor.request('/api/profile', { method: 'PUT', body: {} })).status, 401);
    assert.equal((await visitor.request('/api/accounts/me', { method: 'DELETE', body: { password: 'x' } })).status, 401);
  });

  it('answers 404 for a path parameter that names nothing, before counting the limit', async () => {
    const visitor = system.client();
    for (let i = 0; i < 2; i++) {
      const res = await visitor.request('/api/profiles/Not_A_Name/leads', { body: lead });
      assert.equal(res.status, 404);
      assert.equal(res.body.message, 'Profile not found.');
    }
    assert.equal((await visitor.request('/api/catalogue/PVC-CARD')).body.message, 'Card not found');
    assert.equal((await visitor.request('/media/not-an-image.gif')).status, 404);
    assert.equal(
      (await visitor.request('/api/profiles/thabo/leads', { body: lead })).status,
      503,
      'counted once, then the service is asked',
    );
    assert.equal((await visitor.request('/api/profiles/thabo/leads', { body: lead })).status, 429);
  });
});
