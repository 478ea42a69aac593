import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Rpc } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import { InProcessService } from '@digicard/service-testing';
import { TestSystem, waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { ordersService } from '../src/service.js';
import { ordersEnv } from './orders-env.js';

// The orders part of the data export with the real identity service (a process on the same NATS server as this
// in-process orders service): the enquiries sent under the account's email, only once the account proved the address,
// and deleted with the account.

let system: TestSystem;
let service: InProcessService<Config>;
const environment = ordersEnv();

beforeAll(async () => {
  system = await TestSystem.start({ apps: ['identity', 'profiles'] });
  service = await InProcessService.start(ordersService, { ...environment.env, NATS_URL: system.nats.url });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await system?.stop();
  await environment.cleanUp();
});

describe('enquiries in the data export', () => {
  it('leaves out the enquiries under an address the account has not verified, and adds them once it has', async () => {
    // Someone else's enquiries, sent under the address before anyone registered it.
    const sent = await service.call(Rpc.submitEnquiry, {
      kind: 'message',
      name: 'Sipho Dube',
      email: 'Sipho@Company.example',
      message: 'Private: our budget is R90 000.',
    });
    expect(sent.ok).toBe(true);
    const registered = await service.call(Rpc.register, {
      username: 'sipho-d',
      firstName: 'Sipho',
      lastName: 'Dube',
      email: 'sipho@company.example',
      password: 'kudu-braai-2026',
    });
    if (!registered.ok || !registered.value.accountId) throw new Error('not registered');
    const accountId = registered.value.accountId;
    const meta = { accountId };

    const unproved = await service.exportOf(Rpc.exportOrdersData, meta);
    if (!unproved.ok) throw new Error(unproved.message);
    expect(unproved.value.enquiries).toEqual([]);
    expect(JSON.stringify(unproved.value)).not.toContain('R90 000');

    const { token, tokenHash } = newEmailToken();
    await service.call(Rpc.issueVerificationToken, { accountId, tokenHash });
    expect((await service.call(Rpc.verifyEmail, { token })).ok).toBe(true);
    const proved = await service.exportOf(Rpc.exportOrdersData, meta);
    if (!proved.ok) throw new Error(proved.message);
    expect((proved.value.enquiries as Array<{ message: string }>).map((e) => e.message)).toEqual(['Private: our budget is R90 000.']);
  });

  it('deletes the enquiries under the verified address with the account, and nobody else’s', async () => {
    const mine = await service.call(Rpc.submitEnquiry, {
      kind: 'call-back',
      name: 'Naledi Moyo',
      email: 'NALEDI@example.co.za',
      number: '0821234567',
    });
    const other = await service.call(Rpc.submitEnquiry, {
      kind: 'call-back',
      name: 'Other Person',
      email: 'other@example.co.za',
      number: '0821234567',
    });
    expect(mine.ok && other.ok).toBe(true);
    const password = 'kudu-braai-2026';
    const registered = await service.call(Rpc.register, {
      username: 'naledi-m',
      firstName: 'Naledi',
      lastName: 'Moyo',
      email: 'naledi@example.co.za',
      password,
    });
    if (!registered.ok || !registered.value.accountId) throw new Error('not registered');
    const accountId = registered.value.accountId;
    const { token, tokenHash } = newEmailToken();
    await service.call(Rpc.issueVerificationToken, { accountId, tokenHash });
    expect((await service.call(Rpc.verifyEmail, { token })).ok).toBe(true);

    expect(await service.call(Rpc.deleteAccount, { password }, { accountId })).toEqual({ ok: true, value: { deleted: true } });
    const count = async (email: string) =>
      (await service.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.enquiries WHERE lower(email) = $1', [email]))[0]!.n;
    await waitFor('the enquiries under the deleted account’s address gone', async () =>
      (await count('naledi@example.co.za')) === 0 ? true : null,
    );
    expect(await count('other@example.co.za')).toBe(1);
  });

  it('leaves out, and keeps on deletion, the enquiries under a rep’s address the leader typed, until the rep follows a link sent to it', async () => {
    // Enquiries sent by the real owners of two addresses, and by somebody else.
    for (const [name, email] of [
      ['Thandi Nkosi', 'thandi@company.example'],
      ['Bongani Nkosi', 'bongani@company.example'],
      ['Someone Else', 'someone@company.example'],
    ] as const) {
      expect((await service.call(Rpc.submitEnquiry, { kind: 'message', name, email, message: `Private note of ${name}.` })).ok).toBe(true);
    }
    // A team leader, who types those two addresses for two reps (and chooses the reps' passwords).
    const password = 'kudu-braai-2026';
    const leader = await service.call(Rpc.register, {
      username: 'leader-l',
      firstName: 'Lerato',
      lastName: 'Leader',
      email: 'lerato@leader.example',
      password,
    });
    if (!leader.ok || !leader.value.accountId) throw new Error('leader not registered');
    const leaderId = leader.value.accountId;
    await system.sql("UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1", [leaderId]);
    const repPassword = 'leader-chose-this-2026';
    const made = await service.call(
      Rpc.createRepAccounts,
      {
        leaderPassword: password,
        dryRun: false,
        reps: [
          { username: 'thandi-rep', firstName: 'Thandi', lastName: 'Nkosi', email: 'thandi@company.example', password: repPassword },
          { username: 'bongani-rep', firstName: 'Bongani', lastName: 'Nkosi', email: 'bongani@company.example', password: repPassword },
        ],
      },
      { accountId: leaderId, role: 'teamLeader' },
    );
    if (!made.ok) throw new Error(made.message);
    const [thandi, bongani] = made.value.accounts.map((a) => a.accountId);
    if (!thandi || !bongani) throw new Error('reps not made');

    // Signed in with the password the leader chose, a rep's export holds nothing sent under the address.
    for (const accountId of [thandi, bongani]) {
      const exported = await service.exportOf(Rpc.exportOrdersData, { accountId, role: 'teamMember' });
      if (!exported.ok) throw new Error(exported.message);
      expect(exported.value.enquiries).toEqual([]);
      expect(JSON.stringify(exported.value)).not.toContain('Private note');
    }

    // Thandi follows the welcome link sent to her address (a password-reset token): the address is proved, hers only.
    const { token, tokenHash } = newEmailToken();
    expect((await service.call(Rpc.issueWelcomeToken, { accountId: thandi, tokenHash })).ok).toBe(true);
    expect((await service.call(Rpc.resetPassword, { token, password: 'kudu-winter-choice-2026' })).ok).toBe(true);
    const proved = await service.exportOf(Rpc.exportOrdersData, { accountId: thandi, role: 'teamMember' });
    if (!proved.ok) throw new Error(proved.message);
    expect((proved.value.enquiries as Array<{ message: string }>).map((e) => e.message)).toEqual(['Private note of Thandi Nkosi.']);

    // Deleting both accounts: the proved address's enquiries go, the unproved one's stay (they were never Bongani's).
    const count = async (email: string) =>
      (await service.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.enquiries WHERE lower(email) = $1', [email]))[0]!.n;
    expect(await service.call(Rpc.deleteAccount, { password: repPassword }, { accountId: bongani, role: 'teamMember' })).toEqual({
      ok: true,
      value: { deleted: true },
    });
    expect(
      await service.call(Rpc.deleteAccount, { password: 'kudu-winter-choice-2026' }, { accountId: thandi, role: 'teamMember' }),
    ).toEqual({
      ok: true,
      value: { deleted: true },
    });
    await waitFor('the enquiries under Thandi’s proved address gone', async () =>
      (await count('thandi@company.example')) === 0 ? true : null,
    );
    // Both deletions were handled (they are consumed in order): Bongani's address kept its enquiry.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await count('bongani@company.example')).toBe(1);
    expect(await count('someone@company.example')).toBe(1);
  });

  it('keeps the enquiries under an address the deleted account never verified', async () => {
    await service.call(Rpc.submitEnquiry, { kind: 'call-back', name: 'Real Owner', email: 'boss@company.example', number: '0821234567' });
    const password = 'kudu-braai-2026';
    const registered = await service.call(Rpc.register, {
      username: 'not-the-boss',
      firstName: 'Not',
      lastName: 'Boss',
      email: 'boss@company.example',
      password,
    });
    if (!registered.ok || !registered.value.accountId) throw new Error('not registered');
    expect(await service.call(Rpc.deleteAccount, { password }, { accountId: registered.value.accountId })).toEqual({
      ok: true,
      value: { deleted: true },
    });
    // The deletion reaches orders (the account's other data would go now); the enquiry is not the account's to take.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await service.sql('SELECT 1 FROM orders.enquiries WHERE email = $1', ['boss@company.example'])).length).toBe(1);
  });
});
