import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccountMessages, Events, Rpc, TeamMessages, type AddRepRequest } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import { TestSystem } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { teamsService } from '../src/service.js';

// The teams service in this process, and the real identity and profiles services as processes (a TestSystem), on one
// NATS server: teams asks identity for the reps' accounts and profiles for the leader's tier exactly as in production.
// Identity's subjects are called over the same NATS (`teams.call` sends any subject of the contract); its data is
// read from its schema.

let system: TestSystem;
let teams: InProcessService<Config>;
const identity = {
  call: ((...args: Parameters<InProcessService<Config>['call']>) => teams.call(...args)) as InProcessService<Config>['call'],
  sql: <T extends Record<string, unknown> = Record<string, unknown>>(text: string, params: unknown[] = []) => system.sql<T>(text, params),
  recordedEvents: async (subject: string) =>
    (
      await system.sql<{ payload: { data: Record<string, unknown> } }>(
        'SELECT payload FROM identity.outbox WHERE subject = $1 ORDER BY created_at',
        [subject],
      )
    ).map((r) => ({ data: r.payload.data })),
};

const PASSWORD = 'kudu-braai-2026';
type Caller = { accountId: string; role: 'user' | 'teamLeader' | 'teamMember' };

async function account(username: string, role: Caller['role']): Promise<Caller> {
  const answer = await identity.call(Rpc.register, {
    username,
    firstName: 'Thandi',
    lastName: 'Nkosi',
    email: `${username}@example.test`,
    password: PASSWORD,
  });
  if (!answer.ok) throw new Error(`cannot register ${username}: ${answer.message}`);
  // Staff (or a DigiPlatinum subscription) make a team leader; here the role is set in identity's own data.
  await identity.sql('UPDATE identity.accounts SET role = $2 WHERE id = $1', [answer.value.accountId!, role]);
  // Teams are DigiPlatinum's: a leader here has it (profiles keeps the tier; its profile comes from the registration).
  if (role === 'teamLeader') await setTier(answer.value.accountId!, 'DigiPlatinum');
  return { accountId: answer.value.accountId!, role };
}

async function setTier(accountId: string, membership: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await system.sql('SELECT 1 FROM profiles.profiles WHERE account_id = $1', [accountId])).length === 0) {
    if (Date.now() > deadline) throw new Error(`no profile for ${accountId}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await system.sql('UPDATE profiles.profiles SET membership = $2 WHERE account_id = $1', [accountId, membership]);
}

const rep = (username: string, overrides: Partial<AddRepRequest> = {}): AddRepRequest => ({
  username,
  firstName: 'Sipho',
  lastName: 'Dlamini',
  email: `${username}@example.test`,
  tel: '0821234567',
  password: '',
  leaderPassword: PASSWORD,
  ...overrides,
});

const accountRow = async (id: string) =>
  (
    await identity.sql<{ username: string; role: string; is_verified: boolean; disabled_at: Date | null; email: string }>(
      'SELECT username, role, is_verified, disabled_at, email FROM identity.accounts WHERE id = $1',
      [id],
    )
  )[0];

let leader: Caller;
let otherLeader: Caller;

beforeAll(async () => {
  system = await TestSystem.start({ apps: ['identity', 'profiles'] });
  teams = await InProcessService.start(teamsService, { NATS_URL: system.nats.url });
  leader = await account('leader-one', 'teamLeader');
  otherLeader = await account('leader-two', 'teamLeader');
});

afterAll(async () => {
  await teams?.stop();
  await system?.stop();
});

describe('adding a rep', () => {
  it('creates a verified teamMember account in identity and the link here, with teams.member.added', async () => {
    const added = await teams.call(Rpc.addRep, rep('rep-anna'), leader);
    if (!added.ok) throw new Error(added.message);
    expect(added.value).toMatchObject({ username: 'rep-anna', firstName: 'Sipho', email: 'rep-anna@example.test', tel: '0821234567' });
    expect(await accountRow(added.value.accountId)).toMatchObject({
      username: 'rep-anna',
      role: 'teamMember',
      is_verified: true,
      disabled_at: null,
    });
    const [event] = (await teams.recordedEvents(Events.teamMemberAdded.subject)).filter(
      (e) => e.data['memberAccountId'] === added.value.accountId,
    );
    expect(event!.data).toMatchObject({ leaderAccountId: leader.accountId, username: 'rep-anna', tel: '0821234567' });
    const registered = (await identity.recordedEvents(Events.userRegistered.subject)).find(
      (e) => e.data['accountId'] === added.value.accountId,
    );
    expect(registered!.data['role']).toBe('teamMember');

    const team = await teams.call(Rpc.listTeam, {}, leader);
    expect(team.ok && team.value.reps.map((r) => r.username)).toEqual(['rep-anna']);
  });

  it('a rep may sign in with the password the leader chose; without one, nobody knows the password', async () => {
    const added = await teams.call(Rpc.addRep, rep('rep-chosen', { password: 'springbok-rugby-77' }), leader);
    expect(added.ok).toBe(true);
    const signIn = await identity.call(Rpc.authenticate, { email: 'rep-chosen@example.test', password: 'springbok-rugby-77' });
    expect(signIn.ok && signIn.value.role).toBe('teamMember');
    const none = await identity.call(Rpc.authenticate, { email: 'rep-anna@example.test', password: 'anything-at-all' });
    expect(none.ok).toBe(false);
  });

  it('refuses a wrong or missing leader password, a taken username, and empty fields; nothing is created', async () => {
    const before = await identity.sql('SELECT id FROM identity.accounts');
    const wrong = await teams.call(Rpc.addRep, rep('rep-wrong', { leaderPassword: 'not-my-password' }), leader);
    expect(wrong).toMatchObject({ ok: false, status: 401, message: AccountMessages.wrongPassword });
    const missing = await teams.call(Rpc.addRep, rep('rep-missing', { leaderPassword: '' }), leader);
    // (The service checks the envelope it receives: its field names start with `body.`; the gateway's do not.)
    expect(missing).toMatchObject({ ok: false, status: 400, fieldErrors: { 'body.leaderPassword': [TeamMessages.passwordRequired] } });
    const empty = await teams.call(Rpc.addRep, rep('rep-empty', { firstName: '' }), leader);
    expect(empty).toMatchObject({ ok: false, status: 400, fieldErrors: { 'body.firstName': [TeamMessages.fillAllFields] } });
    const taken = await teams.call(Rpc.addRep, rep('leader-two'), leader);
    expect(taken).toMatchObject({ ok: false, status: 400, fieldErrors: { username: [AccountMessages.usernameTaken] } });
    expect(await identity.sql('SELECT id FROM identity.accounts')).toHaveLength(before.length);
  });
});

describe('importing reps from a CSV', () => {
  const rows = (names: string[]) =>
    names.map((n) => {
      const { leaderPassword: _, ...r } = rep(n);
      return r;
    });

  it('a dry run checks every row (per-row errors, duplicates within the file) and creates nothing', async () => {
    const before = await identity.sql('SELECT id FROM identity.accounts');
    const preview = await teams.call(Rpc.importReps, { reps: rows(['csv-a', 'csv-b']), leaderPassword: PASSWORD, dryRun: true }, leader);
    expect(preview).toMatchObject({ ok: true, value: { created: false } });
    const bad = await teams.call(
      Rpc.importReps,
      { reps: [...rows(['csv-a', 'rep-anna']), ...rows(['csv-a'])], leaderPassword: PASSWORD, dryRun: true },
      leader,
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.fieldErrors ?? {}).sort()).toEqual(['reps.1.email', 'reps.1.username', 'reps.2.email', 'reps.2.username']);
    const badEmail = await teams.call(
      Rpc.importReps,
      { reps: [{ ...rows(['csv-c'])[0]!, email: 'not-an-email' }], leaderPassword: PASSWORD, dryRun: true },
      leader,
    );
    expect(badEmail).toMatchObject({ ok: false, status: 400 });
    expect(Object.keys((!badEmail.ok && badEmail.fieldErrors) || {})).toEqual(['body.reps.0.email']);
    expect(await identity.sql('SELECT id FROM identity.accounts')).toHaveLength(before.length);
  });

  it('all or nothing: one taken row creates none; a clean file creates all', async () => {
    const before = await identity.sql('SELECT id FROM identity.accounts');
    const refused = await teams.call(
      Rpc.importReps,
      { reps: rows(['csv-d', 'csv-e', 'rep-anna']), leaderPassword: PASSWORD, dryRun: false },
      leader,
    );
    expect(refused).toMatchObject({ ok: false, status: 400, fieldErrors: { 'reps.2.username': [AccountMessages.usernameTaken] } });
    expect(await identity.sql('SELECT id FROM identity.accounts')).toHaveLength(before.length);
    expect(await teams.sql('SELECT 1 FROM teams.members WHERE username = $1', ['csv-d'])).toHaveLength(0);

    const created = await teams.call(Rpc.importReps, { reps: rows(['csv-d', 'csv-e']), leaderPassword: PASSWORD, dryRun: false }, leader);
    expect(created).toMatchObject({ ok: true, value: { created: true } });
    const team = await teams.call(Rpc.listTeam, {}, leader);
    expect(team.ok && team.value.reps.map((r) => r.username)).toEqual(expect.arrayContaining(['csv-d', 'csv-e']));
  });
});

describe('who may do what', () => {
  let sibling: string;
  let target: string;

  beforeAll(async () => {
    const a = await teams.call(Rpc.addRep, rep('rep-sib'), leader);
    const b = await teams.call(Rpc.addRep, rep('rep-target'), leader);
    if (!a.ok || !b.ok) throw new Error('setup');
    sibling = a.value.accountId;
    target = b.value.accountId;
  });

  it('a DigiShare user cannot call any team subject', async () => {
    const user = await account('plain-user', 'user');
    expect(await teams.call(Rpc.listTeam, {}, user)).toMatchObject({ ok: false, status: 403 });
    expect(await teams.call(Rpc.addRep, rep('rep-by-user'), user)).toMatchObject({ ok: false, status: 403 });
    expect(await teams.call(Rpc.removeRep, { accountId: target }, user)).toMatchObject({ ok: false, status: 403 });
    // Nor can it reach identity's rep creation directly, even with its own correct password.
    expect(
      await identity.call(
        Rpc.createRepAccounts,
        {
          leaderPassword: PASSWORD,
          dryRun: false,
          reps: [{ username: 'sneaky', firstName: 'a', lastName: 'b', email: 'sneaky@example.test', password: '' }],
        },
        user,
      ),
    ).toMatchObject({ ok: false, status: 403 });
  });

  it('a rep cannot act on a sibling', async () => {
    const asRep = { accountId: sibling, role: 'teamMember' as const };
    expect(
      await teams.call(
        Rpc.updateRep,
        { accountId: target, username: 'hijacked', firstName: 'x', lastName: 'y', email: 'x@example.test', tel: '0820000000' },
        asRep,
      ),
    ).toMatchObject({ ok: false, status: 403 });
    expect(await teams.call(Rpc.removeRep, { accountId: target }, asRep)).toMatchObject({ ok: false, status: 403 });
    expect(await teams.call(Rpc.listTeam, {}, asRep)).toMatchObject({ ok: false, status: 403 });
  });

  it("another leader neither sees, changes nor removes this leader's rep", async () => {
    const theirs = await teams.call(Rpc.listTeam, {}, otherLeader);
    expect(theirs).toEqual({ ok: true, value: { reps: [], nextCursor: null } });
    expect(
      await teams.call(
        Rpc.updateRep,
        { accountId: target, username: 'rep-target', firstName: 'x', lastName: 'y', email: 'rep-target@example.test', tel: '0820000000' },
        otherLeader,
      ),
    ).toMatchObject({ ok: false, status: 404 });
    expect(await teams.call(Rpc.removeRep, { accountId: target }, otherLeader)).toMatchObject({ ok: false, status: 404 });
    expect(await accountRow(target)).toMatchObject({ username: 'rep-target', disabled_at: null });
  });

  it('a team leader without DigiPlatinum is refused every subject, with the upgrade message; nothing changes', async () => {
    const lapsed = await account('leader-lapsed', 'teamLeader');
    await setTier(lapsed.accountId, 'DigiGold');
    const refused = { ok: false, status: 403, message: TeamMessages.needsPlatinum };
    expect(await teams.call(Rpc.listTeam, {}, lapsed)).toMatchObject(refused);
    expect(await teams.call(Rpc.addRep, rep('rep-of-lapsed'), lapsed)).toMatchObject(refused);
    const { leaderPassword: _, ...row } = rep('rep-of-lapsed-csv');
    expect(await teams.call(Rpc.importReps, { reps: [row], leaderPassword: PASSWORD, dryRun: true }, lapsed)).toMatchObject(refused);
    expect(
      await teams.call(
        Rpc.updateRep,
        { accountId: target, username: 'rep-target', firstName: 'x', lastName: 'y', email: 'rep-target@example.test', tel: '0820000000' },
        lapsed,
      ),
    ).toMatchObject(refused);
    expect(await teams.call(Rpc.removeRep, { accountId: target }, lapsed)).toMatchObject(refused);
    expect(await identity.sql("SELECT 1 FROM identity.accounts WHERE username LIKE 'rep-of-lapsed%'")).toHaveLength(0);
    expect(await accountRow(target)).toMatchObject({ username: 'rep-target', disabled_at: null });
    // With DigiPlatinum back, the same leader is let in.
    await setTier(lapsed.accountId, 'DigiPlatinum');
    expect(await teams.call(Rpc.listTeam, {}, lapsed)).toEqual({ ok: true, value: { reps: [], nextCursor: null } });
  });

  it('identity changes and disables only team members, and only for services', async () => {
    expect(await identity.call(Rpc.disableRepAccount, { accountId: otherLeader.accountId }, null)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await accountRow(otherLeader.accountId)).toMatchObject({ disabled_at: null });
  });
});

describe('editing and removing a rep', () => {
  let repId: string;
  beforeAll(async () => {
    const added = await teams.call(Rpc.addRep, rep('rep-edit', { password: 'springbok-rugby-77' }), leader);
    if (!added.ok) throw new Error(added.message);
    repId = added.value.accountId;
  });

  it('changes the username, names and email in identity (identity.user.changed) and the phone here (teams.member.updated)', async () => {
    const updated = await teams.call(
      Rpc.updateRep,
      {
        accountId: repId,
        username: 'rep-edited',
        firstName: 'Lerato',
        lastName: 'Mahlangu',
        email: 'lerato@example.test',
        tel: '0831112222',
      },
      leader,
    );
    expect(updated).toMatchObject({
      ok: true,
      value: { username: 'rep-edited', firstName: 'Lerato', email: 'lerato@example.test', tel: '0831112222' },
    });
    expect(await accountRow(repId)).toMatchObject({ username: 'rep-edited', email: 'lerato@example.test' });
    expect((await identity.recordedEvents(Events.userChanged.subject)).some((e) => e.data['accountId'] === repId)).toBe(true);
    expect(
      (await teams.recordedEvents(Events.teamMemberUpdated.subject)).find((e) => e.data['memberAccountId'] === repId)?.data['tel'],
    ).toBe('0831112222');
    const taken = await teams.call(
      Rpc.updateRep,
      { accountId: repId, username: 'leader-two', firstName: 'L', lastName: 'M', email: 'lerato@example.test', tel: '0831112222' },
      leader,
    );
    expect(taken).toMatchObject({ ok: false, status: 400, fieldErrors: { username: [AccountMessages.usernameTaken] } });
  });

  it('removing: no more sign-in, teams.member.removed, the username held until the grace period is over', async () => {
    expect((await identity.call(Rpc.authenticate, { email: 'lerato@example.test', password: 'springbok-rugby-77' })).ok).toBe(true);
    expect(await teams.call(Rpc.removeRep, { accountId: repId }, leader)).toEqual({ ok: true, value: { removed: true } });
    expect(await identity.call(Rpc.authenticate, { email: 'lerato@example.test', password: 'springbok-rugby-77' })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await identity.call(Rpc.getAccount, {}, { accountId: repId, role: 'teamMember' })).toMatchObject({ ok: false, status: 404 });
    const [removed] = (await teams.recordedEvents(Events.teamMemberRemoved.subject)).filter((e) => e.data['memberAccountId'] === repId);
    expect(removed!.data).toMatchObject({ leaderAccountId: leader.accountId, username: 'rep-edited' });
    const team = await teams.call(Rpc.listTeam, {}, leader);
    expect(team.ok && team.value.reps.some((r) => r.accountId === repId)).toBe(false);
    expect(await teams.call(Rpc.removeRep, { accountId: repId }, leader)).toMatchObject({ ok: false, status: 404 });

    // Within the grace period (30 days by default) the name stays taken...
    const early = await identity.call(Rpc.register, {
      username: 'rep-edited',
      firstName: 'New',
      lastName: 'Person',
      email: 'new-person@example.test',
      password: PASSWORD,
    });
    expect(early).toMatchObject({ ok: false, fieldErrors: { username: [AccountMessages.usernameTaken] } });
    // ...after it, anyone may take it (and the rep's old account keeps a name nobody can type).
    await identity.sql(`UPDATE identity.accounts SET disabled_at = now() - interval '31 days' WHERE id = $1`, [repId]);
    const later = await identity.call(Rpc.register, {
      username: 'rep-edited',
      firstName: 'New',
      lastName: 'Person',
      email: 'new-person@example.test',
      password: PASSWORD,
    });
    expect(later).toMatchObject({ ok: true, value: { accountId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect((await accountRow(repId))!.username).toBe(`removed-${repId}`);
  });
});

describe('data export (POPIA)', () => {
  it('answers each account its own team link; a leader gets counts, never the reps’ details; a visitor 401', async () => {
    const added = await teams.call(Rpc.addRep, rep('rep-export', { firstName: 'Zanele', email: 'rep-export@example.test' }), otherLeader);
    if (!added.ok) throw new Error(added.message);
    const asRep = await teams.exportOf(Rpc.exportTeamsData, { accountId: added.value.accountId, role: 'teamMember' });
    expect(asRep).toEqual({
      ok: true,
      value: {
        membership: expect.objectContaining({
          leaderAccountId: otherLeader.accountId,
          username: 'rep-export',
          firstName: 'Zanele',
          email: 'rep-export@example.test',
          removedAt: null,
        }),
        leaderOf: null,
      },
    });
    const asLeader = await teams.exportOf(Rpc.exportTeamsData, otherLeader);
    expect(asLeader).toEqual({
      ok: true,
      value: { membership: null, leaderOf: { currentReps: expect.any(Number), repsEver: expect.any(Number) } },
    });
    expect(JSON.stringify(asLeader)).not.toContain('rep-export');
    // Another leader's export holds nothing of otherLeader's team.
    const asFirstLeader = await teams.exportOf(Rpc.exportTeamsData, leader);
    expect(JSON.stringify(asFirstLeader)).not.toContain('rep-export');
    expect(JSON.stringify(asFirstLeader)).not.toContain(otherLeader.accountId);
    expect(await teams.exportOf(Rpc.exportTeamsData, null)).toMatchObject({ ok: false, status: 401 });
  });
});

describe('while profiles (which keeps the tier) is down', () => {
  it('answers 503, never 500, and changes nothing', async () => {
    await system.stopApp('profiles');
    const before = await identity.sql('SELECT id FROM identity.accounts');
    expect(await teams.call(Rpc.listTeam, {}, leader)).toMatchObject({ ok: false, status: 503 });
    expect(await teams.call(Rpc.addRep, rep('rep-while-down'), leader)).toMatchObject({ ok: false, status: 503 });
    expect(await identity.sql('SELECT id FROM identity.accounts')).toHaveLength(before.length);
  });
});
