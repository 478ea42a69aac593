import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Rpc, ScimMessages } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';
import { RegisterAccount } from '../src/accounts/use-cases/register-account.use-case.js';

// SCIM provisioning (issue 27 item 2): the teams service, having checked the team's token, asks identity for a rep's
// account without the leader's password (a team leader's only); a deactivated rep is disabled and enabled again,
// unless their username was released after the grace period.

let service: InProcessService<Config>;

beforeAll(async () => {
  service = await InProcessService.start(identityService);
});
afterAll(async () => {
  await service?.stop();
});

async function register(username: string, role: 'teamLeader' | 'user'): Promise<string> {
  const { accountId } = await service
    .get(RegisterAccount)
    .execute({ username, firstName: 'Lerato', lastName: 'Leader', email: `${username}@acme.test`, password: 'kudu-braai-2026' });
  assert.ok(accountId);
  await service.sql('UPDATE identity.accounts SET role = $2 WHERE id = $1', [accountId, role]);
  return accountId;
}

const rep = (username: string) => ({
  accountId: randomUUID(),
  username,
  firstName: 'Sipho',
  lastName: 'Rep',
  email: `${username}@acme.test`,
  password: '' as const,
});

describe('provisioned rep accounts', () => {
  it('makes a team leader’s rep without a password of anyone’s; refuses for an account that leads no team', async () => {
    const leader = await register('prov-leader', 'teamLeader');
    const made = await service.call(Rpc.provisionRepAccounts, { leaderAccountId: leader, reps: [rep('prov-rep')] }, null);
    assert.ok(made.ok, JSON.stringify(made));
    const [row] = await service.sql<{ role: string; is_verified: boolean }>(
      'SELECT role, is_verified FROM identity.accounts WHERE username = $1',
      ['prov-rep'],
    );
    assert.deepEqual(row, { role: 'teamMember', is_verified: true });
    const taken = await service.call(Rpc.provisionRepAccounts, { leaderAccountId: leader, reps: [rep('prov-rep')] }, null);
    assert.equal(!taken.ok && taken.status, 400);
    assert.ok(!taken.ok && taken.fieldErrors?.['reps.0.username']);

    const user = await register('prov-user', 'user');
    const refused = await service.call(Rpc.provisionRepAccounts, { leaderAccountId: user, reps: [rep('prov-rep-2')] }, null);
    assert.equal(!refused.ok && refused.status, 403);
    // Only the teams service may publish it: the bus's permissions say so (no route of the gateway can reach it).
    assert.equal(Rpc.provisionRepAccounts.access, 'service');
  });

  it('disables and enables a deactivated rep; one whose username was released stays disabled (409)', async () => {
    const leader = await register('prov-leader-2', 'teamLeader');
    const made = await service.call(Rpc.provisionRepAccounts, { leaderAccountId: leader, reps: [rep('prov-rep-4')] }, null);
    assert.ok(made.ok);
    const id = made.value.accounts[0]!.accountId;
    assert.ok((await service.call(Rpc.disableRepAccount, { accountId: id }, null)).ok);
    const disabled = await service.sql<{ disabled_at: Date | null }>('SELECT disabled_at FROM identity.accounts WHERE id = $1', [id]);
    assert.ok(disabled[0]!.disabled_at);
    assert.ok((await service.call(Rpc.enableRepAccount, { accountId: id }, null)).ok);
    const enabled = await service.sql<{ disabled_at: Date | null }>('SELECT disabled_at FROM identity.accounts WHERE id = $1', [id]);
    assert.equal(enabled[0]!.disabled_at, null);

    assert.ok((await service.call(Rpc.disableRepAccount, { accountId: id }, null)).ok);
    const renamed = await service.call(
      Rpc.updateRepAccount,
      { accountId: id, username: 'prov-rep-4', firstName: 'Sipho', lastName: 'Dube', email: 'prov-rep-4@acme.test' },
      null,
    );
    assert.ok(renamed.ok, 'a deactivated rep’s names still follow the identity provider');
    await service.sql(`UPDATE identity.accounts SET username = 'removed-' || id WHERE id = $1`, [id]);
    const gone = await service.call(
      Rpc.updateRepAccount,
      { accountId: id, username: 'prov-rep-4', firstName: 'Sipho', lastName: 'Dube', email: 'prov-rep-4@acme.test' },
      null,
    );
    assert.equal(!gone.ok && gone.status, 404, 'a released account is nobody’s');
    const released = await service.call(Rpc.enableRepAccount, { accountId: id }, null);
    assert.equal(!released.ok && released.status, 409);
    assert.equal(!released.ok && released.message, ScimMessages.cannotReactivate);
    const leaderEnable = await service.call(Rpc.enableRepAccount, { accountId: leader }, null);
    assert.equal(!leaderEnable.ok && leaderEnable.status, 403, 'only team members');
  });
  it('frees the address of a removed rep the teams service names, so the same user is made again; nothing else is freed', async () => {
    const leader = await register('prov-leader-3', 'teamLeader');
    const first = await service.call(Rpc.provisionRepAccounts, { leaderAccountId: leader, reps: [rep('prov-rep-5')] }, null);
    assert.ok(first.ok);
    const oldId = first.value.accounts[0]!.accountId;
    assert.ok((await service.call(Rpc.disableRepAccount, { accountId: oldId }, null)).ok, 'removed from the team');
    const again = { ...rep('prov-rep-5b'), email: 'prov-rep-5@acme.test' };
    const held = await service.call(Rpc.provisionRepAccounts, { leaderAccountId: leader, reps: [again] }, null);
    assert.equal(!held.ok && held.status, 400, 'within the grace period the address is held unless teams names the removed rep');
    assert.ok(!held.ok && held.fieldErrors?.['reps.0.email']);

    // Another account named for release is left alone: a live rep, and an account of another address.
    const live = await service.call(Rpc.provisionRepAccounts, { leaderAccountId: leader, reps: [rep('prov-rep-6')] }, null);
    assert.ok(live.ok);
    const liveId = live.value.accounts[0]!.accountId;
    const made = await service.call(
      Rpc.provisionRepAccounts,
      { leaderAccountId: leader, reps: [again], releaseAccountIds: [oldId, liveId] },
      null,
    );
    assert.ok(made.ok, JSON.stringify(made));
    const rows = await service.sql<{ id: string; username: string; email_normalized: string; disabled: boolean }>(
      `SELECT id, username, email_normalized, disabled_at IS NOT NULL AS disabled FROM identity.accounts WHERE id = ANY($1) ORDER BY username`,
      [[oldId, liveId, made.value.accounts[0]!.accountId]],
    );
    assert.deepEqual(
      rows.map((r) => [r.username, r.email_normalized, r.disabled]),
      [
        ['prov-rep-5', `removed-${oldId}`, true],
        ['prov-rep-5b', 'prov-rep-5@acme.test', false],
        ['prov-rep-6', 'prov-rep-6@acme.test', false],
      ],
      'the old account keeps its username (held for the grace period) and its sign-in address is nobody’s',
    );
  });
});
