import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TeamMessages } from '@digicard/contracts';
import { TestSystem, createStaffAccount, registerOwner, waitFor, type TestOwner } from '@digicard/testing';

const PASSWORD = 'a long enough passphrase';
const rep = (username: string) => ({
  username,
  firstName: 'Sipho',
  lastName: 'Dlamini',
  email: `${username}@example.co.za`,
  tel: '0821234567',
  password: '',
  leaderPassword: PASSWORD,
});

/** The Teams API through the gateway, with identity, profiles and teams behind it: who may call what. */
describe('teams through the gateway', () => {
  let system: TestSystem;
  let leader: TestOwner;
  let otherLeader: TestOwner;
  let plain: TestOwner;

  async function makeLeader(owner: TestOwner): Promise<void> {
    await system.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1`, [owner.accountId]);
    // Teams are DigiPlatinum's (the tier profiles keeps).
    await system.sql(`UPDATE profiles.profiles SET membership = 'DigiPlatinum' WHERE account_id = $1`, [owner.accountId]);
    const signIn = await owner.client.request('/api/session', { body: { email: owner.email, password: PASSWORD } });
    assert.equal(signIn.body.user.role, 'teamLeader');
  }

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'notifications', 'gateway'] });
    leader = await registerOwner(system, { username: 'gw-lead', firstName: 'Ayanda', lastName: 'Mthembu', email: 'gw-lead@example.co.za' });
    otherLeader = await registerOwner(system, {
      username: 'gw-lead-two',
      firstName: 'Pieter',
      lastName: 'Botha',
      email: 'gw-lead-two@example.co.za',
    });
    plain = await registerOwner(system, { username: 'gw-plain', firstName: 'Thabo', lastName: 'Mokoena', email: 'gw-plain@example.co.za' });
    await makeLeader(leader);
    await makeLeader(otherLeader);
  });
  afterAll(() => system?.stop());

  it('refuses the signed-out (401) and a DigiShare user (403) on every team route', async () => {
    const calls: Array<[string, { method?: string; body?: unknown }]> = [
      ['/api/team/reps', {}],
      ['/api/team/reps', { body: rep('nobody-rep') }],
      ['/api/team/reps/import', { body: { reps: [rep('nobody-rep')], leaderPassword: PASSWORD, dryRun: true } }],
      ['/api/team/reps/00000000-0000-4000-8000-000000000000', { method: 'PUT', body: rep('nobody-rep') }],
      ['/api/team/reps/00000000-0000-4000-8000-000000000000', { method: 'DELETE' }],
      ['/api/team/leads.csv', {}],
      ['/api/team/analytics', {}],
      ['/api/team/analytics.csv', {}],
    ];
    for (const [path, options] of calls) {
      assert.equal((await system.client().request(path, options)).status, 401, path);
      assert.equal((await plain.client.request(path, options)).status, 403, `${options.method ?? ''} ${path}`);
    }
  });

  it('adds a rep (400 field errors for a bad form), keeps the leader signed in, and only the leader manages them', async () => {
    const bad = await leader.client.request('/api/team/reps', { body: { ...rep('bad-rep'), firstName: '', leaderPassword: '' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.fieldErrors.firstName, [TeamMessages.fillAllFields]);
    assert.deepEqual(bad.body.fieldErrors.leaderPassword, [TeamMessages.passwordRequired]);
    const added = await leader.client.request('/api/team/reps', { body: rep('gw-rep') });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal((await leader.client.request('/api/session')).body.user.username, 'gw-lead');
    const id = added.body.accountId as string;

    const others = await otherLeader.client.request('/api/team/reps');
    assert.deepEqual(others.body, { reps: [], nextCursor: null });
    assert.equal(
      (await otherLeader.client.request(`/api/team/reps/${id}`, { method: 'PUT', body: { ...rep('gw-rep'), firstName: 'Hijack' } })).status,
      404,
    );
    assert.equal((await otherLeader.client.request(`/api/team/reps/${id}`, { method: 'DELETE' })).status, 404);
    assert.equal((await leader.client.request('/api/team/reps/not-a-uuid', { method: 'DELETE' })).status, 404);

    const updated = await leader.client.request(`/api/team/reps/${id}`, {
      method: 'PUT',
      body: { username: 'gw-rep', firstName: 'Sipho', lastName: 'Dlamini', email: 'gw-rep@example.co.za', tel: '0839990000' },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.tel, '0839990000');
  });

  it('a removed rep is signed out at once, cannot sign in again, and their leads stay in the team CSV', async () => {
    const added = await leader.client.request('/api/team/reps', { body: { ...rep('gw-leaving'), password: 'leaving soon 2026' } });
    assert.equal(added.status, 201);
    const repClient = system.client();
    assert.equal(
      (await repClient.request('/api/session', { body: { email: 'gw-leaving@example.co.za', password: 'leaving soon 2026' } })).status,
      200,
    );
    // The rep's profile, linked to the leader (profiles hears of the new rep by an event: on a busy machine, a moment
    // later); the rep's tier is the leader's from then on.
    await waitFor('the rep profile, linked to the leader', async () => {
      const own = await repClient.request('/api/profile');
      return own.status === 200 && own.body.managedBy?.username === 'gw-lead';
    });
    await system.sql(`UPDATE profiles.profiles SET membership = 'DigiPlatinum' WHERE username = 'gw-lead'`);
    const lead = await system.client().request('/api/profiles/gw-leaving/leads', {
      body: { kind: 'lead', firstName: 'Lindiwe', email: 'lindiwe@example.co.za', consent: true, message: 'Quote please' },
    });
    assert.equal(lead.status, 202, JSON.stringify(lead.body));

    const removed = await leader.client.request(`/api/team/reps/${added.body.accountId}`, { method: 'DELETE' });
    assert.deepEqual([removed.status, removed.body], [200, { message: TeamMessages.repDeleted }]);
    assert.equal((await repClient.request('/api/profile')).status, 401);
    assert.equal(
      (await system.client().request('/api/session', { body: { email: 'gw-leaving@example.co.za', password: 'leaving soon 2026' } }))
        .status,
      401,
    );
    const csv = await waitFor('the lead in the team CSV', async () => {
      const res = await leader.client.request('/api/team/leads.csv');
      return String(res.body).includes('Lindiwe') ? String(res.body) : null;
    });
    assert.match(csv, /gw-leaving/);
  });

  it('a team leader below DigiPlatinum is refused every team route with the upgrade message; back on it, let in', async () => {
    const lapsed = await registerOwner(system, {
      username: 'gw-lapsed',
      firstName: 'Nomsa',
      lastName: 'Zulu',
      email: 'gw-lapsed@example.co.za',
    });
    await makeLeader(lapsed);
    await system.sql(`UPDATE profiles.profiles SET membership = 'DigiGold' WHERE account_id = $1`, [lapsed.accountId]);
    const calls: Array<[string, { method?: string; body?: unknown }]> = [
      ['/api/team/reps', {}],
      ['/api/team/reps', { body: rep('lapsed-rep') }],
      ['/api/team/reps/import', { body: { reps: [rep('lapsed-rep')], leaderPassword: PASSWORD, dryRun: true } }],
      ['/api/team/reps/00000000-0000-4000-8000-000000000000', { method: 'PUT', body: rep('lapsed-rep') }],
      ['/api/team/reps/00000000-0000-4000-8000-000000000000', { method: 'DELETE' }],
      ['/api/team/leads.csv', {}],
      ['/api/team/analytics', {}],
      ['/api/team/analytics.csv', {}],
    ];
    for (const [path, options] of calls) {
      const res = await lapsed.client.request(path, options);
      assert.deepEqual([res.status, res.body.message], [403, TeamMessages.needsPlatinum], `${options.method ?? ''} ${path}`);
    }
    assert.equal((await system.sql("SELECT 1 FROM identity.accounts WHERE username = 'lapsed-rep'")).length, 0);
    await system.sql(`UPDATE profiles.profiles SET membership = 'DigiPlatinum' WHERE account_id = $1`, [lapsed.accountId]);
    assert.deepEqual((await lapsed.client.request('/api/team/reps')).body, { reps: [], nextCursor: null });
  });

  it('the leader view: per rep and the team totals, as JSON and CSV; a bad range is 400; another leader sees only theirs', async () => {
    const added = await leader.client.request('/api/team/reps', { body: rep('gw-viewed') });
    assert.equal(added.status, 201);
    // The rep's page, visited by a browser (the analytics batch reaches profiles within about a second).
    await system.sql(`UPDATE profiles.profiles SET is_verified = true WHERE username = 'gw-viewed'`);
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36' };
    await waitFor('the rep page', async () => (await system.client().request('/gw-viewed?src=qr', { headers: browser })).status === 200);
    const report = await waitFor('the view in the leader view', async () => {
      const res = await leader.client.request('/api/team/analytics');
      const row = (res.body.reps as Array<{ username: string; views: number }> | undefined)?.find((r) => r.username === 'gw-viewed');
      return row && row.views >= 1 ? res.body : null;
    });
    assert.equal(report.full, true);
    assert.ok(report.totals.views >= 1);
    const csv = await leader.client.request('/api/team/analytics.csv');
    assert.equal(csv.status, 200);
    assert.match(String(csv.body), /^\uFEFF?Rep,Name,Views,Unique visitors,Saved to contacts,Clicks,Leads\r\n/);
    assert.match(String(csv.body), /gw-viewed,Sipho Dlamini,\d+/);
    assert.match(String(csv.body), /Team total,/);
    const bad = await leader.client.request('/api/team/analytics?from=2026-13-01');
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fieldErrors.from);
    const theirs = await otherLeader.client.request('/api/team/analytics');
    assert.equal(theirs.status, 200);
    assert.ok(!(theirs.body.reps as Array<{ username: string }>).some((r) => r.username === 'gw-viewed'));

    // The moment between teams removing a rep and profiles hearing of it (profiles still counts the rep): the numbers
    // already leave the rep out, as the list beside them does; the totals are profiles' for the whole team (the reps
    // come a page at a time, the totals with each page), so until profiles hears they still count the rep.
    await system.sql(`UPDATE teams.members SET removed_at = now() WHERE username = 'gw-viewed'`);
    const after = await leader.client.request('/api/team/analytics');
    assert.equal(after.status, 200);
    assert.ok(
      !(after.body.reps as Array<{ username: string }>).some((r) => r.username === 'gw-viewed'),
      'a rep teams has removed is not in the numbers',
    );
    const views = (after.body.reps as Array<{ views: number }>).reduce((sum, r) => sum + r.views, 0);
    assert.ok(after.body.totals.views >= views + 1, 'the totals still count the removed rep’s view');
    assert.doesNotMatch(String((await leader.client.request('/api/team/analytics.csv')).body), /gw-viewed/);
  });

  it('a role changed in identity reaches the signed-in session at once (no new sign-in)', async () => {
    const staff = await createStaffAccount(system, { email: 'desk@digicard.test', role: 'staff', username: 'desk-staff' });
    const owner = await registerOwner(system, {
      username: 'gw-promoted',
      firstName: 'Zanele',
      lastName: 'Khumalo',
      email: 'gw-promoted@example.co.za',
    });
    await system.sql(`UPDATE profiles.profiles SET membership = 'DigiPlatinum' WHERE account_id = $1`, [owner.accountId]);
    assert.equal((await owner.client.request('/api/team/reps')).status, 403);
    const set = await staff.client.request(`/api/staff/accounts/${owner.accountId}/role`, { method: 'PUT', body: { role: 'teamLeader' } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    // The route guard reads the role from the session record (GET /api/session asks identity, so it is no proof).
    await waitFor('the session to carry teamLeader', async () => (await owner.client.request('/api/team/reps')).status === 200);
    assert.deepEqual((await owner.client.request('/api/team/reps')).body, { reps: [], nextCursor: null });
    assert.equal(
      (await staff.client.request(`/api/staff/accounts/${owner.accountId}/role`, { method: 'PUT', body: { role: 'user' } })).status,
      200,
    );
    await waitFor('the session to carry user again', async () => (await owner.client.request('/api/team/reps')).status === 403);
  });
});
