import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TeamMessages } from '@digicard/contracts';
import { TestSystem, registerOwner, waitFor, type TestOwner } from '@digicard/testing';

const PASSWORD = 'a long enough passphrase';
const rep = (username: string) => ({ username, firstName: 'Sipho', lastName: 'Dlamini', email: `${username}@example.co.za`, tel: '0821234567', password: '', leaderPassword: PASSWORD });

/** The Teams API through the gateway, with identity, profiles and teams behind it: who may call what. */
describe('teams through the gateway', () => {
  let system: TestSystem;
  let leader: TestOwner;
  let otherLeader: TestOwner;
  let plain: TestOwner;

  async function makeLeader(owner: TestOwner): Promise<void> {
    await system.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1`, [owner.accountId]);
    const signIn = await owner.client.request('/api/session', { body: { email: owner.email, password: PASSWORD } });
    assert.equal(signIn.body.user.role, 'teamLeader');
  }

  beforeAll(async () => {
    system = await TestSystem.start({ apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'notifications', 'gateway'] });
    leader = await registerOwner(system, { username: 'gw-lead', firstName: 'Ayanda', lastName: 'Mthembu', email: 'gw-lead@example.co.za' });
    otherLeader = await registerOwner(system, { username: 'gw-lead-two', firstName: 'Pieter', lastName: 'Botha', email: 'gw-lead-two@example.co.za' });
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
    assert.deepEqual(others.body, { reps: [] });
    assert.equal((await otherLeader.client.request(`/api/team/reps/${id}`, { method: 'PUT', body: { ...rep('gw-rep'), firstName: 'Hijack' } })).status, 404);
    assert.equal((await otherLeader.client.request(`/api/team/reps/${id}`, { method: 'DELETE' })).status, 404);
    assert.equal((await leader.client.request('/api/team/reps/not-a-uuid', { method: 'DELETE' })).status, 404);

    const updated = await leader.client.request(`/api/team/reps/${id}`, { method: 'PUT', body: { username: 'gw-rep', firstName: 'Sipho', lastName: 'Dlamini', email: 'gw-rep@example.co.za', tel: '0839990000' } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.tel, '0839990000');
  });

  it('a removed rep is signed out at once, cannot sign in again, and their leads stay in the team CSV', async () => {
    const added = await leader.client.request('/api/team/reps', { body: { ...rep('gw-leaving'), password: 'leaving soon 2026' } });
    assert.equal(added.status, 201);
    const repClient = system.client();
    assert.equal((await repClient.request('/api/session', { body: { email: 'gw-leaving@example.co.za', password: 'leaving soon 2026' } })).status, 200);
    await waitFor('the rep profile', async () => (await repClient.request('/api/profile')).status === 200);
    await system.sql(`UPDATE profiles.profiles SET membership = 'DigiPlatinum' WHERE username = 'gw-lead'`);
    const lead = await system.client().request('/api/profiles/gw-leaving/leads', { body: { kind: 'lead', firstName: 'Lindiwe', email: 'lindiwe@example.co.za', consent: true, message: 'Quote please' } });
    assert.equal(lead.status, 202, JSON.stringify(lead.body));

    const removed = await leader.client.request(`/api/team/reps/${added.body.accountId}`, { method: 'DELETE' });
    assert.deepEqual([removed.status, removed.body], [200, { message: TeamMessages.repDeleted }]);
    assert.equal((await repClient.request('/api/profile')).status, 401);
    assert.equal((await system.client().request('/api/session', { body: { email: 'gw-leaving@example.co.za', password: 'leaving soon 2026' } })).status, 401);
    const csv = await waitFor('the lead in the team CSV', async () => {
      const res = await leader.client.request('/api/team/leads.csv');
      return String(res.body).includes('Lindiwe') ? String(res.body) : null;
    });
    assert.match(csv, /gw-leaving/);
  });
});
