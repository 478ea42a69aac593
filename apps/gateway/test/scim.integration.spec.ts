import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import SCIMMY from 'scimmy';
import { SMTPServer } from 'smtp-server';
import { SCIM_MEDIA_TYPE, ScimSchemas } from '@digicard/contracts';
import { registerOwner, type ApiClient } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// SCIM 2.0 provisioning (issue 27 item 2) at the gateway's edge: the in-process gateway with identity, profiles and
// teams behind it. The request sequences Microsoft Entra ID and Okta send (test/support/scim/*.json, from their SCIM
// guides) are replayed as a provider sends them; then the edges: the token (missing, unknown, another team's,
// revoked, never in the logs), SCIM's error format (a garbage filter, bad JSON), the tier, deactivation ending the
// rep's sessions and hiding their page, the audit list, the rate limit per token.

const here = dirname(fileURLToPath(import.meta.url));
const password = 'a long enough passphrase';

type Step = {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  totalResults?: number;
  capture?: 'id';
  scimType?: string;
  expect?: Record<string, unknown>;
};
type Sequence = { provider: string; steps: Step[] };

const fixture = (name: string): Sequence => JSON.parse(readFileSync(join(here, 'support/scim', name), 'utf8')) as Sequence;
const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);

describe('SCIM 2.0 at /scim/v2', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;
  let leaderA: ApiClient;
  let leaderB: ApiClient;
  let tokenA: string;
  let tokenB: string;
  /** Where notifications sends its emails: kept, to see the welcome email of a provisioned rep. */
  let smtp: SMTPServer;
  const mails: Array<{ to: string[]; text: string }> = [];

  async function leader(username: string, email: string, membership = 'DigiPlatinum'): Promise<{ client: ApiClient; accountId: string }> {
    const who = await registerOwner(system, { username, firstName: 'Lead', lastName: username, email, password }, { verify: false });
    await services.get('identity').sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1`, [who.accountId]);
    await services
      .get('profiles')
      .sql(`UPDATE profiles.profiles SET membership = $2, role = 'teamLeader' WHERE account_id = $1`, [who.accountId, membership]);
    const client = system.client();
    assert.equal((await client.request('/api/session', { body: { email, password } })).status, 200);
    return { client, accountId: who.accountId };
  }

  async function issueToken(client: ApiClient): Promise<string> {
    const issued = await client.request('/api/team/scim/token', { method: 'POST' });
    assert.equal(issued.status, 201, JSON.stringify(issued.body));
    assert.equal(issued.body.baseUrl, `${system.url}/scim/v2`);
    assert.match(issued.body.token, /^dcscim_[A-Za-z0-9_-]{43}$/);
    return issued.body.token as string;
  }

  /** A SCIM request as a provider sends it: the bearer token, SCIM's media type, no cookies. */
  async function scim(token: string | null, method: string, path: string, body?: unknown, contentType = SCIM_MEDIA_TYPE) {
    const res = await fetch(`${system.url}/scim/v2${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': contentType }),
        accept: SCIM_MEDIA_TYPE,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: (text ? JSON.parse(text) : null) as Record<string, unknown> & { Resources?: unknown[] },
    };
  }

  async function replay(sequence: Sequence, token: string, userName: string): Promise<string> {
    let id = '';
    for (const step of sequence.steps) {
      const fill = (text: string) => text.replaceAll('{{userName}}', userName).replaceAll('{{id}}', id);
      const body = step.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(step.body)));
      const res = await scim(token, step.method, fill(step.path), body);
      const where = `${sequence.provider}: ${step.name}: ${JSON.stringify(res.body)}`;
      assert.equal(res.status, step.status, where);
      if (res.status !== 204) assert.match(res.headers.get('content-type') ?? '', /^application\/scim\+json/, where);
      if (step.totalResults !== undefined) {
        assert.deepEqual(res.body['schemas'], [ScimSchemas.listResponse], where);
        assert.equal(res.body['totalResults'], step.totalResults, where);
        assert.equal(res.body.Resources?.length, step.totalResults, where);
      }
      if (step.capture) {
        id = res.body['id'] as string;
        assert.equal(res.headers.get('location'), `${system.url}/scim/v2/Users/${id}`, where);
        assert.equal(res.body['userName'], userName.toLowerCase(), where);
      }
      if (step.scimType) {
        assert.deepEqual(res.body['schemas'], [ScimSchemas.error], where);
        assert.equal(res.body['status'], String(step.status), where);
        assert.equal(res.body['scimType'], step.scimType, where);
      }
      for (const [path, value] of Object.entries(step.expect ?? {})) assert.deepEqual(at(res.body, path), value, `${where} (${path})`);
    }
    return id;
  }

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), text: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    system = await InProcessGateway.start({ RATE_LIMIT_SCIM_TOKEN: '40/60' });
    services = await ServicesBehind.start(system, ['identity', 'profiles', 'teams', 'notifications'], {
      notifications: { SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` },
    });
    ({ client: leaderA } = await leader('scim-lead-a', 'lead-a@scim-a.test'));
    ({ client: leaderB } = await leader('scim-lead-b', 'lead-b@scim-b.test'));
    tokenA = await issueToken(leaderA);
    tokenB = await issueToken(leaderB);
  }, 60_000);

  afterAll(async () => {
    await services?.stop();
    await system?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  it('serves the discovery documents', async () => {
    const config = await scim(null, 'GET', '/ServiceProviderConfig');
    assert.equal(config.status, 200);
    assert.deepEqual(config.body['schemas'], [ScimSchemas.serviceProviderConfig]);
    assert.deepEqual(config.body['patch'], { supported: true });
    assert.deepEqual(config.body['bulk'], { supported: false, maxOperations: 0, maxPayloadSize: 0 });
    const types = await scim(null, 'GET', '/ResourceTypes');
    assert.equal((types.body.Resources as Array<{ id: string }>)[0]!.id, 'User');
    const schemas = await scim(null, 'GET', '/Schemas');
    assert.equal((schemas.body.Resources as Array<{ id: string }>)[0]!.id, ScimSchemas.user);
  });

  it('takes Microsoft Entra ID’s request sequence: look up, create, read, filter, patch with paths, disable, conflict, delete', async () => {
    await replay(fixture('entra-id.json'), tokenA, 'Test_User_ab6490ee@contoso-a.test');
  });

  it('takes Okta’s request sequence: look up, create, read, replace, deactivate and reactivate with PATCH without a path', async () => {
    await replay(fixture('okta.json'), tokenA, 'test.user@okta-a.test');
    // Made as the Teams section makes a rep: the welcome email, with the link to choose a password.
    const deadline = Date.now() + 15_000;
    while (!mails.some((m) => m.to.includes('test.user@okta-a.test') && m.text.includes('/reset-password?token='))) {
      if (Date.now() > deadline) assert.fail(`no welcome email; emails to: ${mails.map((m) => m.to.join(',')).join(' | ')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('agrees with scimmy (an independent SCIM implementation) on users, list responses, errors and the standard PATCH forms', async () => {
    // scimmy checks what a standard client sends and reads back: the User resource (core schema, coerced both ways),
    // the filter, the ListResponse, the Error message; and it applies each PatchOp itself, for comparison.
    const body = new SCIMMY.Schemas.User(
      { userName: 'scimmy.user@scim-a.test', name: { givenName: 'Lindiwe', familyName: 'Sithole' }, externalId: 'scimmy-1', active: true },
      'in',
    );
    const made = await scim(tokenA, 'POST', '/Users', { schemas: [ScimSchemas.user], ...JSON.parse(JSON.stringify(body)) });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    let current = new SCIMMY.Schemas.User(made.body, 'out');
    assert.equal(current.id, made.body['id']);
    assert.equal(current.userName, 'scimmy.user@scim-a.test');

    const filter = 'userName eq "scimmy.user@scim-a.test"';
    assert.ok(new SCIMMY.Types.Filter(filter).length === 1, 'a filter scimmy reads');
    const listed = await scim(tokenA, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
    const list = new SCIMMY.Messages.ListResponse(listed.body as unknown as ConstructorParameters<typeof SCIMMY.Messages.ListResponse>[0]);
    assert.equal(list.totalResults, 1);
    for (const resource of listed.body.Resources ?? []) new SCIMMY.Schemas.User(resource, 'out');

    type Patch = NonNullable<ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0]>;
    const operationsList: Array<Patch['Operations']> = [
      [{ op: 'replace', value: { active: false } }],
      [{ op: 'replace', path: 'active', value: true }],
      [
        { op: 'replace', path: 'name.familyName', value: 'Sithole-Dube' },
        { op: 'add', path: 'title', value: 'Key accounts' },
      ],
    ];
    for (const Operations of operationsList) {
      const patch: Patch = { schemas: [ScimSchemas.patchOp], Operations };
      const expected = await new SCIMMY.Messages.PatchOp(patch).apply(current);
      const answer = await scim(tokenA, 'PATCH', `/Users/${current.id}`, patch);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const ours = new SCIMMY.Schemas.User(answer.body, 'out');
      assert.equal(ours.active, expected.active, JSON.stringify(Operations));
      assert.equal(ours.name?.familyName, expected.name?.familyName);
      assert.equal(ours.title, expected.title);
      current = ours;
    }

    const twice = await scim(tokenA, 'POST', '/Users', { schemas: [ScimSchemas.user], ...JSON.parse(JSON.stringify(body)) });
    assert.equal(twice.status, 409);
    assert.deepEqual(
      twice.body,
      JSON.parse(
        JSON.stringify(new SCIMMY.Messages.Error({ status: 409, scimType: 'uniqueness', detail: twice.body['detail'] as string })),
      ),
    );
  });

  it('answers 401 in SCIM’s format without a token or with one no team has; another team’s token gets 404 for this team’s user', async () => {
    for (const token of [null, 'dcscim_nobody-has-this-token-at-all-0000000000000']) {
      const res = await scim(token, 'GET', '/Users');
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, {
        schemas: [ScimSchemas.error],
        status: '401',
        detail: res.body['detail'],
      });
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
    const made = await scim(tokenA, 'POST', '/Users', {
      schemas: [ScimSchemas.user],
      userName: 'only.a@scim-a.test',
      name: { givenName: 'Only', familyName: 'A' },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body['id'] as string;
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { schemas: [ScimSchemas.user], userName: 'only.a@scim-a.test', name: { givenName: 'B', familyName: 'Took' } }],
      ['PATCH', { Operations: [{ op: 'replace', value: { active: false } }] }],
      ['DELETE', undefined],
    ] as const) {
      const res = await scim(tokenB, method, `/Users/${id}`, body);
      assert.equal(res.status, 404, `${method} with team B’s token`);
      assert.equal(res.body['status'], '404');
    }
    const listed = await scim(tokenB, 'GET', '/Users?filter=userName%20eq%20%22only.a%40scim-a.test%22');
    assert.equal(listed.body['totalResults'], 0);
    const still = await scim(tokenA, 'GET', `/Users/${id}`);
    assert.equal(still.status, 200);
    assert.equal(still.body['active'], true, 'nothing team B sent changed the user');
  });

  it('answers a garbage filter 400 invalidFilter, bad JSON and a bad resource 400 in SCIM’s format; all audited', async () => {
    const garbage = await scim(tokenA, 'GET', `/Users?filter=${encodeURIComponent('userName co "x" or 1=1')}`);
    assert.equal(garbage.status, 400);
    assert.deepEqual(garbage.body['schemas'], [ScimSchemas.error]);
    assert.equal(garbage.body['scimType'], 'invalidFilter');
    const json = await scim(tokenA, 'POST', '/Users', '{"userName": "broken@', 'application/json');
    assert.equal(json.status, 400);
    assert.equal(json.body['scimType'], 'invalidSyntax');
    const noName = await scim(tokenA, 'POST', '/Users', { schemas: [ScimSchemas.user], userName: 'not-an-email' });
    assert.equal(noName.status, 400);
    assert.equal(noName.body['scimType'], 'invalidValue');
    const asText = await scim(tokenA, 'POST', '/Users', 'userName=x', 'text/plain');
    assert.equal(asText.status, 400);
    assert.equal(asText.body['scimType'], 'invalidSyntax');
    const badJsonUnknownToken = await scim('dcscim_nobody-has-this-token-at-all-0000000000000', 'POST', '/Users', '{', 'application/json');
    assert.equal(badJsonUnknownToken.status, 401, 'an unknown token is told 401 before anything about its body');

    const audit = await leaderA.request('/api/team/scim/audit?limit=4');
    assert.equal(audit.status, 200);
    assert.deepEqual(
      (audit.body.entries as Array<{ method: string; status: number; outcome: string }>).map((e) => `${e.method} ${e.status} ${e.outcome}`),
      ['POST 400 invalidSyntax', 'POST 400 invalidValue', 'POST 400 invalidSyntax', 'GET 400 invalidFilter'],
    );
  });

  it('answers 503 in SCIM’s format while teams or identity does not answer, creating nothing; the provider’s retry creates the rep once', async () => {
    const { client } = await leader('scim-lead-f', 'lead-f@scim-f.test');
    const token = await issueToken(client);
    const user = { schemas: [ScimSchemas.user], userName: 'retry.me@scim-f.test', name: { givenName: 'Retry', familyName: 'Me' } };
    const members = () =>
      services.get('teams').sql<{ n: number }>('SELECT count(*)::int AS n FROM teams.members WHERE email = $1', [user.userName]);
    for (const away of ['teams', 'identity'] as const) {
      await services.get(away).pause();
      try {
        const res = await scim(token, 'POST', '/Users', user);
        assert.equal(res.status, 503, `${away} away: ${JSON.stringify(res.body)}`);
        assert.deepEqual([res.body['schemas'], res.body['status']], [[ScimSchemas.error], '503'], `${away} away`);
      } finally {
        await services.get(away).resume();
      }
    }
    assert.equal((await members())[0]!.n, 0, 'nothing was created while a service was away');
    assert.equal((await services.get('identity').sql(`SELECT 1 FROM identity.accounts WHERE email = $1`, [user.userName])).length, 0);
    const made = await scim(token, 'POST', '/Users', user);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const again = await scim(token, 'POST', '/Users', user);
    assert.equal(again.status, 409, 'a second create of the same userName is refused');
    const listed = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`);
    assert.equal(listed.body['totalResults'], 1);
  });

  it('refuses a NUL character, a binary body and a garbage cookie with a 4xx in SCIM’s format, never a 500', async () => {
    const withNul = await scim(tokenB, 'POST', '/Users', {
      schemas: [ScimSchemas.user],
      userName: 'nul@scim-b.test',
      name: { givenName: 'Nu\u0000l', familyName: 'Char' },
    });
    assert.equal(withNul.status, 400, JSON.stringify(withNul.body));
    assert.equal(withNul.body['scimType'], 'invalidValue');
    const nulInName = await scim(tokenB, 'POST', '/Users', {
      schemas: [ScimSchemas.user],
      userName: 'n\u0000ul@scim-b.test',
      name: { givenName: 'A', familyName: 'B' },
    });
    assert.equal(nulInName.status, 400, JSON.stringify(nulInName.body));
    const binary = await fetch(`${system.url}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenB}`, 'content-type': SCIM_MEDIA_TYPE, cookie: '__Host-digicard_session=%E0%A4%A; x=\u00ff' },
      body: Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x80, 0x81, 0x22]),
    });
    assert.equal(binary.status, 400);
    assert.equal(((await binary.json()) as { scimType?: string }).scimType, 'invalidSyntax');
    const withCookie = await fetch(`${system.url}/scim/v2/Users?count=1`, {
      headers: { authorization: `Bearer ${tokenB}`, cookie: '__Host-digicard_session=%E0%A4%A' },
    });
    assert.equal(withCookie.status, 200, 'a garbage cookie is ignored: no session stands behind a SCIM call');
    const nulFilter = await scim(tokenB, 'GET', `/Users?filter=${encodeURIComponent('userName eq "nul\u0000@scim-b.test"')}`);
    assert.deepEqual([nulFilter.status, nulFilter.body['scimType']], [400, 'invalidFilter']);
    const listed = await scim(tokenB, 'GET', `/Users?filter=${encodeURIComponent('userName eq "nul@scim-b.test"')}`);
    assert.equal(listed.body['totalResults'], 0, 'nothing was created');
  });

  it('refuses a leader without DigiPlatinum with a SCIM 403, creating nothing', async () => {
    const c = await leader('scim-lead-c', 'lead-c@scim-c.test');
    const token = await issueToken(c.client);
    await services.get('profiles').sql(`UPDATE profiles.profiles SET membership = 'DigiShare' WHERE account_id = $1`, [c.accountId]);
    const refused = await scim(token, 'POST', '/Users', { userName: 'nope@scim-c.test', name: { givenName: 'N', familyName: 'O' } });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.deepEqual(refused.body['schemas'], [ScimSchemas.error]);
    assert.equal(refused.body['status'], '403');
    const rows = await services.get('teams').sql(`SELECT 1 FROM teams.members WHERE leader_account_id = $1`, [c.accountId]);
    assert.equal(rows.length, 0);
  });

  it('deactivating a rep the Teams section added ends their sessions and hides their page; reactivating restores both', async () => {
    const added = await leaderA.request('/api/team/reps', {
      body: {
        username: 'scim-rep-z',
        firstName: 'Zanele',
        lastName: 'Zulu',
        email: 'zanele@scim-a.test',
        tel: '0821234567',
        password,
        leaderPassword: password,
      },
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const rep = system.client();
    assert.equal((await rep.request('/api/session', { body: { email: 'zanele@scim-a.test', password } })).status, 200);
    const waitFor = async (check: () => Promise<boolean>, what: string) => {
      const deadline = Date.now() + 10_000;
      while (!(await check())) {
        if (Date.now() > deadline) assert.fail(what);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const vcard = async () => (await system.client().request('/api/profiles/scim-rep-z/vcard')).status;
    await waitFor(async () => (await vcard()) === 200, 'the rep’s page is up');

    const found = await scim(tokenA, 'GET', '/Users?filter=userName%20eq%20%22Zanele%40scim-a.test%22');
    assert.equal(found.body['totalResults'], 1, 'SCIM sees the reps the Teams section added');
    const id = (found.body.Resources as Array<{ id: string }>)[0]!.id;
    const off = await scim(tokenA, 'PATCH', `/Users/${id}`, { Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    assert.equal(off.status, 200);
    assert.equal((await rep.request('/api/session')).body.user, null, 'signed out at once');
    const again = await system.client().request('/api/session', { body: { email: 'zanele@scim-a.test', password } });
    assert.equal(again.status, 401, 'no new sign-in while deactivated');
    await waitFor(async () => (await vcard()) === 404, 'the page is hidden');

    const on = await scim(tokenA, 'PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', value: { active: 'true' } }] });
    assert.equal(on.status, 200);
    assert.equal((await system.client().request('/api/session', { body: { email: 'zanele@scim-a.test', password } })).status, 200);
    await waitFor(async () => (await vcard()) === 200, 'the page is back');
  });

  it('lets the leader rotate and revoke the token; shows the state and the audit list, never the token', async () => {
    const before = await leaderB.request('/api/team/scim');
    assert.equal(before.status, 200);
    assert.equal(before.body.configured, true);
    assert.equal(before.body.token, undefined);
    const rotated = await issueToken(leaderB);
    assert.equal((await scim(tokenB, 'GET', '/Users')).status, 401, 'the old token stops working at once');
    assert.equal((await scim(rotated, 'GET', '/Users')).status, 200);
    const revoked = await leaderB.request('/api/team/scim/token', { method: 'DELETE' });
    assert.equal(revoked.status, 200);
    assert.equal((await scim(rotated, 'GET', '/Users')).status, 401);
    const after = await leaderB.request('/api/team/scim');
    assert.equal(after.body.configured, false);
    const repB = system.client();
    assert.equal((await repB.request('/api/team/scim')).status, 401, 'signed out: no settings');

    const logs = system.logs().join('\n');
    for (const token of [tokenA, tokenB, rotated]) {
      assert.ok(!logs.includes(token), 'no token in the gateway’s log');
      assert.ok(!logs.includes(token.slice(7, 30)), 'not even part of one');
    }
    for (const name of ['identity', 'teams', 'profiles'] as const) {
      const rows = await services.get(name).sql(`SELECT 1 FROM ${name}.outbox WHERE payload::text LIKE $1`, [`%${tokenA.slice(7)}%`]);
      assert.equal(rows.length, 0);
    }
  });

  it('limits the calls of one token (429 in SCIM’s format, Retry-After); another team’s token is not held up', async () => {
    const c = await leader('scim-lead-d', 'lead-d@scim-d.test');
    const token = await issueToken(c.client);
    let last = { status: 0, headers: new Headers(), body: {} as Record<string, unknown> };
    // The limit counts per fixed minute: 40 calls may straddle two minutes, so up to twice as many (81) are sent; one
    // minute then holds more than 40 of them.
    for (let i = 0; i < 81 && last.status !== 429; i++) last = await scim(token, 'GET', '/Users?count=1');
    assert.equal(last.status, 429);
    assert.equal(last.body['status'], '429');
    assert.ok(Number(last.headers.get('retry-after')) > 0);
    const e = await leader('scim-lead-e', 'lead-e@scim-e.test');
    assert.equal((await scim(await issueToken(e.client), 'GET', '/Users?count=1')).status, 200);
  });
});
