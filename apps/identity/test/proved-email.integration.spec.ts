import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, Rpc } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';
import { RegisterAccount } from '../src/accounts/use-cases/register-account.use-case.js';

// Issue 28, item 1: identity records when an account proved its address (a link sent to that address followed), and
// only that proof (never a leader's word) lets other services treat what they keep under the address as the account's
// (`identity.account.proved-email`, and the address in `identity.user.deleted`).

let service: InProcessService<Config>;
const PASSWORD = 'kudu-braai-2026';
const REP_PASSWORD = 'leader-chose-this-2026';

const proved = (accountId: string) => service.call(Rpc.provedEmail, { accountId });
const notProved = { ok: true, value: { email: null, provedAt: null } };
const provedAs = (email: string) => ({ ok: true, value: { email, provedAt: expect.stringMatching(/^\d{4}-/) } });

async function register(username: string): Promise<string> {
  const { accountId } = await service
    .get(RegisterAccount)
    .execute({ username, firstName: 'Lerato', lastName: 'Dube', email: `${username}@example.test`, password: PASSWORD });
  if (!accountId) throw new Error(`${username}: that email has an account already`);
  return accountId;
}

async function verify(accountId: string): Promise<void> {
  const { token, tokenHash } = newEmailToken();
  expect((await service.call(Rpc.issueVerificationToken, { accountId, tokenHash })).ok).toBe(true);
  expect((await service.call(Rpc.verifyEmail, { token })).ok).toBe(true);
}

/** A team leader (role set in the table, as the membership handler would) and reps they create with a password. */
async function leaderWithReps(leader: string, reps: string[]): Promise<{ leaderId: string; repIds: string[] }> {
  const leaderId = await register(leader);
  await verify(leaderId);
  await service.sql("UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1", [leaderId]);
  const made = await service.call(
    Rpc.createRepAccounts,
    {
      leaderPassword: PASSWORD,
      dryRun: false,
      reps: reps.map((username) => ({
        username,
        firstName: 'Rep',
        lastName: 'Nkosi',
        email: `${username}@company.test`,
        password: REP_PASSWORD,
      })),
    },
    { accountId: leaderId, role: 'teamLeader' },
  );
  if (!made.ok) throw new Error(made.message);
  return { leaderId, repIds: made.value.accounts.map((a) => a.accountId) };
}

/** The welcome link notifications sends a new rep (a password-reset token made by the sender). */
async function welcomeLink(accountId: string): Promise<string> {
  const { token, tokenHash } = newEmailToken();
  const issued = await service.call(Rpc.issueWelcomeToken, { accountId, tokenHash });
  if (!issued.ok || !issued.value) throw new Error('no welcome link');
  return token;
}

const deletedEmail = async (accountId: string) =>
  (await service.recordedEvents<{ accountId: string; email: string | null }>(Events.userDeleted.subject)).find(
    (e) => e.data.accountId === accountId,
  )?.data.email;

beforeAll(async () => {
  service = await InProcessService.start(identityService);
});

afterAll(async () => {
  await service.stop();
});

describe('the address an account proved', () => {
  it('is none until the verification link is used, then the account’s address; deletion names it only then', async () => {
    const unverified = await register('never-verified');
    const verified = await register('verified-one');
    expect(await proved(unverified)).toEqual(notProved);
    await verify(verified);
    expect(await proved(verified)).toEqual(provedAs('verified-one@example.test'));
    // Another account's proof is its own.
    expect(await proved(unverified)).toEqual(notProved);

    for (const accountId of [unverified, verified])
      expect(await service.call(Rpc.deleteAccount, { password: PASSWORD }, { accountId })).toMatchObject({ ok: true });
    expect(await deletedEmail(unverified)).toBeNull();
    expect(await deletedEmail(verified)).toBe('verified-one@example.test');
    expect(await proved(verified)).toMatchObject({ ok: false, status: 404 });
  });

  it('is none for a rep the leader created (verified on the leader’s word) until the rep follows the welcome link', async () => {
    const { repIds } = await leaderWithReps('leader-a', ['rep-follows', 'rep-never']);
    const [follows, never] = repIds as [string, string];
    for (const rep of repIds) {
      expect(await service.call(Rpc.getAccount, {}, { accountId: rep, role: 'teamMember' })).toMatchObject({
        ok: true,
        value: { isVerified: true },
      });
      expect(await proved(rep)).toEqual(notProved);
    }
    // The rep signs in with the leader's password all the same; only following a link proves the mailbox.
    expect(await service.call(Rpc.authenticate, { email: 'rep-never@company.test', password: REP_PASSWORD })).toMatchObject({ ok: true });
    expect(await proved(never)).toEqual(notProved);

    const token = await welcomeLink(follows);
    expect((await service.call(Rpc.resetPassword, { token, password: 'kudu-winter-choice-2026' })).ok).toBe(true);
    expect(await proved(follows)).toEqual(provedAs('rep-follows@company.test'));
    expect(await proved(never)).toEqual(notProved);

    expect(await service.call(Rpc.deleteAccount, { password: REP_PASSWORD }, { accountId: never, role: 'teamMember' })).toMatchObject({
      ok: true,
    });
    expect(
      await service.call(Rpc.deleteAccount, { password: 'kudu-winter-choice-2026' }, { accountId: follows, role: 'teamMember' }),
    ).toMatchObject({ ok: true });
    expect(await deletedEmail(never)).toBeNull();
    expect(await deletedEmail(follows)).toBe('rep-follows@company.test');
  });

  it('is cleared when the leader changes the rep’s address, and a link sent to the old address does not prove the new one', async () => {
    const { repIds } = await leaderWithReps('leader-b', ['rep-moved']);
    const rep = repIds[0]!;
    expect((await service.call(Rpc.resetPassword, { token: await welcomeLink(rep), password: 'kudu-winter-choice-2026' })).ok).toBe(true);
    expect(await proved(rep)).toEqual(provedAs('rep-moved@company.test'));

    // The same address in another case is the same mailbox: still proved, and its links stay good.
    const kept = newEmailToken();
    expect((await service.call(Rpc.issuePasswordResetToken, { accountId: rep, tokenHash: kept.tokenHash })).ok).toBe(true);
    const same = { accountId: rep, username: 'rep-moved', firstName: 'Rep', lastName: 'Nkosi', email: 'Rep-Moved@Company.test' };
    expect((await service.call(Rpc.updateRepAccount, same)).ok).toBe(true);
    expect(await proved(rep)).toEqual(provedAs('Rep-Moved@Company.test'));
    expect((await service.call(Rpc.resetPassword, { token: kept.token, password: 'kudu-autumn-choice-2026' })).ok).toBe(true);

    // A reset link goes to the current address; then the leader types another address before it is used.
    const sentBefore = newEmailToken();
    expect(await service.call(Rpc.issuePasswordResetToken, { accountId: rep, tokenHash: sentBefore.tokenHash })).toMatchObject({
      ok: true,
      value: { email: 'Rep-Moved@Company.test' },
    });
    expect((await service.call(Rpc.updateRepAccount, { ...same, email: 'someone-else@company.test' })).ok).toBe(true);
    expect(await proved(rep)).toEqual(notProved);
    // The old address's link is spent with the change: whoever still reads that mailbox cannot set the rep's
    // password (it set one, proving nothing, until 2026-11-26), nor verify with it.
    expect(await service.call(Rpc.resetPassword, { token: sentBefore.token, password: 'kudu-spring-choice-2026' })).toMatchObject({
      ok: false,
      code: 'LINK_INVALID',
    });
    expect(await proved(rep)).toEqual(notProved);

    // A link sent to the new address, followed, proves it.
    const sentAfter = newEmailToken();
    expect(await service.call(Rpc.issuePasswordResetToken, { accountId: rep, tokenHash: sentAfter.tokenHash })).toMatchObject({
      ok: true,
      value: { email: 'someone-else@company.test' },
    });
    expect((await service.call(Rpc.resetPassword, { token: sentAfter.token, password: 'kudu-summer-choice-2026' })).ok).toBe(true);
    expect(await proved(rep)).toEqual(provedAs('someone-else@company.test'));
  });

  it('moves to the new address when the owner confirms an email change through the link sent to it', async () => {
    const accountId = await register('changing-owner');
    expect(await service.call(Rpc.requestEmailChange, { email: 'changed-owner@example.test', password: PASSWORD }, { accountId })).toEqual({
      ok: true,
      value: { requested: true },
    });
    const { token, tokenHash } = newEmailToken();
    await service.call(Rpc.issueEmailChangeToken, { accountId, newEmail: 'changed-owner@example.test', tokenHash });
    expect(await proved(accountId)).toEqual(notProved);
    expect((await service.call(Rpc.confirmEmailChange, { token })).ok).toBe(true);
    expect(await proved(accountId)).toEqual(provedAs('changed-owner@example.test'));
  });

  it('answers 404 for an account that does not exist, and the export says when the address was proved', async () => {
    expect(await proved('00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404 });
    const accountId = await register('exported-proof');
    await verify(accountId);
    const exported = await service.exportOf(Rpc.exportAccountData, { accountId });
    expect(exported).toMatchObject({ ok: true, value: { emailProvedAt: expect.stringMatching(/^\d{4}-/) } });
  });
});
