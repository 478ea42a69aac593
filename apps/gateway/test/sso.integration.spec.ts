import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ErrorCode, SsoMessages } from '@digicard/contracts';
import { registerOwner, type ApiClient } from '@digicard/testing';
// The provider (oidc-provider, koa) only where a test needs it: not in the package's main entry.
import { OidcTestProvider } from '@digicard/testing/oidc-provider';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// Company sign-in (issue 27 item 1): a leader connects the team's OpenID Connect provider; reps sign in with their
// company account. The gateway in the test's process with identity, profiles and teams behind it, and a real OpenID
// Connect provider (oidc-provider) on a free local port, whose token endpoint a test can make answer with a bad ID
// token (forged, expired, another audience). The browser is a small cookie jar following redirects by hand.

const password = 'a long enough passphrase';
const SSO_SECRET_KEY = randomBytes(32).toString('base64');

/** A browser: cookies per origin, redirects followed by hand (so each hop can be looked at). */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  constructor(private readonly gatewayUrl: string) {}

  cookie(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).origin)?.get(name);
  }

  setCookie(url: string, name: string, value: string): void {
    const origin = new URL(url).origin;
    if (!this.jar.has(origin)) this.jar.set(origin, new Map());
    this.jar.get(origin)!.set(name, value);
  }

  async request(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const cookies = [...(this.jar.get(origin) ?? new Map<string, string>()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookies ? { cookie: cookies } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        // The web app's own calls are same-origin; a navigation back from the provider is cross-site.
        ...(origin === this.gatewayUrl ? { 'sec-fetch-site': method === 'GET' ? 'cross-site' : 'same-origin' } : {}),
        ...(method === 'GET' ? {} : { origin }),
        ...(init.headers ?? {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      const cleared = value.join('=') === '' || attributes.some((a) => /^\s*(max-age=0|expires=Thu, 01 Jan 1970)/i.test(a));
      if (!this.jar.has(origin)) this.jar.set(origin, new Map());
      if (cleared) this.jar.get(origin)!.delete(name!.trim());
      else this.jar.get(origin)!.set(name!.trim(), value.join('='));
    }
    return res;
  }

  /** Follows redirects from `url` until one leads back into the gateway's own pages; answers the hops. */
  async follow(url: string): Promise<{ hops: string[]; final: Response }> {
    const hops = [url];
    let res = await this.request(url);
    while (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, hops.at(-1)).href;
      hops.push(next);
      if (next.startsWith(this.gatewayUrl) && !next.startsWith(`${this.gatewayUrl}/api/`)) break;
      res = await this.request(next);
    }
    return { hops, final: res };
  }
}

describe('company sign-in (OpenID Connect) for teams', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;
  let idp: OidcTestProvider;
  let leaderA: ApiClient;
  let leaderB: ApiClient;
  let teamAId: string;

  async function leader(username: string, email: string): Promise<ApiClient> {
    const who = await registerOwner(system, { username, firstName: 'Lead', lastName: username, email, password }, { verify: false });
    await services.get('identity').sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1`, [who.accountId]);
    await services
      .get('profiles')
      .sql(`UPDATE profiles.profiles SET membership = 'DigiPlatinum', role = 'teamLeader' WHERE account_id = $1`, [who.accountId]);
    const client = system.client();
    assert.equal((await client.request('/api/session', { body: { email, password } })).status, 200);
    return client;
  }

  async function addRep(lead: ApiClient, username: string, email: string): Promise<void> {
    const added = await lead.request('/api/team/reps', {
      body: { username, firstName: 'Rep', lastName: username, email, tel: '0821234567', password, leaderPassword: password },
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
  }

  const settingsFor = (domains: string[], extra: Record<string, unknown> = {}) => ({
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    domains,
    required: false,
    ...extra,
  });

  /** "Sign in with your company account" in a fresh browser, as `email` at the provider; where it ends, and the browser. */
  async function companySignIn(start: { email: string } | { team: string }, asEmail: string) {
    const browser = new Browser(system.url);
    idp.signInAs(`idp-${asEmail}`, asEmail);
    const started = await browser.request(`${system.url}/api/sso/start`, { body: start });
    assert.equal(started.status, 200, await started.clone().text());
    const { redirectUrl } = (await started.json()) as { redirectUrl: string };
    const { hops } = await browser.follow(redirectUrl);
    const callback = hops.find((h) => h.startsWith(`${system.url}/api/sso/callback`));
    assert.ok(callback, `the provider sent the browser back: ${hops.join(' -> ')}`);
    const session = await browser.request(`${system.url}/api/session`);
    const user = ((await session.json()) as { user: { email: string; role: string } | null }).user;
    return { browser, landed: hops.at(-1)!.slice(system.url.length), callback, user, redirectUrl };
  }

  beforeAll(async () => {
    // The provider is on this machine (127.0.0.1): private addresses allowed here, as in development.
    system = await InProcessGateway.start({
      SSO_SECRET_KEY,
      SSO_ALLOW_PRIVATE_ISSUERS: 'true',
      RATE_LIMIT_LOGIN_IP: '1000/60',
      RATE_LIMIT_REGISTER_IP: '1000/60',
    });
    services = await ServicesBehind.start(system, ['identity', 'profiles', 'teams']);
    idp = await OidcTestProvider.start(`${system.url}/api/sso/callback`);
    leaderA = await leader('acme-lead', 'lead@acme.test');
    leaderB = await leader('bravo-lead', 'lead@bravo.test');
    await addRep(leaderA, 'acme-rep', 'thandi@acme.test');
    await addRep(leaderB, 'bravo-rep', 'sipho@bravo.test');
    // A rep of team B whose address is on team A's domain: A's provider may vouch for it, but it is not A's rep.
    await addRep(leaderB, 'bravo-stray', 'zanele@acme.test');
  });
  afterAll(async () => {
    await idp?.stop();
    await services?.stop();
    await system?.stop();
  });

  it('a leader saves the provider; the secret is stored encrypted and never comes back; bad input is 400 with field errors', async () => {
    const before = await leaderA.request('/api/team/sso');
    assert.equal(before.status, 200);
    assert.equal(before.body.configured, false);
    assert.equal(before.body.redirectUri, `${system.url}/api/sso/callback`);

    const bad = await leaderA.request('/api/team/sso', {
      method: 'PUT',
      body: { issuer: 'ftp://idp.example', clientId: '', domains: ['not a domain'], required: 'yes' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body.fieldErrors).sort().join(','), 'clientId,domains.0,issuer,required');
    const noSecret = await leaderA.request('/api/team/sso', { method: 'PUT', body: settingsFor(['acme.test'], { clientSecret: '' }) });
    assert.equal(noSecret.status, 400);
    assert.deepEqual(noSecret.body.fieldErrors, { clientSecret: [SsoMessages.clientSecretRequired] });
    const nowhere = await leaderA.request('/api/team/sso', {
      method: 'PUT',
      body: settingsFor(['acme.test'], { issuer: `http://127.0.0.1:${idp.port + 1}` }),
    });
    assert.equal(nowhere.status, 400, 'an issuer that answers no discovery');
    assert.ok(nowhere.body.fieldErrors.issuer);

    const saved = await leaderA.request('/api/team/sso', { method: 'PUT', body: settingsFor(['Acme.test']) });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.configured, true);
    assert.equal(saved.body.hasClientSecret, true);
    assert.equal(saved.body.domains.join(','), 'acme.test');
    assert.ok(!JSON.stringify(saved.body).includes(idp.clientSecret));
    teamAId = saved.body.teamId as string;

    // Saving again without a secret keeps the stored one.
    const again = await leaderA.request('/api/team/sso', { method: 'PUT', body: settingsFor(['acme.test'], { clientSecret: '' }) });
    assert.equal(again.status, 200);
    assert.equal(again.body.teamId, teamAId);
    const read = await leaderA.request('/api/team/sso');
    assert.ok(!JSON.stringify(read.body).includes(idp.clientSecret));
    assert.equal(read.body.hasClientSecret, true);

    const [row] = await services
      .get('teams')
      .sql<{ client_secret_ciphertext: string }>('SELECT client_secret_ciphertext FROM teams.sso_providers');
    assert.match(row!.client_secret_ciphertext, /^v1\./);
    assert.ok(!row!.client_secret_ciphertext.includes(idp.clientSecret));
  });

  it('a gateway that does not allow private addresses refuses an issuer on one (SSRF), before calling it', async () => {
    const strict = await InProcessGateway.start({ SSO_SECRET_KEY }, { natsUrl: system.natsUrl });
    try {
      const lead = strict.client();
      assert.equal((await lead.request('/api/session', { body: { email: 'lead@bravo.test', password } })).status, 200);
      const refused = await lead.request('/api/team/sso', { method: 'PUT', body: settingsFor(['bravo.test']) });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.fieldErrors, { issuer: [SsoMessages.issuerPrivate] });
      // A name is resolved in the connection itself and refused there (src/sso/provider-fetch.spec.ts: DNS rebinding).
      const named = await lead.request('/api/team/sso', {
        method: 'PUT',
        body: { ...settingsFor(['bravo.test']), issuer: idp.issuer.replace('127.0.0.1', 'localhost') },
      });
      assert.equal(named.status, 400);
      assert.deepEqual(named.body.fieldErrors, { issuer: [SsoMessages.issuerPrivate] });
      assert.equal((await lead.request('/api/team/sso')).body.configured, false, 'nothing stored');
    } finally {
      await strict.stop();
    }
  });

  it('another leader gets their own settings, cannot take a domain of team A, and reps and visitors are refused the settings', async () => {
    const own = await leaderB.request('/api/team/sso');
    assert.equal(own.body.configured, false, 'team A’s settings are not team B’s');
    const taken = await leaderB.request('/api/team/sso', { method: 'PUT', body: settingsFor(['bravo.test', 'acme.test']) });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body.fieldErrors, { 'domains.1': [SsoMessages.domainTaken] });
    const saved = await leaderB.request('/api/team/sso', { method: 'PUT', body: settingsFor(['bravo.test']) });
    assert.equal(saved.status, 200);
    assert.notEqual(saved.body.teamId, teamAId);

    const rep = system.client();
    assert.equal((await rep.request('/api/session', { body: { email: 'sipho@bravo.test', password } })).status, 200);
    assert.equal((await rep.request('/api/team/sso')).status, 403);
    assert.equal((await rep.request('/api/team/sso', { method: 'PUT', body: settingsFor(['x.test']) })).status, 403);
    assert.equal((await system.client().request('/api/team/sso')).status, 401);
    assert.equal((await leaderA.request('/api/team/sso', { method: 'PUT', body: settingsFor(['acme.test']), csrf: false })).status, 403);
  });

  it('a rep signs in with the company account (by email domain): the gateway’s ordinary session, the rep’s role', async () => {
    const { landed, user, redirectUrl, browser } = await companySignIn({ email: 'Thandi@Acme.test' }, 'thandi@acme.test');
    const auth = new URL(redirectUrl);
    assert.equal(auth.origin, idp.issuer);
    assert.equal(auth.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(auth.searchParams.get('state') && auth.searchParams.get('nonce') && auth.searchParams.get('code_challenge'));
    assert.equal(landed, '/dashboard');
    assert.equal(user?.email, 'thandi@acme.test');
    assert.equal(user?.role, 'teamMember');
    // The session works like a password one: the rep's own profile, and a CSRF-checked sign-out.
    assert.equal((await browser.request(`${system.url}/api/profile`)).status, 200);
  });

  it('the leader signs in through the team link; a team link that names no team is 404, a malformed one 400', async () => {
    const { landed, user } = await companySignIn({ team: teamAId }, 'lead@acme.test');
    assert.equal(landed, '/dashboard');
    assert.equal(user?.role, 'teamLeader');
    const unknown = await system.client().request('/api/sso/start', { body: { team: '00000000-0000-4000-8000-000000000000' } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.message, SsoMessages.noProvider);
    const malformed = await system.client().request('/api/sso/start', { body: { team: 'acme' } });
    assert.equal(malformed.status, 400);
    assert.ok(malformed.body.fieldErrors.team);
    const noDomain = await system.client().request('/api/sso/start', { body: { email: 'someone@elsewhere.test' } });
    assert.equal(noDomain.status, 404);
    const notEmail = await system.client().request('/api/sso/start', { body: { email: 'thandi' } });
    assert.equal(notEmail.status, 400);
    assert.ok(notEmail.body.fieldErrors.email);
    assert.equal((await system.client().request('/api/sso/start', { body: {} })).body.fieldErrors.email.length, 1);
  });

  for (const [tamper, what, check] of [
    ['forged', 'signed with a key the provider does not publish', /JWT signature verification failed/],
    ['expired', 'expired an hour ago', /"exp" \(expiration time\) claim value, expiration is past current timestamp/],
    ['audience', 'issued to another client', /unexpected JWT "aud" \(audience\) claim value/],
  ] as const) {
    it(`an ID token ${what} is refused: no session, the login page says why`, async () => {
      idp.tamper = tamper;
      try {
        const { landed, user } = await companySignIn({ email: 'thandi@acme.test' }, 'thandi@acme.test');
        assert.equal(landed, '/login?sso_error=failed');
        assert.equal(user, null);
      } finally {
        idp.tamper = 'none';
      }
      const refusals = system.logs().filter((line) => line.includes('sso sign-in refused'));
      const { reason } = JSON.parse(refusals.at(-1) ?? '{}') as { reason?: string };
      assert.match(reason ?? '', check, 'refused by that check, and logged with its reason');
    });
  }

  it('a replayed callback (the same state and code, even with the browser’s cookie) is refused; so is one from another browser', async () => {
    const first = await companySignIn({ email: 'thandi@acme.test' }, 'thandi@acme.test');
    assert.equal(first.landed, '/dashboard');
    const replay = new Browser(system.url);
    const binding = first.browser.cookie(system.url, '__Host-digicard_sso');
    assert.equal(binding, undefined, 'the callback cleared the binding cookie');
    const { hops } = await replay.follow(first.callback);
    assert.equal(hops.at(-1), `${system.url}/login?sso_error=expired`);
    assert.equal(((await (await replay.request(`${system.url}/api/session`)).json()) as { user: unknown }).user, null);

    // Login CSRF: a callback the provider gave browser A, opened in browser B (which never started a sign-in).
    const a = new Browser(system.url);
    idp.signInAs('idp-thandi', 'thandi@acme.test');
    const started = await a.request(`${system.url}/api/sso/start`, { body: { email: 'thandi@acme.test' } });
    const { redirectUrl } = (await started.json()) as { redirectUrl: string };
    let url = redirectUrl;
    for (;;) {
      const res = await a.request(url);
      url = new URL(res.headers.get('location')!, url).href;
      if (url.startsWith(`${system.url}/api/sso/callback`)) break;
    }
    const b = new Browser(system.url);
    const stolen = await b.follow(url);
    assert.equal(stolen.hops.at(-1), `${system.url}/login?sso_error=expired`);
    assert.equal(((await (await b.request(`${system.url}/api/session`)).json()) as { user: unknown }).user, null);
  });

  it('a person who cancels at the provider comes back to the login page, told so, signed out', async () => {
    idp.cancelNext = true;
    const { landed, user } = await companySignIn({ email: 'thandi@acme.test' }, 'thandi@acme.test');
    assert.equal(landed, '/login?sso_error=cancelled');
    assert.equal(user, null);
  });

  it('an email of another team is refused with a clear message, at the domain and at the membership', async () => {
    // zanele@acme.test is a rep of team B: team A's provider vouches for the address, but she is not A's.
    const stray = await companySignIn({ email: 'zanele@acme.test' }, 'zanele@acme.test');
    assert.equal(stray.landed, '/login?sso_error=other-team');
    assert.equal(stray.user, null);
    // Team A's provider vouching for an address of team B's domain.
    const other = await companySignIn({ team: teamAId }, 'sipho@bravo.test');
    assert.equal(other.landed, '/login?sso_error=other-team');
    assert.equal(other.user, null);
    // An address of the domain with no account at all.
    const nobody = await companySignIn({ team: teamAId }, 'nobody@acme.test');
    assert.equal(nobody.landed, '/login?sso_error=no-account');
    assert.match(SsoMessages.errors['other-team'], /not a member of this team/);
  });

  it('with SSO required, a rep’s right password is refused with the way in; the leader and other teams keep their passwords', async () => {
    const required = await leaderA.request('/api/team/sso', {
      method: 'PUT',
      body: settingsFor(['acme.test'], { clientSecret: '', required: true }),
    });
    assert.equal(required.status, 200);
    assert.equal(required.body.required, true);

    const rep = system.client();
    const refused = await rep.request('/api/session', { body: { email: 'thandi@acme.test', password } });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { statusCode: 403, code: ErrorCode.SsoRequired, message: SsoMessages.required });
    assert.equal(rep.sessionId, null, 'no session');
    const wrong = await rep.request('/api/session', { body: { email: 'thandi@acme.test', password: 'not the password at all' } });
    assert.equal(wrong.status, 401, 'a wrong password still learns nothing more');

    assert.equal((await system.client().request('/api/session', { body: { email: 'lead@acme.test', password } })).status, 200);
    assert.equal((await system.client().request('/api/session', { body: { email: 'sipho@bravo.test', password } })).status, 200);
    assert.equal((await system.client().request('/api/session', { body: { email: 'zanele@acme.test', password } })).status, 200);

    // The company account still works for the rep; removing SSO gives the password back.
    assert.equal((await companySignIn({ email: 'thandi@acme.test' }, 'thandi@acme.test')).landed, '/dashboard');
    const removed = await leaderA.request('/api/team/sso', { method: 'DELETE' });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.message, SsoMessages.removed);
    assert.equal((await system.client().request('/api/session', { body: { email: 'thandi@acme.test', password } })).status, 200);
    assert.equal((await leaderA.request('/api/team/sso', { method: 'DELETE' })).status, 404);
  });

  it('never logs the client secret, a code, a state or a token', () => {
    const logs = system.logs().join('\n');
    assert.ok(!logs.includes(idp.clientSecret));
    assert.ok(!/eyJ[A-Za-z0-9_-]{10,}\./.test(logs), 'no JWT in the log');
    assert.ok(!/[?&](code|state)=/.test(logs), 'no query string with a code or a state');
  });
});
