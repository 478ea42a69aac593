import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, PAGE_MAX_BYTES, Rpc, type Role, type StaffAuditEntry, type StaffAuditPage } from '@digicard/contracts';
import { InProcessService, type Answer } from '@digicard/service-testing';
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
    [Rpc.staffProfileAudit, { accountId: customerId }],
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
    const audit = await service.call(Rpc.staffProfileAudit, { accountId: customerId }, asStaff);
    if (!audit.ok) throw new Error('refused');
    expect(audit.value.nextCursor).toBeNull();
    expect(audit.value.entries.map((e) => [e.change, e.before, e.after, e.staffAccountId, e.staffUsername])).toEqual([
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

describe('a profile’s audit, a page at a time', () => {
  it('pages one profile’s changes newest first by cursor, long ones included: none missing or repeated, no other’s', async () => {
    const asStaff = { accountId: staffId, role: 'staff' as const };
    const audited = randomUUID();
    const other = randomUUID();
    await registered(audited, 'audited-often', 'user');
    await registered(other, 'audited-other', 'user');
    // 60 changes of one profile, each as long as a change of 50 vanity paths of 64 characters before and after (some
    // 6.6 KB: 100 of them are over one page's bytes, so pages end early), six in the same microsecond; 4 of another.
    const paths = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, '0')}-${'p'.repeat(61)}`);
    await service.sql(
      `INSERT INTO profiles.staff_audit (account_id, staff_account_id, change, before, after, at)
       SELECT $1, $2, 'vanityPaths', $3::jsonb, $3::jsonb,
              timestamptz '2026-01-01T10:00:00Z' + (CASE WHEN n <= 6 THEN 0 ELSE n END) * interval '1 microsecond'
         FROM generate_series(1, 60) AS n`,
      [audited, staffId, JSON.stringify(paths)],
    );
    await service.sql(
      `INSERT INTO profiles.staff_audit (account_id, staff_account_id, change, before, after, at)
       SELECT $1, $2, 'partner', 'false', 'true', now() FROM generate_series(1, 4)`,
      [other, staffId],
    );
    const expected = (
      await service.sql<{ id: string }>('SELECT id FROM profiles.staff_audit WHERE account_id = $1 ORDER BY at DESC, id DESC', [audited])
    ).map((r) => r.id);
    const seen: StaffAuditEntry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Answer<StaffAuditPage> = await service.call(
        Rpc.staffProfileAudit,
        { accountId: audited, limit: 100, ...(cursor ? { cursor } : {}) },
        asStaff,
      );
      if (!page.ok) throw new Error(page.message);
      expect(Buffer.byteLength(JSON.stringify(page.value.entries))).toBeLessThanOrEqual(PAGE_MAX_BYTES + 2);
      seen.push(...page.value.entries);
      cursor = page.value.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    expect(pages).toBeGreaterThan(1);
    expect(seen.map((e) => e.id)).toEqual(expected);
    expect(seen.every((e) => e.accountId === audited && e.staffUsername === 'desk-staff')).toBe(true);
    expect(seen[0]!.at).toBe('2026-01-01T10:00:00.000060Z');
    // Another profile's page after this one's cursor holds its own changes only; not staff: 403; a bad cursor: 400.
    const first = await service.call(Rpc.staffProfileAudit, { accountId: audited, limit: 5 }, asStaff);
    if (!first.ok) throw new Error(first.message);
    const theirs = await service.call(Rpc.staffProfileAudit, { accountId: other, cursor: first.value.nextCursor! }, asStaff);
    if (!theirs.ok) throw new Error(theirs.message);
    expect(theirs.value.entries.every((e) => e.accountId === other)).toBe(true);
    expect(await service.call(Rpc.staffProfileAudit, { accountId: audited }, { accountId: audited, role: 'staff' })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await service.call(Rpc.staffProfileAudit, { accountId: audited, cursor: 'bm90LW91cnM' }, asStaff)).toMatchObject({
      ok: false,
      status: 400,
    });
  });
});
