import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, type Role } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';
import { RegisterAccount } from '../src/accounts/use-cases/register-account.use-case.js';

// payments.membership.changed, published as payments would, turns a DigiPlatinum subscriber into a team leader and
// back: idempotent (a redelivered event), ordered by version (an older event arriving late), and only for the roles
// it concerns.

let service: InProcessService<Config>;

const register = async (username: string, role: Role = 'user'): Promise<string> => {
  const { accountId } = await service
    .get(RegisterAccount)
    .execute({ username, firstName: 'Test', lastName: 'Person', email: `${username}@example.test`, password: 'kudu-braai-2026' });
  if (role !== 'user') await service.sql('UPDATE identity.accounts SET role = $1 WHERE id = $2', [role, accountId]);
  return accountId!;
};
const roleOf = async (id: string) =>
  (await service.sql<{ role: string }>('SELECT role FROM identity.accounts WHERE id = $1', [id]))[0]!.role;
const roleEvents = async (id: string) =>
  (await service.recordedEvents(Events.roleChanged.subject)).filter((e) => e.data['accountId'] === id).map((e) => e.data['role']);

let version = 0;
async function membership(
  accountId: string,
  tier: 'DigiShare' | 'DigiSilver' | 'DigiGold' | 'DigiPlatinum',
  options: { version?: number; id?: string } = {},
): Promise<void> {
  const v = options.version ?? ++version;
  const id = await service.publish(
    Events.membershipChanged,
    {
      accountId,
      membership: tier,
      paidUntil: tier === 'DigiShare' ? null : new Date(Date.now() + 30 * 86_400_000).toISOString(),
      version: v,
      changedAt: new Date().toISOString(),
    },
    options.id,
  );
  await service.handled(Events.membershipChanged, id);
}

beforeAll(async () => {
  service = await InProcessService.start(identityService);
});
afterAll(() => service?.stop());

describe('DigiPlatinum and the teamLeader role', () => {
  it('a DigiPlatinum subscription makes a user a team leader, once; losing it makes them a user again', async () => {
    const id = await register('platinum-buyer');
    await membership(id, 'DigiPlatinum');
    expect(await roleOf(id)).toBe('teamLeader');
    expect(await roleEvents(id)).toEqual(['teamLeader']);
    // A renewal (a higher version, still DigiPlatinum) changes nothing and records nothing.
    await membership(id, 'DigiPlatinum');
    expect(await roleEvents(id)).toEqual(['teamLeader']);
    // Downgrade or lapse: the role goes (the team itself lives in the teams service and is not touched).
    await membership(id, 'DigiGold');
    expect(await roleOf(id)).toBe('user');
    expect(await roleEvents(id)).toEqual(['teamLeader', 'user']);
    await membership(id, 'DigiShare');
    expect(await roleEvents(id)).toEqual(['teamLeader', 'user']);
  });

  it('a redelivered event is handled once, and an older version arriving late is ignored', async () => {
    const id = await register('platinum-redelivered');
    const eventId = '3f1d6a52-4c8e-4b2a-9a51-7d3c2e1b0a99';
    await membership(id, 'DigiPlatinum', { version: 10, id: eventId });
    await membership(id, 'DigiPlatinum', { version: 10, id: eventId });
    expect(await roleEvents(id)).toEqual(['teamLeader']);
    // The lapse (version 12) arrives before a delayed DigiGold change (version 11): the account stays a user.
    await membership(id, 'DigiShare', { version: 12 });
    await membership(id, 'DigiPlatinum', { version: 11 });
    expect(await roleOf(id)).toBe('user');
    expect(await roleEvents(id)).toEqual(['teamLeader', 'user']);
    expect(await service.sql('SELECT membership, version FROM identity.memberships WHERE account_id = $1', [id])).toEqual([
      { membership: 'DigiShare', version: 12 },
    ]);
  });

  it('team members, print and staff accounts keep their roles; a leader made by staff is not demoted by a lower tier', async () => {
    for (const role of ['teamMember', 'print', 'staff'] as const) {
      const id = await register(`keeps-${role.toLowerCase()}`, role);
      await membership(id, 'DigiPlatinum');
      await membership(id, 'DigiShare');
      expect(await roleOf(id)).toBe(role);
      expect(await roleEvents(id)).toEqual([]);
    }
    const staffMade = await register('staff-made-leader', 'teamLeader');
    await membership(staffMade, 'DigiGold');
    expect(await roleOf(staffMade)).toBe('teamLeader');
    expect(await roleEvents(staffMade)).toEqual([]);
  });
});
