import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PageMessages, ProfileDefaults, Rpc, type Team } from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';
import { InProcessService, type Answer, type Caller } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { teamsService } from '../src/service.js';

// A leader's reps read in pages (issue 28, item 4): a team imported 200 reps at a time has no bound. Every rep once,
// in the order they joined (a batch by username), while reps keep being added; bad cursors and limits refused with
// field errors; another leader's cursor opens nothing of theirs. Profiles is a stand-in answering every caller's
// tier as DigiPlatinum (teams asks it before every subject).

let service: InProcessService<Config>;
let profiles: NatsConnection;

async function startProfilesStandIn(natsUrl: string): Promise<NatsConnection> {
  const nc = await connectNats(natsUrl, 'profiles-stand-in');
  nc.subscribe(Rpc.getOwnProfile.subject, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string }>();
      const profile = {
        username: 'leader',
        firstName: 'Lerato',
        lastName: 'Leader',
        email: 'leader@example.test',
        membership: 'DigiPlatinum',
        isVerified: true,
        isPublic: true,
        document: ProfileDefaults,
        updatedAt: new Date().toISOString(),
      };
      msg.respond(JSON.stringify({ id: packet.id, response: profile, isDisposed: true }));
    },
  });
  await nc.flush();
  return nc;
}

beforeAll(async () => {
  service = await InProcessService.start(teamsService);
  profiles = await startProfilesStandIn(service.natsUrl);
});

afterAll(async () => {
  await profiles?.close();
  await service?.stop();
});

const leaderOf = (): Caller & { accountId: string } => ({ accountId: randomUUID(), role: 'teamLeader' });

/** `count` reps of a leader, stored directly, joined in batches of seven (one timestamp each, as an import makes). */
async function storeReps(leaderId: string, count: number, prefix: string, removed = false): Promise<string[]> {
  const rows = await service.sql<{ username: string }>(
    `INSERT INTO teams.members (member_account_id, leader_account_id, username, first_name, last_name, email, tel, added_at, removed_at)
     SELECT gen_random_uuid(), $1, $3 || '-' || lpad(n::text, 4, '0'), 'Rep', 'Tester', $3 || n || '@example.test', '0821234567',
            timestamptz '2024-04-01 09:00:00+02' + (n / 7) * interval '1 minute', CASE WHEN $4 THEN now() END
       FROM generate_series(1, $2::int) AS n
     RETURNING username`,
    [leaderId, count, prefix, removed],
  );
  return rows.map((r) => r.username);
}

async function allPages(caller: Caller, limit: number, between: () => Promise<unknown> = () => Promise.resolve()): Promise<Team[]> {
  const pages: Team[] = [];
  let cursor: string | null = null;
  do {
    const answer: Answer<Team> = await service.call(Rpc.listTeam, { ...(cursor ? { cursor } : {}), limit }, caller);
    if (!answer.ok) throw new Error(`${answer.status} ${answer.message}`);
    pages.push(answer.value);
    cursor = answer.value.nextCursor;
    await between();
  } while (cursor);
  return pages;
}

describe('a team, a page at a time', () => {
  it('gives every current rep once, in the order they joined, while reps keep being added', async () => {
    const leader = leaderOf();
    const reps = await storeReps(leader.accountId, 61, 'joined');
    const gone = await storeReps(leader.accountId, 5, 'gone', true);
    const other = await storeReps(randomUUID(), 4, 'elsewhere');
    let added = 0;
    const pages = await allPages(leader, 8, async () => {
      added += 1;
      await storeReps(leader.accountId, 1, `late${added}`);
      await service.sql(`UPDATE teams.members SET added_at = now() WHERE username = $1`, [`late${added}-0001`]);
    });
    const usernames = pages.flatMap((p) => p.reps.map((r) => r.username));
    // The reps who joined meanwhile come last, so the last page may carry them: every earlier rep is there once.
    expect(new Set(usernames).size).toBe(usernames.length);
    expect(usernames.slice(0, 61)).toEqual([...reps].sort());
    for (const name of [...gone, ...other]) expect(usernames).not.toContain(name);
    expect(pages.slice(0, -1).every((p) => p.reps.length === 8)).toBe(true);
  });

  it('refuses bad cursors and limits with field errors, and answers another leader’s cursor with the caller’s own reps', async () => {
    const leader = leaderOf();
    const thief = leaderOf();
    const theirs = await storeReps(leader.accountId, 12, 'theirs');
    const mine = await storeReps(thief.accountId, 3, 'mine');
    expect(await service.call(Rpc.listTeam, { cursor: '%%%' }, leader)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.cursor': [PageMessages.badCursor] },
    });
    expect(await service.call(Rpc.listTeam, { limit: 0 }, leader)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.limit': [PageMessages.badLimit] },
    });
    const first = await service.call(Rpc.listTeam, { limit: 2 }, leader);
    if (!first.ok || !first.value.nextCursor) throw new Error('no second page');
    const borrowed = await service.call(Rpc.listTeam, { cursor: first.value.nextCursor }, thief);
    if (!borrowed.ok) throw new Error(borrowed.message);
    for (const rep of borrowed.value.reps) {
      expect(mine).toContain(rep.username);
      expect(theirs).not.toContain(rep.username);
    }
    expect(await service.call(Rpc.listTeam, { cursor: first.value.nextCursor }, { accountId: randomUUID(), role: 'user' })).toMatchObject({
      ok: false,
      status: 403,
    });
  });
});
