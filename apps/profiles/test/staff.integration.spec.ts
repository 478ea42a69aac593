import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, Rpc, type Role } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { profilesService } from '../src/service.js';

// The staff console in profiles: refused to everyone but staff (by meta, and again by profiles' own record of the
// caller's role from identity's events); partner, vanity paths and business with their audit; role-changed applied.

let service: InProcessService<Config>;
const staffId = randomUUID();
const customerId = randomUUID();

async function registered(accountId: string, username: string, role: Role): Promise<void> {
  const id = randomUUID();
  await service.publish(
    Events.userRegistered,
    { accountId, username, email: `${username}@example.test`, firstName: 'T', lastName: 'P', role, registeredAt: new Date().toISOString() },
    id,
  );
  await service.handled(Events.userRegistered, id);
}

beforeAll(async () => {
  service = await InProcessService.start(profilesService);
  await registered(staffId, 'desk-staff', 'staff');
  await registered(customerId, 'mpho', 'user');
});
afterAll(() => service?.stop());

describe('staff subjects in profiles', () => {
  const calls = [
    [Rpc.staffGetProfile, { accountId: customerId }],
    [Rpc.staffSetPartner, { accountId: customerId, isPartner: true }],
    [Rpc.staffSetVanityPaths, { accountId: customerId, paths: ['mpho-promo'] }],
    [Rpc.staffSetBusiness, { accountId: customerId, businessUsername: 'desk-staff' }],
  ] as const;

  it('refuses a visitor (401), every role but staff (403), and a caller profiles does not know as staff (403)', async () => {
    for (const [rpc, body] of calls) {
      expect(await service.call(rpc as typeof Rpc.staffGetProfile, body as never, null)).toMatchObject({ ok: false, status: 401 });
      for (const role of ['user', 'teamLeader', 'teamMember', 'print'] as const) {
        expect(await service.call(rpc as typeof Rpc.staffGetProfile, body as never, { accountId: customerId, role })).toMatchObject({
          ok: false,
          status: 403,
        });
      }
      expect(await service.call(rpc as typeof Rpc.staffGetProfile, body as never, { accountId: customerId, role: 'staff' })).toMatchObject({
        ok: false,
        status: 403,
      });
    }
    expect(await service.sql('SELECT is_partner, business_account_id FROM profiles.profiles WHERE account_id = $1', [customerId])).toEqual([
      { is_partner: false, business_account_id: null },
    ]);
    expect(await service.sql('SELECT * FROM profiles.staff_audit')).toEqual([]);
    expect(await service.sql('SELECT * FROM profiles.vanity_paths')).toEqual([]);
  });

  it('sets partner, vanity paths and business, each with an audit row and profiles.profile.updated', async () => {
    const asStaff = { accountId: staffId, role: 'staff' as const };
    const before = (await service.recordedEvents(Events.profileUpdated.subject)).length;
    expect(await service.call(Rpc.staffSetPartner, { accountId: customerId, isPartner: true }, asStaff)).toMatchObject({
      ok: true,
      value: { isPartner: true },
    });
    expect(await service.call(Rpc.staffSetVanityPaths, { accountId: customerId, paths: ['mpho-promo'] }, asStaff)).toMatchObject({
      ok: true,
      value: { vanityPaths: ['mpho-promo'] },
    });
    expect(await service.call(Rpc.resolvePath, { path: 'mpho-promo' })).toEqual({ ok: true, value: { username: 'mpho' } });
    const business = await service.call(Rpc.staffSetBusiness, { accountId: customerId, businessUsername: 'desk-staff' }, asStaff);
    expect(business).toMatchObject({ ok: true, value: { businessUsername: 'desk-staff' } });
    if (!business.ok) throw new Error('refused');
    expect(business.value.audit.map((e) => [e.change, e.before, e.after, e.staffAccountId, e.staffUsername])).toEqual([
      ['business', null, 'desk-staff', staffId, 'desk-staff'],
      ['vanityPaths', [], ['mpho-promo'], staffId, 'desk-staff'],
      ['partner', false, true, staffId, 'desk-staff'],
    ]);
    expect((await service.recordedEvents(Events.profileUpdated.subject)).length - before).toBe(3);
    // Nothing new, nothing recorded.
    await service.call(Rpc.staffSetPartner, { accountId: customerId, isPartner: true }, asStaff);
    expect(await service.sql('SELECT * FROM profiles.staff_audit')).toHaveLength(3);
  });

  it('applies identity.user.role-changed to the role it keeps', async () => {
    const id = randomUUID();
    await service.publish(Events.roleChanged, { accountId: customerId, role: 'teamLeader', changedAt: new Date().toISOString() }, id);
    await service.handled(Events.roleChanged, id);
    expect(await service.sql('SELECT role FROM profiles.profiles WHERE account_id = $1', [customerId])).toEqual([{ role: 'teamLeader' }]);
  });
});
