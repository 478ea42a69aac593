import { HttpRoutes, type HttpRoute, type Role } from '@digicard/contracts';
import type { ApiClient } from './client.js';
import { registerOwner, setMembership } from './accounts.js';
import type { TestSystem } from './system.js';

/**
 * The authorization matrix: every route of `HttpRoutes`, called as the owner of the objects it names, another
 * owner, a team member, print, staff and signed out, against the real system. What each caller must get is derived
 * from the route's declared `access` and its path parameters, so a route added to the table is in the matrix
 * without an edit here, unless it names a path parameter this file has no rule for: then the run fails, naming it.
 *
 * Expectations, per cell:
 * - signed out: 401 unless the route is `public`;
 * - a role the route does not list: 403;
 * - allowed, on a route naming an object (a parameter whose rule is `owned`): the owner gets past the access checks
 *   (neither 401, 403 nor 404); anyone else gets 404 (or 403), never the object;
 * - allowed otherwise: neither 401 nor 403 (the body sent is `{}`, so a route with a body answers 400 once access
 *   passed: access is checked before the body);
 * - and, for every caller but the owner, the answer never contains the owner's private markers (a lead's message,
 *   the owner's order id): another account's data does not leak through a route acting on "your own" data.
 */

export const Callers = ['owner', 'otherOwner', 'teamMember', 'print', 'staff', 'signedOut'] as const;
export type Caller = (typeof Callers)[number];

const CALLER_ROLE: Record<Exclude<Caller, 'signedOut'>, Role> = {
  owner: 'user',
  otherOwner: 'user',
  teamMember: 'teamMember',
  print: 'print',
  staff: 'staff',
};

/** What the matrix knows of the owner's objects. */
export interface MatrixFixture {
  system: TestSystem;
  clients: Record<Caller, ApiClient>;
  passwords: Record<Exclude<Caller, 'signedOut'>, { email: string; password: string }>;
  owner: { username: string; accountId: string; orderId: string };
  /** Text only the owner's own answers may contain. */
  privateMarkers: string[];
}

/**
 * A rule for each path parameter name: `value` is the same for every caller (a public object or a kind), `owned`
 * names one of the owner's objects. A route with a parameter missing here fails the run: add its rule (and, for an
 * owned object, create one for the owner in `prepareMatrix`).
 */
export const ParamRules: Record<string, { kind: 'value' | 'owned'; value: (f: MatrixFixture) => string }> = {
  username: { kind: 'value', value: (f) => f.owner.username },
  purpose: { kind: 'value', value: () => 'profileImage' },
  id: { kind: 'value', value: () => 'pvc-card' },
  orderId: { kind: 'owned', value: (f) => f.owner.orderId },
  // A well-formed serial no card has (the fixture's order is unpaid, so the owner has no card yet): the access rules
  // are checked; whose card it is, is checked by the orders tests (fulfilment.integration, print-lifecycle).
  serial: { kind: 'value', value: () => 'AAAAAAAA' },
  // The account a staff or team-leader route acts on: the owner's (the bodies sent are empty, so nothing changes).
  accountId: { kind: 'value', value: (f) => f.owner.accountId },
  // A well-formed id no delivery has: access and the tier are checked here; whose delivery it is, by
  // apps/notifications/test/crm-webhooks.integration and apps/gateway/test/crm-webhooks.e2e.
  deliveryId: { kind: 'value', value: () => '00000000-0000-4000-8000-000000000000' },
  // Apple's pass web service: well-formed names of a device and a pass nobody has. Its pass routes take no session
  // (every caller here is refused them without the pass's token); whose pass it is, is checked by
  // apps/profiles/test/apple-wallet.integration and apps/gateway/test/apple-wallet.integration.
  deviceLibraryIdentifier: { kind: 'value', value: () => '0123456789abcdef0123456789abcdef' },
  passTypeIdentifier: { kind: 'value', value: () => 'pass.test.digicard.card' },
  serialNumber: { kind: 'value', value: () => 'AAAAAAAAAAAAAAAAAAAAAAAA' },
  // SCIM (a company's identity provider, with the team's bearer token): a well-formed id no user has. Every caller
  // here is refused without the token; whose team a user is of, is checked by apps/teams/test/scim.integration and
  // apps/gateway/test/scim.integration.
  scimUserId: { kind: 'value', value: () => '00000000-0000-4000-8000-000000000000' },
};

export interface MatrixCell {
  route: string;
  caller: Caller;
  expected: string;
  status: number;
  ok: boolean;
  problem?: string;
}

export interface MatrixRow {
  route: string;
  method: string;
  path: string;
  access: string;
  cells: MatrixCell[];
}

const paramsOf = (route: HttpRoute): string[] => [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);

/** Routes whose parameters have no rule: the run fails with these. */
export function routesWithoutRules(routes: Record<string, HttpRoute> = HttpRoutes): string[] {
  return Object.entries(routes).flatMap(([name, route]) =>
    paramsOf(route)
      .filter((p) => !ParamRules[p])
      .map(
        (p) =>
          `${name} (${route.method.toUpperCase()} ${route.path}): no matrix rule for :${p} (add it to ParamRules in libs/testing/src/authorization-matrix.ts)`,
      ),
  );
}

/** The system the matrix needs: all services, high per-IP limits (six callers register from one address). */
export const MatrixSystemOptions = {
  apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'gateway'] as const,
  env: {
    gateway: {
      RATE_LIMIT_REGISTER_IP: '1000/60',
      RATE_LIMIT_VERIFY_IP: '1000/60',
      RATE_LIMIT_LOGIN_IP: '1000/60',
      RATE_LIMIT_LOGIN_ACCOUNT: '1000/60',
    },
  },
};

async function signIn(client: ApiClient, email: string, password: string): Promise<void> {
  await client.request('/api/session');
  const res = await client.request('/api/session', { method: 'POST', body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Registers the five accounts (roles set in identity's table, then signed in again), the owner's lead and order. */
export async function prepareMatrix(system: TestSystem): Promise<MatrixFixture> {
  const stamp = Date.now().toString(36);
  const clients = {} as Record<Caller, ApiClient>;
  const passwords = {} as MatrixFixture['passwords'];
  let owner: MatrixFixture['owner'] | null = null;
  for (const caller of Object.keys(CALLER_ROLE) as Array<keyof typeof CALLER_ROLE>) {
    const username = `${caller.toLowerCase()}-${stamp}`;
    const email = `${username}@example.co.za`;
    const who = await registerOwner(system, { username, firstName: caller, lastName: 'Matrix', email });
    const role = CALLER_ROLE[caller];
    if (role !== 'user') {
      await system.sql('UPDATE identity.accounts SET role = $1 WHERE id = $2', [role, who.accountId]);
      // profiles keeps its own copy of the role (from identity.user.role-changed, which this SQL does not publish).
      await system.sql('UPDATE profiles.profiles SET role = $1 WHERE account_id = $2', [role, who.accountId]);
      await signIn(who.client, email, who.password);
    }
    clients[caller] = who.client;
    passwords[caller] = { email, password: who.password };
    if (caller === 'owner') owner = { username, accountId: who.accountId, orderId: '' };
  }
  clients.signedOut = system.client();
  if (!owner) throw new Error('no owner');
  await setMembership(system, owner.username, 'DigiGold');
  const leadMarker = `lead-marker-${stamp}`;
  const lead = await clients.signedOut.request(`/api/profiles/${owner.username}/leads`, {
    method: 'POST',
    body: { kind: 'lead', firstName: 'Visitor', email: `visitor-${stamp}@example.co.za`, message: leadMarker, consent: true },
  });
  if (lead.status !== 202) throw new Error(`lead: ${lead.status} ${JSON.stringify(lead.body)}`);
  const order = await clients.owner.request('/api/orders', { method: 'POST', body: { items: [{ id: 'pvc-card', quantity: 1 }] } });
  if (order.status !== 201) throw new Error(`order: ${order.status} ${JSON.stringify(order.body)}`);
  owner.orderId = (order.body as { order: { id: string } }).order.id;
  return { system, clients, passwords, owner, privateMarkers: [leadMarker, owner.orderId] };
}

type Answer = { status: number; body: unknown };
const messageOf = (body: unknown): string => (body && typeof body === 'object' && 'message' in body ? String(body.message) : '');

/**
 * What a caller must get. Roles decide role routes (print, staff, teamLeader act on any object: no ownership). On an
 * owner's object (`owned`), others get 404 (or 403) - or 400 when the route takes a body, since the empty body sent
 * fails validation before any lookup and says nothing about the object; the owner gets anything but 401/403, and a
 * 404 only when it is not the "not found" of the object itself (an order with no proof yet, say). A 403 that asks
 * for a higher tier ("Upgrade to ...") is the product's gating, not a refusal of the caller.
 */
function expectation(route: HttpRoute, caller: Caller, ownedParam: boolean): { text: string; check: (answer: Answer) => boolean } {
  const not =
    (...codes: number[]) =>
    (a: Answer) =>
      !codes.includes(a.status);
  const tierGate = (a: Answer) => a.status === 403 && messageOf(a.body).startsWith('Upgrade to');
  if (route.access === 'public') return { text: 'not 401/403', check: not(401, 403) };
  // A pass route is the device's, with the pass's token: a session, whoever's, is not let in.
  if (route.access === 'pass') return { text: '401 (no pass token)', check: (a) => a.status === 401 };
  // A SCIM route is the identity provider's, with the team's token: a session, whoever's, is not let in.
  if (route.access === 'scim') return { text: '401 (no SCIM token)', check: (a) => a.status === 401 };
  if (caller === 'signedOut') return { text: '401', check: (a) => a.status === 401 };
  if (route.access !== 'account') {
    return route.access.includes(CALLER_ROLE[caller])
      ? { text: 'not 401/403', check: not(401, 403) }
      : { text: '403', check: (a) => a.status === 403 };
  }
  if (ownedParam) {
    const notFound = route.params?.notFound;
    return caller === 'owner'
      ? {
          text: "not 401/403, nor the object's 404",
          check: (a) => (not(401, 403)(a) || tierGate(a)) && !(a.status === 404 && messageOf(a.body) === notFound),
        }
      : route.method !== 'get' && !route.upload
        ? { text: '404, 403 or 400 (empty body)', check: (a) => a.status === 404 || a.status === 403 || a.status === 400 }
        : { text: '404 (or 403)', check: (a) => a.status === 404 || a.status === 403 };
  }
  return { text: 'not 401/403 (or a tier gate)', check: (a) => not(401, 403)(a) || tierGate(a) };
}

/** Calls every route as every caller; returns the matrix (every cell with its verdict). */
export async function runMatrix(f: MatrixFixture, routes: Record<string, HttpRoute> = HttpRoutes): Promise<MatrixRow[]> {
  const missing = routesWithoutRules(routes);
  if (missing.length > 0) throw new Error(`routes the authorization matrix cannot call:\n${missing.join('\n')}`);
  const rows: MatrixRow[] = [];
  for (const [name, route] of Object.entries(routes)) {
    const params = paramsOf(route);
    const owned = params.some((p) => ParamRules[p]?.kind === 'owned');
    const path = route.path.replace(/:([A-Za-z]+)/g, (_, p: string) => encodeURIComponent(ParamRules[p]!.value(f)));
    const row: MatrixRow = {
      route: name,
      method: route.method.toUpperCase(),
      path: route.path,
      access: typeof route.access === 'string' ? route.access : route.access.join(', '),
      cells: [],
    };
    for (const caller of Callers) {
      const client = f.clients[caller];
      const method = route.method.toUpperCase();
      const res = await client.request(path, {
        method,
        ...(method === 'GET'
          ? {}
          : route.upload
            ? { raw: Buffer.from('{}'), headers: { 'content-type': route.upload.replace('*', 'png') } }
            : { body: {} }),
      });
      const { text, check } = expectation(route, caller, owned);
      const cell: MatrixCell = {
        route: name,
        caller,
        expected: text,
        status: res.status,
        ok: check({ status: res.status, body: res.body }),
      };
      if (!cell.ok) cell.problem = `expected ${text}, got ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`;
      if (caller !== 'owner') {
        const answer = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
        const leaked = f.privateMarkers.filter((m) => answer.includes(m));
        if (leaked.length > 0) {
          cell.ok = false;
          cell.problem = `the owner's private data (${leaked.join(', ')}) in the answer to ${caller}`;
        }
      }
      row.cells.push(cell);
      // A route that ended the caller's session (sign-out) must not change the callers of the rows after it.
      const session = (await client.request('/api/session')).body as { user?: unknown } | null;
      if (caller !== 'signedOut' && session?.user == null) {
        await signIn(client, f.passwords[caller].email, f.passwords[caller].password);
      }
    }
    rows.push(row);
  }
  return rows;
}

/** The matrix as a Markdown table: one row a route, one column a caller, each cell its status and verdict. */
export function matrixMarkdown(rows: MatrixRow[]): string {
  const head = `| route | access | ${Callers.join(' | ')} |\n|---|---|${Callers.map(() => '---').join('|')}|`;
  const body = rows.map(
    (r) => `| \`${r.method} ${r.path}\` | ${r.access} | ${r.cells.map((c) => `${c.ok ? '✓' : '✗'} ${c.status}`).join(' | ')} |`,
  );
  return [head, ...body].join('\n');
}
