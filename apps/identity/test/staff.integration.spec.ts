import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Events,
  PageMessages,
  Rpc,
  type Role,
  type StaffAuditEntry,
  type StaffAuditPage,
  type StaffSearchResult,
} from '@digicard/contracts';
import { InProcessService, type Answer } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';
import { RegisterAccount } from '../src/accounts/use-cases/register-account.use-case.js';

// The staff console in identity: its subjects refused to everyone but staff (by meta, and again by identity's own
// record of the caller), the role change with its audit row and event in one transaction.

let service: InProcessService<Config>;
let staffId: string;
let customerId: string;

const register = async (username: string, role: Role = 'user'): Promise<string> => {
  const { accountId } = await service
    .get(RegisterAccount)
    .execute({ username, firstName: 'Test', lastName: 'Person', email: `${username}@example.test`, password: 'kudu-braai-2026' });
  if (role !== 'user') await service.sql('UPDATE identity.accounts SET role = $1 WHERE id = $2', [role, accountId]);
  return accountId!;
};

beforeAll(async () => {
  service = await InProcessService.start(identityService);
  staffId = await register('desk-staff', 'staff');
  customerId = await register('mpho');
});
afterAll(() => service?.stop());

describe('the account search, a page at a time', () => {
  it('pages the accounts found newest first by cursor: none missing or repeated, only those matching, a bad cursor 400', async () => {
    const asStaff = { accountId: staffId, role: 'staff' as const };
    const names = Array.from({ length: 27 }, (_, i) => `zanele-${i}`);
    const ids: string[] = [];
    for (const name of names) ids.push(await register(name));
    await register('thabo-paging');
    // Seven of them made in the same microsecond (their ids order them), later than the rest.
    await service.sql(`UPDATE identity.accounts SET created_at = timestamptz '2030-01-01T00:00:00Z' WHERE username = ANY($1)`, [
      names.slice(10, 17),
    ]);
    const seen: Array<{ id: string; username: string; createdAt: string }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Answer<StaffSearchResult> = await service.call(
        Rpc.staffFindAccounts,
        { query: 'zanele', limit: 5, ...(cursor ? { cursor } : {}) },
        asStaff,
      );
      if (!page.ok) throw new Error(page.message);
      expect(page.value.accounts.length).toBeLessThanOrEqual(5);
      seen.push(...page.value.accounts);
      cursor = page.value.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    expect(pages).toBe(6);
    expect(seen.map((a) => a.id).sort()).toEqual([...ids].sort());
    expect(new Set(seen.map((a) => a.id)).size).toBe(27);
    expect(
      seen
        .slice(0, 7)
        .map((a) => a.username)
        .sort(),
    ).toEqual(names.slice(10, 17).sort());
    expect(seen.map((a) => a.createdAt)).toEqual([...seen.map((a) => a.createdAt)].sort().reverse());
    // A cursor positions within a search's answers and opens nothing else: another query's page holds its own only.
    const first = await service.call(Rpc.staffFindAccounts, { query: 'zanele', limit: 5 }, asStaff);
    if (!first.ok) throw new Error(first.message);
    const other = await service.call(Rpc.staffFindAccounts, { query: 'thabo-paging', cursor: first.value.nextCursor! }, asStaff);
    expect(other).toMatchObject({ ok: true, value: { accounts: [{ username: 'thabo-paging' }], nextCursor: null } });
    // Cursors that are not ours, or of another kind of list, and a limit out of range: 400; never for anyone but staff.
    expect(await service.call(Rpc.staffFindAccounts, { query: 'zanele', cursor: 'not-a-cursor' }, asStaff)).toMatchObject({
      ok: false,
      status: 400,
    });
    const byText = Buffer.from(JSON.stringify({ id: 'x', key: 'y' })).toString('base64url');
    expect(await service.call(Rpc.staffFindAccounts, { query: 'zanele', cursor: byText }, asStaff)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { cursor: [PageMessages.badCursor] },
    });
    expect(await service.call(Rpc.staffFindAccounts, { query: 'zanele', limit: 101 }, asStaff)).toMatchObject({ ok: false, status: 400 });
    expect(
      await service.call(
        Rpc.staffFindAccounts,
        { query: 'zanele', cursor: first.value.nextCursor! },
        { accountId: customerId, role: 'user' },
      ),
    ).toMatchObject({ ok: false, status: 403 });
  });
});

describe('staff subjects in identity', () => {
  it('refuses a visitor (401) and every role but staff (403), without changing anything', async () => {
    const bodies = [
      [Rpc.staffFindAccounts, { query: 'mpho' }],
      [Rpc.staffGetAccount, { accountId: customerId }],
      [Rpc.staffSetRole, { accountId: customerId, role: 'teamLeader' }],
      [Rpc.staffAccountAudit, { accountId: customerId }],
    ] as const;
    for (const [rpc, body] of bodies) {
      expect(await service.call(rpc as typeof Rpc.staffGetAccount, body as never, null)).toMatchObject({ ok: false, status: 401 });
      for (const role of ['user', 'teamLeader', 'teamMember', 'print'] as const) {
        expect(await service.call(rpc as typeof Rpc.staffGetAccount, body as never, { accountId: customerId, role })).toMatchObject({
          ok: false,
          status: 403,
        });
      }
    }
    expect((await service.sql("SELECT role FROM identity.accounts WHERE username = 'mpho'"))[0]).toEqual({ role: 'user' });
  });

  it('refuses a caller whose session says staff when identity says otherwise (a stale session, a forged meta)', async () => {
    expect(
      await service.call(Rpc.staffSetRole, { accountId: customerId, role: 'teamLeader' }, { accountId: customerId, role: 'staff' }),
    ).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(
      await service.call(Rpc.staffFindAccounts, { query: 'mpho' }, { accountId: '00000000-0000-4000-8000-000000000001', role: 'staff' }),
    ).toMatchObject({ ok: false, status: 403 });
    expect(await service.sql('SELECT * FROM identity.staff_audit')).toEqual([]);
  });

  it('changes the role with its audit row and identity.user.role-changed in one go; the same role again records nothing', async () => {
    const asStaff = { accountId: staffId, role: 'staff' as const };
    const answer = await service.call(Rpc.staffSetRole, { accountId: customerId, role: 'teamLeader' }, asStaff);
    expect(answer).toMatchObject({ ok: true, value: { account: { id: customerId, role: 'teamLeader' } } });
    const audit = await service.call(Rpc.staffAccountAudit, { accountId: customerId }, asStaff);
    if (!audit.ok) throw new Error('refused');
    expect(audit.value.nextCursor).toBeNull();
    expect(audit.value.entries).toEqual([
      {
        id: expect.any(String),
        accountId: customerId,
        staffAccountId: staffId,
        staffUsername: 'desk-staff',
        change: 'role',
        before: 'user',
        after: 'teamLeader',
        at: expect.any(String),
      },
    ]);
    await service.call(Rpc.staffSetRole, { accountId: customerId, role: 'teamLeader' }, asStaff);
    expect(await service.sql('SELECT * FROM identity.staff_audit')).toHaveLength(1);
    const events = (await service.recordedEvents<{ accountId: string; role: string }>(Events.roleChanged.subject)).map((e) => e.data);
    // Made a team leader: the sessions take the new role (no sign-out).
    expect(events).toEqual([{ accountId: customerId, role: 'teamLeader', changedAt: expect.any(String), signOut: false }]);
    expect(await service.call(Rpc.staffSetRole, { accountId: staffId, role: 'user' }, asStaff)).toMatchObject({ ok: false, status: 409 });
    expect(
      await service.call(Rpc.staffSetRole, { accountId: '00000000-0000-4000-8000-000000000000', role: 'user' }, asStaff),
    ).toMatchObject({ ok: false, status: 404 });
  });

  it('takes a print or staff role away (audited, role-changed event); refuses another role, the caller’s own, and non-staff', async () => {
    const asStaff = { accountId: staffId, role: 'staff' as const };
    const printerId = await register('press-operator', 'print');
    const otherStaffId = await register('desk-staff-two', 'staff');
    const before = (await service.sql('SELECT id FROM identity.staff_audit')).length;

    // Not staff (a printer revoking another, a visitor) and a stale staff session: refused, nothing changed.
    expect(
      await service.call(Rpc.staffRevokeRole, { accountId: otherStaffId, role: 'staff' }, { accountId: printerId, role: 'print' }),
    ).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(
      await service.call(Rpc.staffRevokeRole, { accountId: printerId, role: 'print' }, { accountId: printerId, role: 'staff' }),
    ).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await service.call(Rpc.staffRevokeRole, { accountId: printerId, role: 'print' }, null)).toMatchObject({
      ok: false,
      status: 401,
    });
    // The role named must be the one held; the caller's own staff role stays; an unknown account is 404.
    expect(await service.call(Rpc.staffRevokeRole, { accountId: printerId, role: 'staff' }, asStaff)).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await service.call(Rpc.staffRevokeRole, { accountId: staffId, role: 'staff' }, asStaff)).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(
      await service.call(Rpc.staffRevokeRole, { accountId: '00000000-0000-4000-8000-000000000000', role: 'print' }, asStaff),
    ).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.staffRevokeRole, { accountId: printerId, role: 'user' as never }, asStaff)).toMatchObject({
      ok: false,
      status: 400,
    });
    expect((await service.sql('SELECT id FROM identity.staff_audit')).length).toBe(before);

    const answer = await service.call(Rpc.staffRevokeRole, { accountId: printerId, role: 'print' }, asStaff);
    expect(answer).toMatchObject({ ok: true, value: { account: { id: printerId, role: 'user' } } });
    const audit = await service.call(Rpc.staffAccountAudit, { accountId: printerId }, asStaff);
    if (!audit.ok) throw new Error('refused');
    expect(audit.value.entries[0]).toMatchObject({
      accountId: printerId,
      staffAccountId: staffId,
      change: 'role',
      before: 'print',
      after: 'user',
    });
    const revoked = await service.call(Rpc.staffRevokeRole, { accountId: otherStaffId, role: 'staff' }, asStaff);
    expect(revoked).toMatchObject({ ok: true, value: { account: { id: otherStaffId, role: 'user' } } });
    const events = (await service.recordedEvents<{ accountId: string; role: string }>(Events.roleChanged.subject)).map((e) => e.data);
    expect(events).toEqual(
      expect.arrayContaining([
        // A role taken away: the gateway's role sync ends the sessions signed in before the change.
        { accountId: printerId, role: 'user', changedAt: expect.any(String), signOut: true },
        { accountId: otherStaffId, role: 'user', changedAt: expect.any(String), signOut: true },
      ]),
    );
    // The revoked staff member's powers end at once, whatever their session still says.
    expect(await service.call(Rpc.staffFindAccounts, { query: 'mpho' }, { accountId: otherStaffId, role: 'staff' })).toMatchObject({
      ok: false,
      status: 403,
    });
    // Revoking again: the role is not held any more.
    expect(await service.call(Rpc.staffRevokeRole, { accountId: printerId, role: 'print' }, asStaff)).toMatchObject({
      ok: false,
      status: 409,
    });
  });
});

describe('an account’s audit, a page at a time', () => {
  it('pages one account’s changes newest first by cursor: none missing or repeated, no other account’s, a bad cursor 400', async () => {
    const asStaff = { accountId: staffId, role: 'staff' as const };
    const audited = await register('audited-often');
    const other = await register('audited-other');
    // 45 changes of one account (nine in the same microsecond: their ids order them) and 5 of another.
    await service.sql(
      `INSERT INTO identity.staff_audit (account_id, staff_account_id, change, before, after, at)
       SELECT $1, $2, 'role', to_jsonb('user'::text), to_jsonb('teamLeader'::text),
              timestamptz '2026-01-01T10:00:00Z' + (CASE WHEN n <= 9 THEN 0 ELSE n END) * interval '1 microsecond'
         FROM generate_series(1, 45) AS n`,
      [audited, staffId],
    );
    await service.sql(
      `INSERT INTO identity.staff_audit (account_id, staff_account_id, change, before, after, at)
       SELECT $1, $2, 'role', to_jsonb('user'::text), to_jsonb('teamLeader'::text), now() FROM generate_series(1, 5)`,
      [other, staffId],
    );
    const expected = (
      await service.sql<{ id: string }>('SELECT id FROM identity.staff_audit WHERE account_id = $1 ORDER BY at DESC, id DESC', [audited])
    ).map((r) => r.id);
    const seen: StaffAuditEntry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Answer<StaffAuditPage> = await service.call(
        Rpc.staffAccountAudit,
        { accountId: audited, limit: 10, ...(cursor ? { cursor } : {}) },
        asStaff,
      );
      if (!page.ok) throw new Error(page.message);
      expect(page.value.entries.length).toBeLessThanOrEqual(10);
      seen.push(...page.value.entries);
      cursor = page.value.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    expect(pages).toBe(5);
    expect(seen.map((e) => e.id)).toEqual(expected);
    expect(seen.every((e) => e.accountId === audited && e.staffUsername === 'desk-staff')).toBe(true);
    // Times to the microsecond (the console merges identity's and profiles' pages by them).
    expect(seen.at(-1)!.at).toBe('2026-01-01T10:00:00.000000Z');
    expect(seen[0]!.at).toBe('2026-01-01T10:00:00.000045Z');
    // A cursor of one account's audit opens nothing of another's: the other's page holds its own only.
    const first = await service.call(Rpc.staffAccountAudit, { accountId: audited, limit: 10 }, asStaff);
    if (!first.ok) throw new Error(first.message);
    const theirs = await service.call(Rpc.staffAccountAudit, { accountId: other, cursor: first.value.nextCursor! }, asStaff);
    if (!theirs.ok) throw new Error(theirs.message);
    expect(theirs.value.entries.every((e) => e.accountId === other)).toBe(true);
    // Not staff, a bad cursor, an unknown account.
    expect(
      await service.call(
        Rpc.staffAccountAudit,
        { accountId: audited, cursor: first.value.nextCursor! },
        { accountId: audited, role: 'user' },
      ),
    ).toMatchObject({ ok: false, status: 403 });
    const byText = Buffer.from(JSON.stringify({ id: 'x', key: 'y' })).toString('base64url');
    expect(await service.call(Rpc.staffAccountAudit, { accountId: audited, cursor: byText }, asStaff)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { cursor: [PageMessages.badCursor] },
    });
    expect(await service.call(Rpc.staffAccountAudit, { accountId: '00000000-0000-4000-8000-000000000000' }, asStaff)).toMatchObject({
      ok: false,
      status: 404,
    });
  });
});
