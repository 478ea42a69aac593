import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { z } from 'zod';
import { Events, Rpc, type AddRepRequest, type RpcDefinition } from '@digicard/contracts';
import { RpcCallError, RpcClient, createNatsClient } from '@digicard/server';
import { metaFor, type Caller } from '@digicard/service-testing';
import { TestSystem, waitFor } from '@digicard/testing';

// Identity and teams as real processes: teams is killed (SIGKILL) between identity making a rep's account and teams
// recording the member, and identity is stopped before teams' request reaches it. Before the fix, the first left an
// account in no team for good (and the leader's retry was refused: "username taken").

const PASSWORD = 'kudu-braai-2026';
const rep = (username: string): AddRepRequest => ({
  username,
  firstName: 'Sipho',
  lastName: 'Dlamini',
  email: `${username}@example.test`,
  tel: '0821234567',
  password: '',
  leaderPassword: PASSWORD,
});

let system: TestSystem;
let client: RpcClient;
let leader: Caller;

type Answer<T> = { ok: true; value: T } | { ok: false; status: number };
async function ask<Req extends z.ZodType, Res extends z.ZodType>(
  def: RpcDefinition<Req, Res>,
  body: z.input<Req>,
  caller: Caller,
): Promise<Answer<z.output<Res>>> {
  try {
    return { ok: true, value: await client.call(def, body, metaFor(caller)) };
  } catch (error) {
    if (error instanceof RpcCallError) return { ok: false, status: error.apiError?.statusCode ?? 503 };
    throw error;
  }
}

const count = async (sql: string, params: unknown[]) =>
  (await system.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;
const accountsNamed = (username: string) => count('identity.accounts WHERE username = $1', [username]);
const membersNamed = (username: string) => count('teams.members WHERE username = $1', [username]);
const pendingNamed = (username: string) => count('teams.pending_reps WHERE username = $1', [username]);

beforeAll(async () => {
  system = await TestSystem.start({
    // Profiles too: teams asks it for the leader's tier (DigiPlatinum) before anything is made.
    apps: ['identity', 'profiles', 'teams'],
    env: { teams: { PENDING_REPS_SWEEP_MS: '300', PENDING_REP_AGE_MS: '1000', PENDING_REP_ABANDON_MS: '4000' } },
  });
  client = new RpcClient(createNatsClient(system.nats.url, 'cut-short-test'), 20_000);
  const registered = await ask(
    Rpc.register,
    { username: 'cut-leader', firstName: 'Thandi', lastName: 'Nkosi', email: 'cut-leader@example.test', password: PASSWORD },
    null,
  );
  if (!registered.ok) throw new Error('cannot register the leader');
  await system.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1`, [registered.value.accountId]);
  await waitFor(
    "profiles to make the leader's profile",
    async () => (await count('profiles.profiles WHERE account_id = $1', [registered.value.accountId])) === 1,
  );
  await system.sql(`UPDATE profiles.profiles SET membership = 'DigiPlatinum' WHERE account_id = $1`, [registered.value.accountId]);
  leader = { accountId: registered.value.accountId!, role: 'teamLeader' };
});

afterAll(async () => {
  await (client?.proxy.close() as Promise<void> | undefined);
  await system?.stop();
});

describe('adding reps survives teams or identity dying mid-way', () => {
  it('teams killed after identity made the account: on restart the rep becomes a member, once, with one account', async () => {
    // Hold teams' write of the member until it has been killed.
    const lock = new pg.Client({ connectionString: system.databaseUrl });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE teams.members IN ACCESS EXCLUSIVE MODE');
    const answer = ask(Rpc.addRep, rep('cut-short'), leader);
    await waitFor('identity to make the account', async () => (await accountsNamed('cut-short')) === 1);
    await waitFor(
      'teams to wait to record the member',
      async () =>
        (await count(
          `pg_stat_activity WHERE datname = current_database() AND usename = 'digicard_teams' AND wait_event_type = 'Lock'`,
          [],
        )) > 0,
    );
    await system.killApp('teams');
    await lock.query('ROLLBACK');
    await lock.end();
    expect((await answer).ok).toBe(false);

    // The half: the account exists, the member does not; what is left to do is recorded.
    await waitFor(
      'the killed transaction to roll back',
      async () => (await count(`pg_stat_activity WHERE datname = current_database() AND usename = 'digicard_teams'`, [])) === 0,
    );
    expect(await accountsNamed('cut-short')).toBe(1);
    expect(await membersNamed('cut-short')).toBe(0);
    expect(await pendingNamed('cut-short')).toBe(1);

    await system.startApp('teams');
    await waitFor('the sweeper to record the member', async () => (await membersNamed('cut-short')) === 1);
    expect(await pendingNamed('cut-short')).toBe(0);
    expect(await accountsNamed('cut-short')).toBe(1);
    const [account] = await system.sql<{ id: string }>(`SELECT id FROM identity.accounts WHERE username = 'cut-short'`);
    const added = await system.sql(`SELECT 1 FROM teams.outbox WHERE subject = $1 AND payload->'data'->>'memberAccountId' = $2`, [
      Events.teamMemberAdded.subject,
      account!.id,
    ]);
    expect(added).toHaveLength(1);
    const team = await ask(Rpc.listTeam, {}, leader);
    expect(team.ok && team.value.reps.map((r) => r.username)).toEqual(['cut-short']);
  });

  it('identity away before the request reached it: nothing made, the pending row dropped, a retry makes one account', async () => {
    await system.stopApp('identity');
    const answer = await ask(Rpc.addRep, rep('never-made'), leader);
    expect(answer).toEqual({ ok: false, status: 503 });
    expect(await pendingNamed('never-made')).toBe(1);
    await system.startApp('identity');
    await waitFor('the sweeper to drop what identity never made', async () => (await pendingNamed('never-made')) === 0);
    expect(await accountsNamed('never-made')).toBe(0);
    expect(await membersNamed('never-made')).toBe(0);

    const retry = await ask(Rpc.addRep, rep('never-made'), leader);
    expect(retry.ok).toBe(true);
    expect(await accountsNamed('never-made')).toBe(1);
    expect(await membersNamed('never-made')).toBe(1);
  });

  it('identity answers a repeat of the same account ids with the same accounts (no second set) and refuses other ids', async () => {
    const accountId = randomUUID();
    const body = {
      leaderPassword: PASSWORD,
      dryRun: false,
      reps: [{ accountId, username: 'replayed', firstName: 'Sipho', lastName: 'Dlamini', email: 'replayed@example.test', password: '' }],
    };
    const first = await ask(Rpc.createRepAccounts, body, leader);
    const again = await ask(Rpc.createRepAccounts, body, leader);
    expect(first.ok && first.value.accounts.map((a) => a.accountId)).toEqual([accountId]);
    expect(again).toEqual(first);
    expect(await accountsNamed('replayed')).toBe(1);
    const other = await ask(Rpc.createRepAccounts, { ...body, reps: [{ ...body.reps[0]!, username: 'not-replayed' }] }, leader);
    expect(other).toEqual({ ok: false, status: 409 });
    const leaderAsRep = await ask(Rpc.createRepAccounts, { ...body, reps: [{ ...body.reps[0]!, accountId: leader!.accountId }] }, leader);
    expect(leaderAsRep).toEqual({ ok: false, status: 409 });
  });
});
