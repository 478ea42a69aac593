import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { z } from 'zod';
import { HttpRoutes, NUL_CHARACTER_MESSAGE, PageRoutes, type HttpRoute, type Role } from '@digicard/contracts';
import {
  MatrixSystemOptions,
  ParamRules,
  TestSystem,
  prepareMatrix,
  registerOwner,
  type ApiClient,
  type MatrixFixture,
} from '@digicard/testing';

/**
 * The HTTP edge fuzzed, route by route of HttpRoutes (plus the pages): a session cookie that is garbage, path
 * parameters and query strings that are, bodies that are not JSON, are JSON of the wrong shape, or hold a NUL
 * character in every text, sent as a caller the route lets in. No answer may be a 500, and each gets the 4xx it
 * should: garbage cookies read as signed out, a NUL is a field error, XML is 415, malformed JSON 400, garbage in a
 * path 404 (or 400). About five calls a route: a few hundred in all.
 */

const GARBAGE_COOKIE = '__Host-digicard_session=%E0%A4%A';
/** Malformed percent-encoding, a NUL, a path escape and an overlong value: what proxies and scanners send. */
const GARBAGE_SEGMENTS = ['%E0%A4%A', 'a%00b', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(300)];

/** The route table, each entry as the general type (its optional fields readable). */
const ROUTES: HttpRoute[] = Object.values(HttpRoutes);

type Answer = { status: number; body: any };
const describeAnswer = (a: Answer) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`;

/** A body for the route's schema with every text replaced by one holding a NUL (enums and literals kept). */
function nulBody(route: HttpRoute): unknown {
  const json = z.toJSONSchema(route.body!, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;
  const fill = (s: Record<string, any> | undefined): unknown => {
    if (!s) return 'a\u0000b';
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) return s.enum[0];
    const union = s.anyOf ?? s.oneOf;
    if (Array.isArray(union)) return fill(union.find((u: Record<string, any>) => u.type === 'object' || u.type === 'string') ?? union[0]);
    if (s.$ref && typeof s.$ref === 'string') return fill(json.$defs?.[s.$ref.split('/').pop()!]);
    switch (s.type) {
      case 'object':
        return Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, any>).map(([k, v]) => [k, fill(v)]));
      case 'array':
        return [fill(s.items)];
      case 'number':
      case 'integer':
        return 1;
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return 'a\u0000b';
    }
  };
  return fill(json);
}

const stringFieldsOf = (value: unknown, path: string[] = []): string[] =>
  typeof value === 'string' && value.includes('\u0000')
    ? [path.join('.') || '_form']
    : Array.isArray(value)
      ? value.flatMap((v, i) => stringFieldsOf(v, [...path, String(i)]))
      : value && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => stringFieldsOf(v, [...path, k]))
        : [];

describe('HTTP fuzz: every route of the table, garbage headers, cookies, paths and bodies', () => {
  let system: TestSystem;
  let fixture: MatrixFixture;
  /** The matrix's callers, and a team leader (the matrix has none: its team routes are refused to everyone). */
  let leader: { client: ApiClient; email: string; password: string };
  const problems: string[] = [];
  let calls = 0;

  /** A caller the route lets in (so the body and the parameters are what is checked), or the signed-out client. */
  type CallerName = keyof MatrixFixture['clients'] | 'leader';
  const callerFor = (route: HttpRoute): { client: ApiClient; name: CallerName } => {
    if (route.access === 'public') return { client: fixture.clients.signedOut, name: 'signedOut' };
    // A device with a pass token (well-formed, nobody's): past the gateway's check, so the input is what is checked.
    if (route.access === 'pass') return { client: passHolder(), name: 'signedOut' };
    // A SCIM client with a well-formed token nobody has: the gateway lets it through to the teams service (401 there).
    if (route.access === 'scim') return { client: scimHolder(), name: 'signedOut' };
    if (route.access === 'account') return { client: fixture.clients.owner, name: 'owner' };
    const byRole: Record<Role, CallerName> = {
      staff: 'staff',
      print: 'print',
      teamMember: 'teamMember',
      user: 'owner',
      teamLeader: 'leader',
    };
    const name = byRole[route.access[0]!];
    return { client: name === 'leader' ? leader.client : fixture.clients[name], name };
  };
  const passHolder = (): ApiClient => {
    const client = system.client();
    const request = client.request.bind(client);
    client.request = (path, init = {}) =>
      request(path, { ...init, headers: { authorization: `ApplePass ${'t'.repeat(43)}`, ...(init.headers ?? {}) } });
    return client;
  };
  const scimHolder = (): ApiClient => {
    const client = system.client();
    const request = client.request.bind(client);
    client.request = (path, init = {}) =>
      request(path, { ...init, headers: { authorization: `Bearer dcscim_${'t'.repeat(43)}`, ...(init.headers ?? {}) } });
    return client;
  };
  const pathOf = (route: HttpRoute, replace?: { param: string; value: string }) =>
    route.path.replace(/:([A-Za-z]+)/g, (_, p: string) =>
      replace?.param === p ? replace.value : encodeURIComponent(ParamRules[p]!.value(fixture)),
    );

  async function call(
    what: string,
    client: ApiClient,
    path: string,
    init: Parameters<ApiClient['request']>[1],
    expected: (a: Answer) => boolean,
    expectedText: string,
  ): Promise<Answer> {
    calls += 1;
    const res = await client.request(path, init);
    const answer = { status: res.status, body: res.body };
    if (res.status >= 500 || !expected(answer))
      problems.push(`${init?.method ?? 'GET'} ${path} (${what}): expected ${expectedText}, got ${describeAnswer(answer)}`);
    return answer;
  }

  /** Routes that end a session (sign-out, deleting the account): the caller signs in again after each. */
  async function keepSignedIn(name: CallerName): Promise<void> {
    if (name === 'signedOut') return;
    const client = name === 'leader' ? leader.client : fixture.clients[name];
    const session = (await client.request('/api/session')).body as { user?: unknown } | null;
    if (session?.user != null) return;
    await client.request('/api/session');
    const { email, password } = name === 'leader' ? leader : fixture.passwords[name];
    const res = await client.request('/api/session', { method: 'POST', body: { email, password } });
    assert.equal(res.status, 200, `sign-in again of ${name}`);
  }

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: [...MatrixSystemOptions.apps], env: MatrixSystemOptions.env });
    fixture = await prepareMatrix(system);
    const username = `leader-${Date.now().toString(36)}`;
    const who = await registerOwner(system, { username, firstName: 'Leader', lastName: 'Fuzz', email: `${username}@example.co.za` });
    await system.sql('UPDATE identity.accounts SET role = $1 WHERE id = $2', ['teamLeader', who.accountId]);
    await system.sql('UPDATE profiles.profiles SET role = $1 WHERE account_id = $2', ['teamLeader', who.accountId]);
    leader = { client: who.client, email: `${username}@example.co.za`, password: who.password };
    await who.client.request('/api/session', { method: 'DELETE' });
    await keepSignedIn('leader');
  }, 120_000);
  afterAll(() => system?.stop());

  it('reads a garbage session cookie as signed out, on every API route and on the pages', async () => {
    for (const route of ROUTES) {
      const client = system.client();
      client.cookie = GARBAGE_COOKIE;
      const method = route.method.toUpperCase();
      const answer = await call(
        'garbage cookie',
        client,
        pathOf(route),
        { method, ...(method === 'GET' ? {} : { body: {} }) },
        (a) => (route.access === 'public' ? a.status !== 401 && a.status !== 403 : a.status === 401),
        route.access === 'public' ? 'not 401/403 (a visitor)' : '401',
      );
      // A pass route has no session to be signed out of: its 401 says the pass token is missing.
      // A SCIM route answers in SCIM's format: its 401 says the token is missing.
      if (
        route.access !== 'public' &&
        route.access !== 'pass' &&
        route.access !== 'scim' &&
        answer.body?.message !== 'Please log in first.'
      )
        problems.push(`${route.operationId} (garbage cookie): not signed out: ${describeAnswer(answer)}`);
    }
    // The pages: the public profile, the home page, the dashboard (the web app answers it; it signs in in the browser).
    for (const path of ['/', '/dashboard', `/${fixture.owner.username}`]) {
      const client = system.client();
      client.cookie = GARBAGE_COOKIE;
      calls += 1;
      const res = await fetch(`${system.gatewayUrl}${path}`, { headers: { cookie: GARBAGE_COOKIE } });
      assert.equal(res.status, 200, `GET ${path} with a garbage cookie`);
      // The browser is told to forget the garbage.
      assert.match(res.headers.get('set-cookie') ?? '', /^__Host-digicard_session=;/, `GET ${path} clears the garbage cookie`);
    }
    // The session route answers as to a visitor, and other garbage shapes read the same.
    for (const cookie of [
      GARBAGE_COOKIE,
      '__Host-digicard_session=',
      '__Host-digicard_session="quoted"',
      `__Host-digicard_session=${'%'.repeat(100)}`,
      'a=%ZZ; __Host-digicard_session=x;;; =',
    ]) {
      calls += 1;
      const res = await fetch(`${system.gatewayUrl}/api/session`, { headers: { cookie } });
      assert.equal(res.status, 200, `GET /api/session with cookie ${cookie}`);
      assert.equal(((await res.json()) as { user: unknown }).user, null);
    }
    assert.deepEqual(problems.splice(0), []);
  }, 120_000);

  it('refuses a NUL in any text of any body with a field error, and bodies that are not JSON with 400 or 415', async () => {
    for (const route of ROUTES.filter((r) => r.method !== 'get' && !r.upload)) {
      const { client, name } = callerFor(route);
      const method = route.method.toUpperCase();
      const path = pathOf(route);
      if (route.body) {
        const body = nulBody(route);
        const fields = stringFieldsOf(body);
        // A body without text (a tier, a flag) would be valid: it is not sent, so nothing is changed.
        if (fields.length > 0) {
          const answer = await call('NUL in every text', client, path, { method, body }, (a) => a.status === 400, '400 with field errors');
          const named = Object.entries((answer.body?.fieldErrors ?? {}) as Record<string, string[]>)
            .filter(([, m]) => m.includes(NUL_CHARACTER_MESSAGE))
            .map(([f]) => f);
          if (named.length === 0)
            problems.push(`${method} ${path}: a NUL in ${fields.join(', ')} is not named as a field error: ${describeAnswer(answer)}`);
        }
        await call('malformed JSON', client, path, { method, body: '{"a":' }, (a) => a.status === 400, '400');
        await call(
          'JSON of the wrong shape',
          client,
          path,
          { method, body: '[1,"\\u0000",{"__proto__":{"x":1}}]' },
          (a) => a.status === 400,
          '400',
        );
        await call(
          'XML',
          client,
          path,
          { method, body: '<a>b</a>', headers: { 'content-type': 'application/xml' } },
          (a) => a.status === 415 && /JSON/.test(String(a.body?.message)),
          '415 asking for JSON',
        );
        await call(
          'JSON in a charset we do not read',
          client,
          path,
          { method, body: '{}', headers: { 'content-type': 'application/json; charset=iso-8859-1' } },
          (a) => a.status === 415,
          '415',
        );
      } else {
        // A route without a body does not read one: whatever is sent, no 500 (called signed out: no side effects).
        await call(
          'XML to a route without a body',
          fixture.clients.signedOut,
          path,
          { method, body: '<a/>', headers: { 'content-type': 'application/xml' } },
          (a) => a.status < 500,
          'no 500',
        );
      }
      await keepSignedIn(name);
    }
    assert.deepEqual(problems.splice(0), []);
  }, 180_000);

  it('answers garbage in path parameters with 404 (or 400), and garbage query strings without a 500', async () => {
    for (const route of ROUTES) {
      const { client, name } = callerFor(route);
      const method = route.method.toUpperCase();
      const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
      const init = {
        method,
        ...(method === 'GET'
          ? {}
          : route.upload
            ? { raw: Buffer.from([0, 1, 2, 0xff]), headers: { 'content-type': route.upload.replace('*', 'png') } }
            : { body: {} }),
      };
      for (const param of params) {
        for (const value of GARBAGE_SEGMENTS.slice(0, 2)) {
          await call(
            `garbage :${param}`,
            client,
            pathOf(route, { param, value }),
            init,
            (a) => a.status === 404 || a.status === 400,
            '404 or 400',
          );
        }
      }
      if (method === 'GET') {
        await call(
          'garbage query',
          client,
          `${pathOf(route)}?q=%E0%A4%A&from=a%00b&to=${GARBAGE_SEGMENTS[3]}&card=%00&src=%ZZ`,
          init,
          (a) => a.status < 500,
          'no 500',
        );
      }
      await keepSignedIn(name);
    }
    // The pages: a garbage username, media file or card serial is a page that does not exist, never a 500.
    for (const [page, value] of [
      [PageRoutes.publicProfile, '%E0%A4%A'],
      [PageRoutes.publicProfile, 'a%00b'],
      [PageRoutes.media, 'a%00b.webp'],
      [PageRoutes.cardRedirect, '%E0%A4%A'],
    ] as const) {
      calls += 1;
      const path = page.path.replace(/:[A-Za-z]+/, value);
      const res = await fetch(`${system.gatewayUrl}${path}`);
      if (res.status >= 500) problems.push(`GET ${path}: ${res.status}`);
    }
    assert.deepEqual(problems.splice(0), []);
  }, 180_000);

  it('refuses an ITN that is not text (a NUL, bytes that are not UTF-8) with 400, and garbage headers without a 500', async () => {
    const visitor = system.client();
    for (const raw of [
      Buffer.from([0x6d, 0x5f, 0x00, 0x3d, 0x31]),
      Buffer.from([0xff, 0xfe, 0xfd]),
      Buffer.from('m_payment_id=a%00b&amount_gross=1.00'),
    ]) {
      calls += 1;
      const res = await visitor.request('/api/payfast/notify', {
        method: 'POST',
        raw,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.ok(res.status < 500, `ITN ${raw.toString('hex')}: ${describeAnswer(res)}`);
      if (raw.includes(0) || !raw.equals(Buffer.from(raw.toString('utf8'))))
        assert.equal(res.status, 400, `ITN ${raw.toString('hex')}: ${describeAnswer(res)}`);
    }
    const headerSets: Record<string, string>[] = [
      { accept: '*/*;q=garbage', 'accept-encoding': 'gzip;q=x, br;q=-1', 'accept-language': '\u00ff'.repeat(10) },
      { 'x-forwarded-for': 'not-an-address, ::ffff:999.1.1.1', 'x-request-id': '%E0%A4%A'.repeat(20) },
      { 'user-agent': 'x'.repeat(4000), referer: 'http://[::1', 'if-none-match': '"', range: 'bytes=9-1' },
    ];
    for (const route of ROUTES.filter((r) => r.method === 'get')) {
      const { client } = callerFor(route);
      for (const headers of headerSets) {
        await call(
          `headers ${Object.keys(headers).join(',')}`,
          client,
          pathOf(route),
          { method: 'GET', headers },
          (a) => a.status < 500,
          'no 500',
        );
      }
    }
    for (const headers of [{ 'x-csrf-token': '%00' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      await call(
        'forged request headers',
        fixture.clients.owner,
        '/api/accounts/me/name',
        { method: 'PUT', body: { firstName: 'A', lastName: 'B' }, headers },
        (a) => a.status === 403,
        '403',
      );
    }
    assert.deepEqual(problems.splice(0), []);
    // The run stays small enough for npm test.
    assert.ok(calls > 200 && calls < 1200, `${calls} calls`);
  }, 180_000);
});
