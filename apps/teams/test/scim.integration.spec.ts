import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ProfileDefaults, Rpc, ScimMessages, type ScimUserFields } from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';
import { InProcessService, type Caller } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { ScimAuditPrune } from '../src/scim/workers/scim-audit-prune.js';
import { teamsService } from '../src/service.js';

// SCIM provisioning as the teams service does it (issue 27 item 2): the team is the leader whose token has the hash
// the gateway sends (401 for none); users are made, changed, deactivated and removed through the Teams section's own
// use cases (the events, identity's accounts), every call written to the team's audit list; another team's user is
// not found. Identity and profiles are stand-ins: identity records what it was asked and refuses a taken email;
// profiles answers DigiPlatinum for every leader except the lapsed ones.

let service: InProcessService<Config>;
let standIns: NatsConnection;
const lapsed = new Set<string>();
const takenEmails = new Set<string>(['taken@elsewhere.test']);
const asked: Array<{ subject: string; body: Record<string, unknown> }> = [];

type Packet = { id: string; data: { body: Record<string, unknown>; meta: { userId: string | null } } };

beforeAll(async () => {
  service = await InProcessService.start(teamsService);
  standIns = await connectNats(service.natsUrl, 'stand-ins');
  const answer = (subject: string, respond: (packet: Packet) => { response?: unknown; err?: unknown }) =>
    standIns.subscribe(subject, {
      callback: (_error, msg) => {
        const packet = msg.json<Packet>();
        asked.push({ subject, body: packet.data.body });
        msg.respond(JSON.stringify({ id: packet.id, ...respond(packet), isDisposed: true }));
      },
    });
  answer(Rpc.getOwnProfile.subject, (packet) => ({
    response: {
      username: 'leader',
      firstName: 'Lerato',
      lastName: 'Leader',
      email: 'leader@example.test',
      membership: lapsed.has(packet.data.meta.userId ?? '') ? 'DigiShare' : 'DigiPlatinum',
      isVerified: true,
      isPublic: true,
      document: ProfileDefaults,
      updatedAt: new Date().toISOString(),
    },
  }));
  answer(Rpc.provisionRepAccounts.subject, (packet) => {
    const reps = packet.data.body['reps'] as Array<Record<string, string>>;
    if (takenEmails.has(reps[0]!['email']!))
      return {
        err: {
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'Please correct the highlighted fields.',
          fieldErrors: { 'reps.0.email': ['An account with this email already exists.'] },
        },
      };
    return {
      response: {
        accounts: reps.map((r) => ({
          accountId: r['accountId'],
          username: r['username'],
          email: r['email'],
          firstName: r['firstName'],
          lastName: r['lastName'],
        })),
      },
    };
  });
  answer(Rpc.updateRepAccount.subject, (packet) => {
    const b = packet.data.body as Record<string, string>;
    if (takenEmails.has(b['email']!))
      return {
        err: {
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'x',
          fieldErrors: { email: ['An account with this email already exists.'] },
        },
      };
    return {
      response: {
        id: b['accountId'],
        username: b['username'],
        email: b['email'],
        firstName: b['firstName'],
        lastName: b['lastName'],
        role: 'teamMember',
        isVerified: true,
      },
    };
  });
  answer(Rpc.disableRepAccount.subject, () => ({ response: { disabled: true } }));
  answer(Rpc.enableRepAccount.subject, () => ({ response: { enabled: true } }));
  await standIns.flush();
});

afterAll(async () => {
  await standIns?.close();
  await service?.stop();
});

const leaderOf = (): Caller & { accountId: string } => ({ accountId: randomUUID(), role: 'teamLeader' });
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string) => ({ method, path });
const fields = (userName: string, extra: Partial<ScimUserFields> = {}): ScimUserFields => ({
  userName,
  externalId: `ext-${userName}`,
  givenName: 'Thandi',
  familyName: 'Mokoena',
  title: 'Sales rep',
  tel: '0821234567',
  active: true,
  ...extra,
});

/** A leader with a SCIM token: its hash, as the gateway would send it. */
async function team(): Promise<{ leader: Caller & { accountId: string }; tokenHash: string }> {
  const leader = leaderOf();
  const tokenHash = hashOf(`dcscim_${randomBytes(32).toString('base64url')}`);
  const stored = await service.call(Rpc.storeScimToken, { tokenHash }, leader);
  assert.ok(stored.ok, JSON.stringify(stored));
  return { leader, tokenHash };
}

async function create(tokenHash: string, user: ScimUserFields) {
  return service.call(Rpc.scimCreateUser, { tokenHash, call: call('POST', '/scim/v2/Users'), user }, null);
}

const outboxOf = (subject: string, memberId: string) =>
  service.sql(`SELECT payload FROM teams.outbox WHERE subject = $1 AND payload->'data'->>'memberAccountId' = $2 ORDER BY created_at`, [
    subject,
    memberId,
  ]);

describe('SCIM provisioning in the teams service', () => {
  it('keeps only the token’s hash; a new token replaces the old at once; revoked, it names no team', async () => {
    const { leader, tokenHash } = await team();
    const state = await service.call(Rpc.getScimToken, {}, leader);
    assert.ok(state.ok);
    assert.equal(state.value.configured, true);
    assert.equal(state.value.lastUsedAt, null);
    const rows = await service.sql<{ token_hash: string }>(`SELECT token_hash FROM teams.scim_tokens WHERE leader_account_id = $1`, [
      leader.accountId,
    ]);
    assert.deepEqual(
      rows.map((r) => r.token_hash),
      [tokenHash],
    );

    const listed = await service.call(
      Rpc.scimListUsers,
      { tokenHash, call: call('GET', '/scim/v2/Users'), filter: null, startIndex: 1, count: 10 },
      null,
    );
    assert.ok(listed.ok);
    const used = await service.call(Rpc.getScimToken, {}, leader);
    assert.ok(used.ok && used.value.lastUsedAt !== null, 'the token’s last use is shown');

    const newHash = hashOf(`dcscim_${randomBytes(32).toString('base64url')}`);
    assert.ok((await service.call(Rpc.storeScimToken, { tokenHash: newHash }, leader)).ok);
    const old = await service.call(
      Rpc.scimListUsers,
      { tokenHash, call: call('GET', '/scim/v2/Users'), filter: null, startIndex: 1, count: 10 },
      null,
    );
    assert.equal(!old.ok && old.status, 401, 'the rotated-out token is refused');
    assert.ok((await service.call(Rpc.revokeScimToken, {}, leader)).ok);
    const revoked = await service.call(
      Rpc.scimListUsers,
      { tokenHash: newHash, call: call('GET', '/scim/v2/Users'), filter: null, startIndex: 1, count: 10 },
      null,
    );
    assert.equal(!revoked.ok && revoked.status, 401);
    const again = await service.call(Rpc.revokeScimToken, {}, leader);
    assert.equal(!again.ok && again.status, 404);
    const rep = await service.call(Rpc.getScimToken, {}, { accountId: randomUUID(), role: 'teamMember' });
    assert.equal(!rep.ok && rep.status, 403, 'a rep has no SCIM settings');
  });

  it('creates a rep as the Teams section does: identity’s account for the leader, the member, teams.member.added; a second one with the userName is 409 uniqueness', async () => {
    const { leader, tokenHash } = await team();
    const made = await create(tokenHash, fields('thandi.mokoena@acme.test'));
    assert.ok(made.ok, JSON.stringify(made));
    const user = made.value.user;
    assert.equal(user.userName, 'thandi.mokoena@acme.test');
    assert.equal(user.externalId, 'ext-thandi.mokoena@acme.test');
    assert.equal(user.title, 'Sales rep');
    assert.equal(user.active, true);
    const provision = asked.find(
      (a) => a.subject === Rpc.provisionRepAccounts.subject && (a.body['reps'] as Array<{ accountId: string }>)[0]!.accountId === user.id,
    );
    assert.ok(provision, 'identity was asked to provision the account');
    assert.equal(provision.body['leaderAccountId'], leader.accountId);
    assert.equal((provision.body['reps'] as Array<{ username: string; password: string }>)[0]!.username, 'thandi-mokoena');
    assert.equal(
      (provision.body['reps'] as Array<{ password: string }>)[0]!.password,
      '',
      'no password: the welcome email lets the rep choose',
    );
    const added = await outboxOf('teams.member.added', user.id);
    assert.equal(added.length, 1, 'teams.member.added: profiles inherits the leader’s business, notifications sends the welcome');
    assert.equal((added[0]!.payload as { data: { leaderAccountId: string } }).data.leaderAccountId, leader.accountId);
    const listed = await service.call(Rpc.listTeam, { limit: 10 }, leader);
    assert.ok(listed.ok);
    assert.deepEqual(
      listed.value.reps.map((r) => r.accountId),
      [user.id],
      'the Teams section lists the rep',
    );

    const twice = await create(tokenHash, fields('THANDI.MOKOENA@acme.test'));
    assert.equal(!twice.ok && twice.status, 409);
    assert.deepEqual(!twice.ok && twice.fieldErrors, { scimType: ['uniqueness'] });
    const elsewhere = await create(tokenHash, fields('taken@elsewhere.test'));
    assert.equal(!elsewhere.ok && elsewhere.status, 409, 'an email another account has is uniqueness too');
  });

  it('refuses a leader without DigiPlatinum with 403, creating nothing', async () => {
    const { leader, tokenHash } = await team();
    lapsed.add(leader.accountId);
    const refused = await create(tokenHash, fields('lapsed@acme.test'));
    assert.equal(!refused.ok && refused.status, 403);
    assert.equal(!refused.ok && refused.message, 'Teams are part of DigiPlatinum. Please upgrade to DigiPlatinum to manage your team.');
    const members = await service.sql(`SELECT 1 FROM teams.members WHERE leader_account_id = $1`, [leader.accountId]);
    assert.equal(members.length, 0);
  });

  it('lists the team’s users by filter and page; another team’s token finds nothing of this team, and gets 404 for its user', async () => {
    const a = await team();
    const b = await team();
    const ids: string[] = [];
    for (const name of ['ayanda', 'bongani', 'chloe']) {
      const made = await create(a.tokenHash, fields(`${name}@alpha.test`));
      assert.ok(made.ok, JSON.stringify(made));
      ids.push(made.value.user.id);
    }
    const list = (
      tokenHash: string,
      filter: { attribute: 'userName' | 'externalId' | 'id'; value: string } | null,
      startIndex = 1,
      count = 10,
    ) => service.call(Rpc.scimListUsers, { tokenHash, call: call('GET', '/scim/v2/Users'), filter, startIndex, count }, null);
    const byName = await list(a.tokenHash, { attribute: 'userName', value: 'Bongani@Alpha.test' });
    assert.ok(byName.ok);
    assert.equal(byName.value.totalResults, 1);
    assert.equal(byName.value.users[0]!.id, ids[1]);
    const byExternal = await list(a.tokenHash, { attribute: 'externalId', value: 'ext-chloe@alpha.test' });
    assert.ok(byExternal.ok && byExternal.value.users[0]!.id === ids[2]);
    const page = await list(a.tokenHash, null, 2, 1);
    assert.ok(page.ok);
    assert.equal(page.value.totalResults, 3);
    assert.deepEqual(
      page.value.users.map((u) => u.id),
      [ids[1]],
    );

    const other = await list(b.tokenHash, { attribute: 'userName', value: 'bongani@alpha.test' });
    assert.ok(other.ok);
    assert.equal(other.value.totalResults, 0, 'team B’s token does not see team A’s users');
    const get = await service.call(
      Rpc.scimGetUser,
      { tokenHash: b.tokenHash, call: call('GET', `/scim/v2/Users/${ids[0]}`), id: ids[0]! },
      null,
    );
    assert.equal(!get.ok && get.status, 404);
    const del = await service.call(
      Rpc.scimDeleteUser,
      { tokenHash: b.tokenHash, call: call('DELETE', `/scim/v2/Users/${ids[0]}`), id: ids[0]! },
      null,
    );
    assert.equal(!del.ok && del.status, 404);
    const still = await service.call(
      Rpc.scimGetUser,
      { tokenHash: a.tokenHash, call: call('GET', `/scim/v2/Users/${ids[0]}`), id: ids[0]! },
      null,
    );
    assert.ok(still.ok, 'team B’s delete changed nothing');
    const unknown = await list(hashOf('not a token anybody has'), null);
    assert.equal(!unknown.ok && unknown.status, 401);
  });

  it('replaces, deactivates and reactivates (both PATCH forms), then deletes as the Teams section removes; each call audited', async () => {
    const { leader, tokenHash } = await team();
    const made = await create(tokenHash, fields('dumisani@bravo.test'));
    assert.ok(made.ok);
    const id = made.value.user.id;
    const path = `/scim/v2/Users/${id}`;

    const replaced = await service.call(
      Rpc.scimReplaceUser,
      {
        tokenHash,
        call: call('PUT', path),
        id,
        user: fields('dumisani@bravo.test', { givenName: 'Dumi', title: 'Team lead', tel: '0831234567' }),
      },
      null,
    );
    assert.ok(replaced.ok, JSON.stringify(replaced));
    assert.equal(replaced.value.user.givenName, 'Dumi');
    assert.equal(replaced.value.user.title, 'Team lead');
    assert.equal(replaced.value.signedOut, false);
    // Made with the title "Sales rep"; replaced with a new phone (the Teams section's change) and the title "Team lead":
    // both reach the rep's card.
    const updates = (await outboxOf('teams.member.updated', id)) as Array<{ payload: { data: { tel: string; title?: string } } }>;
    assert.deepEqual(
      updates.map((u) => [u.payload.data.tel, u.payload.data.title ?? null]),
      [
        ['0821234567', 'Sales rep'],
        ['0831234567', null],
        ['0831234567', 'Team lead'],
      ],
    );
    const patched = await service.call(
      Rpc.scimPatchUser,
      { tokenHash, call: call('PATCH', path), id, operations: { Operations: [{ op: 'replace', path: 'externalId', value: 'x-1' }] } },
      null,
    );
    assert.ok(patched.ok);
    assert.equal((await outboxOf('teams.member.updated', id)).length, 3, 'an unchanged title is not sent again');

    // Okta: no path, a value object.
    const okta = await service.call(
      Rpc.scimPatchUser,
      {
        tokenHash,
        call: call('PATCH', path),
        id,
        operations: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'replace', value: { active: false } }],
        },
      },
      null,
    );
    assert.ok(okta.ok, JSON.stringify(okta));
    assert.equal(okta.value.user.active, false);
    assert.equal(okta.value.signedOut, true, 'the gateway ends the rep’s sessions');
    assert.ok(
      asked.some((a) => a.subject === Rpc.disableRepAccount.subject && a.body['accountId'] === id),
      'identity refuses their sign-in',
    );
    assert.equal((await outboxOf('teams.member.suspended', id)).length, 1, 'profiles hides the page');
    const section = await service.call(Rpc.listTeam, { limit: 10 }, leader);
    assert.ok(section.ok);
    assert.equal(section.value.reps.find((r) => r.accountId === id)?.active, false, 'the Teams section shows the rep deactivated');

    // Entra ID: a path, "Replace", the boolean as a string.
    const entra = await service.call(
      Rpc.scimPatchUser,
      {
        tokenHash,
        call: call('PATCH', path),
        id,
        operations: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
        },
      },
      null,
    );
    assert.ok(entra.ok, JSON.stringify(entra));
    assert.equal(entra.value.user.active, true);
    assert.ok(asked.some((a) => a.subject === Rpc.enableRepAccount.subject && a.body['accountId'] === id));
    assert.equal((await outboxOf('teams.member.reinstated', id)).length, 1);

    const bad = await service.call(
      Rpc.scimPatchUser,
      { tokenHash, call: call('PATCH', path), id, operations: { Operations: [{ op: 'frobnicate', path: 'active', value: true }] } },
      null,
    );
    assert.equal(!bad.ok && bad.status, 400);
    assert.deepEqual(!bad.ok && bad.fieldErrors, { scimType: ['invalidSyntax'] });

    const deleted = await service.call(Rpc.scimDeleteUser, { tokenHash, call: call('DELETE', path), id }, null);
    assert.ok(deleted.ok);
    assert.equal((await outboxOf('teams.member.removed', id)).length, 1, 'removed as the Teams section removes');
    const gone = await service.call(Rpc.scimGetUser, { tokenHash, call: call('GET', path), id }, null);
    assert.equal(!gone.ok && gone.status, 404);

    const audit = await service.call(Rpc.listScimAudit, { limit: 100 }, leader);
    assert.ok(audit.ok);
    assert.deepEqual(
      audit.value.entries.map((e) => `${e.method} ${e.status} ${e.outcome}`),
      [
        'GET 404 notFound',
        'DELETE 204 deleted',
        'PATCH 400 invalidSyntax',
        'PATCH 200 reactivated',
        'PATCH 200 deactivated',
        'PATCH 200 patched',
        'PUT 200 replaced',
        'POST 201 created',
      ],
    );
    assert.ok(audit.value.entries.every((e) => e.userName === null || e.userName === 'dumisani@bravo.test'));
    assert.equal(audit.value.entries.find((e) => e.outcome === 'deleted')?.userId, id);
  });

  it('makes a deleted user again (RFC 7644 3.6: a deleted user holds no userName): identity is told to free the removed rep’s address', async () => {
    const { tokenHash } = await team();
    const first = await create(tokenHash, fields('Ayanda@Delta.test'));
    assert.ok(first.ok);
    const oldId = first.value.user.id;
    const deleted = await service.call(Rpc.scimDeleteUser, { tokenHash, call: call('DELETE', `/scim/v2/Users/${oldId}`), id: oldId }, null);
    assert.ok(deleted.ok);
    const again = await create(tokenHash, fields('ayanda@delta.test'));
    assert.ok(again.ok, JSON.stringify(again));
    assert.notEqual(again.value.user.id, oldId, 'a new user, with a new id');
    const provisions = asked.filter(
      (a) =>
        a.subject === Rpc.provisionRepAccounts.subject &&
        (a.body['reps'] as Array<{ email: string }>)[0]!.email.toLowerCase() === 'ayanda@delta.test',
    );
    assert.deepEqual(
      provisions.map((a) => a.body['releaseAccountIds'] ?? null),
      [null, [oldId]],
    );
    const gone = await service.call(Rpc.scimGetUser, { tokenHash, call: call('GET', `/scim/v2/Users/${oldId}`), id: oldId }, null);
    assert.equal(!gone.ok && gone.status, 404, 'the deleted one stays gone');
    // Another team's removed rep of that address is not freed by this team.
    const other = await team();
    const elsewhere = await create(other.tokenHash, fields('ayanda@delta.test'));
    assert.ok(elsewhere.ok);
    assert.equal(asked.filter((a) => a.subject === Rpc.provisionRepAccounts.subject).at(-1)!.body['releaseAccountIds'], undefined);
  });

  it('pages the audit list newest first by keyset; another leader reads only their own', async () => {
    const { leader, tokenHash } = await team();
    for (let i = 0; i < 5; i++)
      await service.call(
        Rpc.scimListUsers,
        { tokenHash, call: call('GET', '/scim/v2/Users'), filter: null, startIndex: 1, count: 1 },
        null,
      );
    await service.call(Rpc.scimRefused, { tokenHash, call: call('GET', '/scim/v2/Users'), status: 400, outcome: 'invalidFilter' }, null);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await service.call(Rpc.listScimAudit, { limit: 2, ...(cursor ? { cursor } : {}) }, leader);
      assert.ok(page.ok);
      seen.push(...page.value.entries.map((e) => e.id));
      cursor = page.value.nextCursor ?? undefined;
    } while (cursor);
    assert.equal(seen.length, 6);
    assert.equal(new Set(seen).size, 6, 'no entry twice');
    const first = await service.call(Rpc.listScimAudit, { limit: 1 }, leader);
    assert.ok(first.ok && first.value.entries[0]!.outcome === 'invalidFilter', 'newest first');
    const other = await service.call(Rpc.listScimAudit, { limit: 100 }, leaderOf());
    assert.ok(other.ok);
    assert.equal(other.value.entries.length, 0);
    const text = JSON.stringify(first.value);
    assert.ok(!text.includes(tokenHash), 'the audit list never holds the token or its hash');
  });

  it('shows staff a team’s SSO and SCIM state and lets staff turn them off; nobody else', async () => {
    const { leader, tokenHash } = await team();
    assert.ok(
      (
        await service.call(
          Rpc.saveSsoSettings,
          {
            issuer: 'https://idp.example.test',
            clientId: 'c',
            clientSecretCiphertext: 'v1.x',
            domains: [`${randomUUID().slice(0, 8)}.test`],
            required: true,
          },
          leader,
        )
      ).ok,
    );
    const staff: Caller = { accountId: randomUUID(), role: 'staff' };
    const state = await service.call(Rpc.staffTeamSignIn, { accountId: leader.accountId }, staff);
    assert.ok(state.ok);
    assert.deepEqual(state.value.sso, { configured: true, required: true, issuer: 'https://idp.example.test' });
    assert.equal(state.value.scim.configured, true);
    for (const caller of [leader, { accountId: randomUUID(), role: 'user' as const }, null]) {
      const refused = await service.call(Rpc.staffTeamSignInOff, { accountId: leader.accountId, scim: true, sso: true }, caller);
      assert.equal(refused.ok, false, 'staff only');
    }
    const off = await service.call(Rpc.staffTeamSignInOff, { accountId: leader.accountId, scim: true, sso: false }, staff);
    assert.ok(off.ok);
    assert.equal(off.value.scim.configured, false);
    assert.equal(off.value.sso.configured, true, 'only what staff named is turned off');
    const refused = await service.call(
      Rpc.scimListUsers,
      { tokenHash, call: call('GET', '/scim/v2/Users'), filter: null, startIndex: 1, count: 1 },
      null,
    );
    assert.equal(!refused.ok && refused.status, 401);
    const both = await service.call(Rpc.staffTeamSignInOff, { accountId: leader.accountId, sso: true }, staff);
    assert.ok(both.ok && !both.value.sso.configured);
    assert.equal(ScimMessages.badToken.length > 0, true);
  });
  it('deletes calls older than SCIM_AUDIT_RETENTION_DAYS (90) from every team’s audit list, on start and on a timer', async () => {
    const teamA = await team();
    const teamB = await team();
    const list = (tokenHash: string) =>
      service.call(Rpc.scimListUsers, { tokenHash, call: call('GET', '/scim/v2/Users'), filter: null, startIndex: 1, count: 1 }, null);
    await list(teamA.tokenHash);
    await list(teamB.tokenHash);
    // Calls as old as 91 and 89 days, in both teams.
    for (const { leader } of [teamA, teamB])
      await service.sql(
        `INSERT INTO teams.scim_audit (leader_account_id, at, method, path, status, outcome)
         VALUES ($1, now() - interval '91 days', 'GET', '/scim/v2/Users', 200, 'listed'),
                ($1, now() - interval '89 days', 'GET', '/scim/v2/Users', 200, 'listed')`,
        [leader.accountId],
      );
    const ages = async (leader: Caller) => {
      const page = await service.call(Rpc.listScimAudit, { limit: 100 }, leader);
      assert.ok(page.ok);
      return page.value.entries.map((e) => Math.round((Date.now() - Date.parse(e.at)) / 86_400_000));
    };
    assert.deepEqual(await ages(teamA.leader), [0, 89, 91]);
    const pruned = await service.get(ScimAuditPrune).run();
    assert.ok(pruned >= 2, `the two old calls at least (${pruned})`);
    assert.deepEqual(await ages(teamA.leader), [0, 89]);
    assert.deepEqual(await ages(teamB.leader), [0, 89]);
    // A day later the 89-day-old calls are past 90 too.
    await service.get(ScimAuditPrune).run(new Date(Date.now() + 2 * 86_400_000));
    assert.deepEqual(await ages(teamA.leader), [0]);
  });
});
