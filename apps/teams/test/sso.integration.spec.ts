import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ProfileDefaults, Rpc, SsoMessages } from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';
import { InProcessService, type Caller } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { teamsService } from '../src/service.js';

// A team's company sign-in as the teams service keeps it (issue 27 item 1): the leader's settings (the secret only as
// the gateway's ciphertext), each email domain to one team, and what the gateway's sign-in asks: the provider of a
// domain or a team link, and which team's provider may sign an account in (a current rep's, or the leader's own) and
// whether its password is refused. Profiles is a stand-in answering every caller's tier as DigiPlatinum.

let service: InProcessService<Config>;
let profiles: NatsConnection;

beforeAll(async () => {
  service = await InProcessService.start(teamsService);
  profiles = await connectNats(service.natsUrl, 'profiles-stand-in');
  profiles.subscribe(Rpc.getOwnProfile.subject, {
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
  await profiles.flush();
});

afterAll(async () => {
  await profiles?.close();
  await service?.stop();
});

const leaderOf = (): Caller & { accountId: string } => ({ accountId: randomUUID(), role: 'teamLeader' });
const settings = (domains: string[], extra: Record<string, unknown> = {}) => ({
  issuer: 'https://idp.example.test',
  clientId: 'client-1',
  clientSecretCiphertext: 'v1.sealed-by-the-gateway',
  domains,
  required: false,
  ...extra,
});

async function storeRep(leaderId: string, email: string, removed = false): Promise<string> {
  const id = randomUUID();
  await service.sql(
    `INSERT INTO teams.members (member_account_id, leader_account_id, username, first_name, last_name, email, tel, removed_at)
     VALUES ($1, $2, $3, 'Rep', 'Tester', $4, '0821234567', CASE WHEN $5 THEN now() END)`,
    [id, leaderId, `rep-${id.slice(0, 8)}`, email, removed],
  );
  return id;
}

describe('a team’s company sign-in in the teams service', () => {
  it('stores the settings with the sealed secret; the first save needs one, later saves keep it; the answer has no secret', async () => {
    const leader = leaderOf();
    const first = await service.call(Rpc.saveSsoSettings, settings(['alpha.test'], { clientSecretCiphertext: null }), leader);
    assert.equal(first.ok, false);
    assert.deepEqual(!first.ok && first.fieldErrors, { clientSecret: [SsoMessages.clientSecretRequired] });

    const saved = await service.call(Rpc.saveSsoSettings, settings(['alpha.test', 'alpha-group.test']), leader);
    assert.ok(saved.ok);
    assert.equal(saved.value.hasClientSecret, true);
    assert.ok(!JSON.stringify(saved.value).includes('sealed-by-the-gateway'));
    const kept = await service.call(
      Rpc.saveSsoSettings,
      settings(['alpha.test'], { clientSecretCiphertext: null, required: true }),
      leader,
    );
    assert.ok(kept.ok);
    assert.equal(kept.value.teamId, saved.value.teamId, 'the team link stays the same');
    assert.equal(kept.value.domains.join(','), 'alpha.test', 'the domains are replaced');
    const found = await service.call(Rpc.findSsoProvider, { email: 'Someone@ALPHA.test' }, null);
    assert.ok(found.ok);
    assert.equal(found.value.clientSecretCiphertext, 'v1.sealed-by-the-gateway');
    assert.equal(
      (await service.call(Rpc.findSsoProvider, { email: 'x@alpha-group.test' }, null)).ok,
      false,
      'a dropped domain routes nowhere',
    );
  });

  it('routes each domain to one team only; another leader’s settings are their own', async () => {
    const a = leaderOf();
    const b = leaderOf();
    assert.ok((await service.call(Rpc.saveSsoSettings, settings(['bravo.test']), a)).ok);
    const taken = await service.call(Rpc.saveSsoSettings, settings(['charlie.test', 'bravo.test']), b);
    assert.equal(taken.ok, false);
    assert.deepEqual(!taken.ok && taken.fieldErrors, { 'domains.1': [SsoMessages.domainTaken] });
    const own = await service.call(Rpc.getSsoSettings, {}, b);
    assert.ok(own.ok);
    assert.equal(own.value.teamId, null, 'B has nothing saved, and does not see A’s');
    assert.equal((await service.call(Rpc.removeSsoSettings, {}, b)).ok, false, 'nothing of B’s to remove');
    const teamMember = await service.call(Rpc.getSsoSettings, {}, { accountId: randomUUID(), role: 'teamMember' });
    assert.equal(!teamMember.ok && teamMember.status, 403);
  });

  it('says which team may sign an account in: a current rep’s team (password refused when required), the leader’s own, else none', async () => {
    const leader = leaderOf();
    const saved = await service.call(Rpc.saveSsoSettings, settings(['delta.test'], { required: true }), leader);
    assert.ok(saved.ok);
    const rep = await storeRep(leader.accountId, 'rep@delta.test');
    const gone = await storeRep(leader.accountId, 'gone@delta.test', true);
    const state = async (accountId: string) => {
      const answer = await service.call(Rpc.ssoAccountState, { accountId }, null);
      assert.ok(answer.ok);
      return answer.value;
    };
    assert.deepEqual(await state(rep), { teamId: saved.value.teamId, passwordRefused: true });
    assert.deepEqual(
      await state(leader.accountId),
      { teamId: saved.value.teamId, passwordRefused: false },
      'the leader keeps the password',
    );
    assert.deepEqual(await state(gone), { teamId: null, passwordRefused: false }, 'a removed rep is no longer of the team');
    assert.deepEqual(await state(randomUUID()), { teamId: null, passwordRefused: false });

    assert.ok((await service.call(Rpc.removeSsoSettings, {}, leader)).ok);
    assert.deepEqual(await state(rep), { teamId: null, passwordRefused: false }, 'removed: the password works again');
    assert.equal((await service.call(Rpc.findSsoProvider, { teamId: saved.value.teamId! }, null)).ok, false);
  });
});
