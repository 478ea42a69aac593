import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { PageMessages, encodeCursor } from '@digicard/contracts';
import { registerOwner, type ApiClient } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// Issue 28, item 4 ("page every list"): the leader view's numbers and the staff console's audit were one NATS reply
// each, unbounded (one row per rep of a team; every change staff ever made to an account). Through the in-process
// gateway with identity, profiles and teams behind it: each is read a page at a time over ?cursor=&limit=, none left
// out or shown twice; a cursor opens nothing of anyone else's; a bad cursor or limit is 400 with field errors.

const password = 'a long enough passphrase';

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the leader view and the staff audit, a page at a time', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;

  /** An account with `role` in identity and profiles (profiles keeps its own record of it), signed in again. */
  async function withRole(username: string, role: 'teamLeader' | 'staff', membership = 'DigiPlatinum') {
    const email = `${username}@example.co.za`;
    const who = await registerOwner(system, { username, firstName: 'Test', lastName: username, email, password }, { verify: false });
    await services.get('identity').sql('UPDATE identity.accounts SET role = $2 WHERE id = $1', [who.accountId, role]);
    await services
      .get('profiles')
      .sql('UPDATE profiles.profiles SET membership = $2, role = $3 WHERE account_id = $1', [who.accountId, membership, role]);
    const client = system.client();
    assert.equal((await client.request('/api/session', { body: { email, password } })).status, 200);
    return { client, accountId: who.accountId };
  }

  async function importReps(leader: ApiClient, prefix: string, count: number): Promise<string[]> {
    const reps = Array.from({ length: count }, (_, i) => ({
      username: `${prefix}-${i}`,
      firstName: 'Rep',
      lastName: `Number ${i}`,
      email: `${prefix}-${i}@example.co.za`,
      tel: '0821234567',
    }));
    const res = await leader.request('/api/team/reps/import', { body: { reps, leaderPassword: password } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.created, true);
    return reps.map((r) => r.username);
  }

  beforeAll(async () => {
    system = await InProcessGateway.start();
    services = await ServicesBehind.start(system, ['identity', 'profiles', 'teams']);
  }, 120_000);

  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  it('pages the leader view: every current rep once, in the order they joined, each with their own numbers', async () => {
    const leader = await withRole('lead-pages', 'teamLeader');
    const other = await withRole('lead-other-pages', 'teamLeader');
    const usernames = await importReps(leader.client, 'pg-rep', 7);
    await importReps(other.client, 'pg-theirs', 2);
    // Profiles hears of the reps by teams' events; then a view for each rep (rep i has i + 1 views today).
    const profiles = services.get('profiles');
    const members = await waitFor('profiles to know the reps', async () => {
      const rows = await profiles.sql<{ account_id: string; username: string }>(
        'SELECT account_id, username FROM profiles.profiles WHERE business_account_id = $1',
        [leader.accountId],
      );
      return rows.length === 7 ? rows : null;
    });
    for (const row of members) {
      const n = usernames.indexOf(row.username) + 1;
      await profiles.sql(
        `INSERT INTO profiles.analytics_daily (account_id, day, metric, key, count)
         VALUES ($1, (now() AT TIME ZONE 'Africa/Johannesburg')::date, 'view', 'link', $2)`,
        [row.account_id, n],
      );
    }

    const seen: Array<{ username: string; views: number }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await leader.client.request(`/api/team/analytics?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.reps.length <= 3);
      // Every page carries the whole team's totals: 1 + 2 + ... + 7 views.
      assert.equal(res.body.totals.views, 28);
      seen.push(...(res.body.reps as Array<{ username: string; views: number }>));
      cursor = res.body.nextCursor as string | null;
      pages += 1;
    } while (cursor && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen.map((r) => r.username),
      usernames,
    );
    assert.deepEqual(
      seen.map((r) => r.views),
      [1, 2, 3, 4, 5, 6, 7],
    );
    // With a range and without a limit: the first 50, so all of them, and no next page.
    const today = new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 10);
    const whole = await leader.client.request(`/api/team/analytics?from=${today}&to=${today}`);
    assert.equal(whole.status, 200);
    assert.equal(whole.body.reps.length, 7);
    assert.equal(whole.body.nextCursor, null);

    // Another leader with this leader's cursor: their own reps only, and their own totals.
    const first = await leader.client.request('/api/team/analytics?limit=2');
    const borrowed = await other.client.request(`/api/team/analytics?cursor=${first.body.nextCursor as string}`);
    assert.equal(borrowed.status, 200);
    for (const rep of borrowed.body.reps as Array<{ username: string }>) assert.match(rep.username, /^pg-theirs-/);
    assert.equal(borrowed.body.totals.views, 0);
    // The CSV holds every rep (read page after page).
    const csv = await leader.client.request('/api/team/analytics.csv');
    assert.equal(csv.status, 200);
    for (const username of usernames) assert.match(String(csv.body), new RegExp(`\\r\\n${username},`));
  });

  it('pages a staff member’s view of an account’s changes: identity’s and profiles’ as one list, newest first', async () => {
    const staff = await withRole('desk-pages', 'staff');
    const customer = await registerOwner(
      system,
      { username: 'audited-customer', firstName: 'Audited', lastName: 'Customer', email: 'audited@example.co.za', password },
      { verify: false },
    );
    const bystander = await registerOwner(
      system,
      { username: 'audited-bystander', firstName: 'Other', lastName: 'Customer', email: 'bystander@example.co.za', password },
      { verify: false },
    );
    // Changes through the console, turn and turn about: the role in identity, the partner flag in profiles.
    for (let i = 0; i < 4; i += 1) {
      const role = await staff.client.request(`/api/staff/accounts/${customer.accountId}/role`, {
        method: 'PUT',
        body: { role: i % 2 === 0 ? 'teamLeader' : 'user' },
      });
      assert.equal(role.status, 200, JSON.stringify(role.body));
      const partner = await staff.client.request(`/api/staff/accounts/${customer.accountId}/partner`, {
        method: 'PUT',
        body: { isPartner: i % 2 === 0 },
      });
      assert.equal(partner.status, 200, JSON.stringify(partner.body));
    }
    // And older ones, 9 in each service all in one microsecond (ids order them across both services).
    for (const [name, change, value] of [
      ['identity', 'role', '"user"'],
      ['profiles', 'partner', 'false'],
    ] as const) {
      await services.get(name).sql(
        `INSERT INTO ${name}.staff_audit (account_id, staff_account_id, change, before, after, at)
         SELECT $1, $2, '${change}', '${value}'::jsonb, '${value}'::jsonb, timestamptz '2026-01-01T10:00:00Z' FROM generate_series(1, 9)`,
        [customer.accountId, staff.accountId],
      );
    }
    await services.get('profiles').sql(
      `INSERT INTO profiles.staff_audit (account_id, staff_account_id, change, before, after, at)
         VALUES ($1, $2, 'partner', 'false', 'true', timestamptz '2020-01-01T10:00:00Z')`,
      [bystander.accountId, staff.accountId],
    );
    const rows = [
      ...(await services
        .get('identity')
        .sql<{ id: string; at: string }>(
          `SELECT id::text, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM identity.staff_audit WHERE account_id = $1`,
          [customer.accountId],
        )),
      ...(await services
        .get('profiles')
        .sql<{ id: string; at: string }>(
          `SELECT id::text, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM profiles.staff_audit WHERE account_id = $1`,
          [customer.accountId],
        )),
    ];
    assert.equal(rows.length, 26);
    const expected = rows.sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1)).map((r) => r.id);

    const seen: Array<{ id: string; change: string; accountId: string }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await staff.client.request(`/api/staff/accounts/${customer.accountId}/audit?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.entries.length <= 4);
      seen.push(...(res.body.entries as typeof seen));
      cursor = res.body.nextCursor as string | null;
      pages += 1;
    } while (cursor && pages < 20);
    assert.equal(pages, 7);
    assert.deepEqual(
      seen.map((e) => e.id),
      expected,
    );
    assert.deepEqual(
      seen.slice(0, 8).map((e) => e.change),
      ['partner', 'role', 'partner', 'role', 'partner', 'role', 'partner', 'role'],
    );
    assert.ok(seen.every((e) => e.accountId === customer.accountId));
    // The account's own view no longer carries the audit (it is this list).
    const detail = await staff.client.request(`/api/staff/accounts/${customer.accountId}`);
    assert.equal(detail.status, 200);
    assert.equal('audit' in detail.body, false);

    // Another account's audit after this one's cursor (its one change is older than the position): its own change only.
    const first = await staff.client.request(`/api/staff/accounts/${customer.accountId}/audit?limit=2`);
    const theirs = await staff.client.request(`/api/staff/accounts/${bystander.accountId}/audit?cursor=${first.body.nextCursor as string}`);
    assert.equal(theirs.status, 200);
    assert.deepEqual(
      (theirs.body.entries as Array<{ accountId: string }>).map((e) => e.accountId),
      [bystander.accountId],
    );
    // Not staff: 403, the customer included; signed out: 401; an unknown account: 404.
    assert.equal((await customer.client.request(`/api/staff/accounts/${customer.accountId}/audit`)).status, 403);
    assert.equal((await system.client().request(`/api/staff/accounts/${customer.accountId}/audit`)).status, 401);
    assert.equal((await staff.client.request('/api/staff/accounts/00000000-0000-4000-8000-000000000000/audit')).status, 404);
  });

  it('refuses a bad cursor or limit with field errors (400) on both routes, before anything is read', async () => {
    const leader = await withRole('lead-bad-cursor', 'teamLeader');
    const staff = await withRole('desk-bad-cursor', 'staff');
    const audit = `/api/staff/accounts/${staff.accountId}/audit`;
    for (const [query, field, message] of [
      ['cursor=not-a-cursor', 'cursor', PageMessages.badCursor],
      ['cursor=eyJhdCI6Im5vdyJ9', 'cursor', PageMessages.badCursor],
      ['limit=0', 'limit', PageMessages.badLimit],
      ['limit=101', 'limit', PageMessages.badLimit],
      ['limit=ten', 'limit', PageMessages.badLimit],
    ] as const) {
      for (const [client, path] of [
        [leader.client, '/api/team/analytics'],
        [staff.client, audit],
      ] as const) {
        const res = await client.request(`${path}?${query}`);
        assert.equal(res.status, 400, `${path}?${query}`);
        assert.equal(res.body.code, 'VALIDATION_FAILED');
        assert.deepEqual(res.body.fieldErrors, { [field]: [message] }, `${path}?${query}`);
      }
    }
    // A cursor of ours in form but of another kind (a position by text, as the export's totals have): refused by the service.
    const byText = encodeCursor({ id: 'x', key: 'y' });
    for (const [client, path] of [
      [leader.client, '/api/team/analytics'],
      [staff.client, audit],
    ] as const) {
      const res = await client.request(`${path}?cursor=${byText}`);
      assert.equal(res.status, 400, path);
      assert.deepEqual(res.body.fieldErrors, { cursor: [PageMessages.badCursor] }, path);
    }
    // A bad range on the leader view: 400 naming the field.
    const range = await leader.client.request('/api/team/analytics?from=2026-13-01');
    assert.equal(range.status, 400);
    assert.ok(range.body.fieldErrors.from);
  });
});
