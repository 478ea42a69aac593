import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, PAGE_LIMIT_MAX, Rpc, TeamMessages } from '@digicard/contracts';
import { saDay } from '@digicard/domain';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { AnalyticsQueries } from '../src/analytics/analytics-queries.js';
import { profilesService } from '../src/service.js';

// The leader view in the profiles service: the numbers of the reps the gateway names (a page of teams' list) from
// the same counts the Analytics tab reads, the team's totals, the same periods; only the leader's own reps, only for
// a DigiPlatinum team leader.

let service: InProcessService<Config>;

async function owner(username: string, role: 'user' | 'teamLeader' | 'teamMember', membership = 'DigiShare'): Promise<string> {
  const accountId = randomUUID();
  const eventId = await service.publish(Events.userRegistered, {
    accountId,
    username,
    email: `${username}@example.test`,
    firstName: 'Lerato',
    lastName: username,
    role,
    registeredAt: new Date().toISOString(),
  });
  await service.handled(Events.userRegistered, eventId);
  await service.handled(
    Events.userVerified,
    await service.publish(Events.userVerified, { accountId, verifiedAt: new Date().toISOString() }),
  );
  await service.sql('UPDATE profiles.profiles SET membership = $1 WHERE account_id = $2', [membership, accountId]);
  return accountId;
}

async function joined(leader: string, member: string, username: string): Promise<void> {
  const id = await service.publish(Events.teamMemberAdded, {
    leaderAccountId: leader,
    memberAccountId: member,
    username,
    tel: '0821234567',
    addedAt: new Date().toISOString(),
  });
  await service.handled(Events.teamMemberAdded, id);
}

const today = saDay();
const daysAgo = (n: number): string => new Date(Date.parse(today) - n * 86_400_000).toISOString().slice(0, 10);
const hash = (n: number): string => n.toString(16).padStart(32, '0');

let leader: string;
let repA: string;
let repB: string;
let otherLeader: string;
let otherRep: string;

beforeAll(async () => {
  service = await InProcessService.start(profilesService);
  leader = await owner('lead-platinum', 'teamLeader', 'DigiPlatinum');
  repA = await owner('rep-alpha', 'teamMember');
  repB = await owner('rep-bravo', 'teamMember');
  otherLeader = await owner('lead-other', 'teamLeader', 'DigiPlatinum');
  otherRep = await owner('rep-other', 'teamMember');
  await joined(leader, repA, 'rep-alpha');
  await joined(leader, repB, 'rep-bravo');
  await joined(otherLeader, otherRep, 'rep-other');
  await service.get(AnalyticsQueries).record({
    entries: [
      { username: 'rep-alpha', day: today, metric: 'view', key: 'qr', count: 3 },
      { username: 'rep-alpha', day: daysAgo(2), metric: 'view', key: 'link', count: 2 },
      { username: 'rep-alpha', day: today, metric: 'save', key: '', count: 2 },
      { username: 'rep-alpha', day: today, metric: 'click', key: 'contact:tel', count: 1 },
      { username: 'rep-alpha', day: daysAgo(45), metric: 'view', key: 'link', count: 50 },
      { username: 'rep-bravo', day: today, metric: 'view', key: 'nfc', count: 4 },
      { username: 'rep-bravo', day: today, metric: 'card', key: 'ABCDEFGH', count: 4 },
      { username: 'rep-other', day: today, metric: 'view', key: 'link', count: 9 },
      { username: 'lead-platinum', day: today, metric: 'view', key: 'link', count: 7 },
    ],
    visitors: [
      { username: 'rep-alpha', day: today, hash: hash(1) },
      { username: 'rep-alpha', day: daysAgo(2), hash: hash(1) },
      { username: 'rep-bravo', day: today, hash: hash(2) },
    ],
  });
  const lead = await service.call(
    Rpc.submitLead,
    {
      username: 'rep-bravo',
      submission: {
        kind: 'lead',
        firstName: 'Visitor',
        lastName: 'One',
        email: 'visitor@example.test',
        phone: '0821112222',
        message: 'Call me',
        consent: true,
        website: '',
      },
    },
    null,
  );
  // The lead form is DigiGold's: the rep shares the leader's DigiPlatinum, so this is accepted.
  if (!lead.ok) throw new Error(`lead refused: ${lead.message}`);
});

afterAll(async () => {
  await service.stop();
});

describe('the leader view', () => {
  const asLeader = () => ({ accountId: leader, role: 'teamLeader' as const });

  it("gives the reps asked for (a page of teams' list) their last-30-day numbers, and the team's totals", async () => {
    const report = await service.call(Rpc.getTeamAnalytics, { accountIds: [repA, repB] }, asLeader());
    expect(report).toEqual({
      ok: true,
      value: {
        full: true,
        from: daysAgo(29),
        to: today,
        reps: expect.arrayContaining([
          { accountId: repA, views: 5, visitors: 2, saves: 2, clicks: 1, leads: 0 },
          { accountId: repB, views: 4, visitors: 1, saves: 0, clicks: 0, leads: 1 },
        ]),
        totals: { views: 9, visitors: 3, saves: 2, clicks: 1, leads: 1 },
      },
    });
    expect(report.ok && report.value.reps).toHaveLength(2);
    // One page of one rep: that rep's numbers, and still the whole team's totals.
    const one = await service.call(Rpc.getTeamAnalytics, { accountIds: [repB] }, asLeader());
    expect(one.ok && one.value.reps.map((r) => [r.accountId, r.views])).toEqual([[repB, 4]]);
    expect(one.ok && one.value.totals.views).toBe(9);
    const none = await service.call(Rpc.getTeamAnalytics, { accountIds: [] }, asLeader());
    expect(none).toMatchObject({ ok: true, value: { reps: [], totals: { views: 9 } } });
  });

  it('takes a date range, as the Analytics tab does for DigiPlatinum', async () => {
    const report = await service.call(Rpc.getTeamAnalytics, { from: daysAgo(60), to: daysAgo(1), accountIds: [repA, repB] }, asLeader());
    expect(report.ok && Object.fromEntries(report.value.reps.map((r) => [r.accountId, r.views]))).toEqual({ [repA]: 52, [repB]: 0 });
    expect(await service.call(Rpc.getTeamAnalytics, { from: today, to: daysAgo(1), accountIds: [] }, asLeader())).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it("answers no one else's numbers, whatever ids a leader names", async () => {
    // Another team's rep, the other leader, the leader's own profile and an unknown id: none of them is answered.
    const asked = [otherRep, otherLeader, leader, randomUUID(), repA];
    const mine = await service.call(Rpc.getTeamAnalytics, { accountIds: asked }, asLeader());
    expect(mine.ok && mine.value.reps.map((r) => r.accountId)).toEqual([repA]);
    const theirs = await service.call(
      Rpc.getTeamAnalytics,
      { accountIds: [repA, repB, otherRep] },
      { accountId: otherLeader, role: 'teamLeader' },
    );
    expect(theirs.ok && theirs.value.reps.map((r) => r.accountId)).toEqual([otherRep]);
    expect(theirs.ok && theirs.value.totals.views).toBe(9);
    // At most a page of ids at a time.
    const tooMany = Array.from({ length: PAGE_LIMIT_MAX + 1 }, () => randomUUID());
    expect(await service.call(Rpc.getTeamAnalytics, { accountIds: tooMany }, asLeader())).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses a rep (even about their own team), a DigiShare user, a visitor, and a leader below DigiPlatinum', async () => {
    const body = { accountIds: [repA] };
    expect(await service.call(Rpc.getTeamAnalytics, body, { accountId: repA, role: 'teamMember' })).toMatchObject({
      ok: false,
      status: 403,
    });
    const user = await owner('plain-user', 'user');
    expect(await service.call(Rpc.getTeamAnalytics, body, { accountId: user, role: 'user' })).toMatchObject({ ok: false, status: 403 });
    expect(await service.call(Rpc.getTeamAnalytics, body, null)).toMatchObject({ ok: false, status: 401 });
    // A session still saying teamLeader after DigiPlatinum ended: refused by the tier profiles keeps.
    const lapsed = await owner('lead-lapsed', 'teamLeader', 'DigiGold');
    expect(await service.call(Rpc.getTeamAnalytics, body, { accountId: lapsed, role: 'teamLeader' })).toMatchObject({
      ok: false,
      status: 403,
      message: TeamMessages.needsPlatinum,
    });
    expect(await service.call(Rpc.listTeamLeads, {}, { accountId: lapsed, role: 'teamLeader' })).toMatchObject({
      ok: false,
      status: 403,
      message: TeamMessages.needsPlatinum,
    });
  });
});
