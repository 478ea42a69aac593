import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { PageMessages } from '@digicard/contracts';
import { createStaffAccount, registerOwner, runCreateStaff, TestSystem, waitFor, type ApiClient, type TestOwner } from '@digicard/testing';

// Issue 10's staff console: every endpoint refused signed out (401) and to an owner, a team member and print (403),
// in the gateway and again in identity and profiles; the happy paths with their audit; the command that makes staff
// and print accounts. Real identity, profiles, notifications and gateway processes.

describe('the staff console', () => {
  let system: TestSystem;
  let staff: TestOwner;
  let print: TestOwner;
  let owner: TestOwner;
  let business: TestOwner;
  let member: TestOwner;

  beforeAll(async () => {
    // Teams too: a team member's password sign-in asks it whether the team requires its company account.
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'notifications', 'gateway'] });
    staff = await createStaffAccount(system, { email: 'thandi@digicard.test', role: 'staff', username: 'thandi-staff' });
    print = await createStaffAccount(system, { email: 'press@digicard.test', role: 'print', username: 'press-team' });
    owner = await registerOwner(
      system,
      { username: 'lindiwe', firstName: 'Lindiwe', lastName: 'Dlamini', email: 'Lindiwe.D@example.co.za' },
      { verify: false },
    );
    business = await registerOwner(
      system,
      { username: 'kasi-coffee', firstName: 'Kasi', lastName: 'Coffee', email: 'hello@kasi.example' },
      { verify: false },
    );
    const rep = await registerOwner(
      system,
      { username: 'sipho-rep', firstName: 'Sipho', lastName: 'Rep', email: 'sipho@kasi.example' },
      { verify: false },
    );
    // A team member (the teams service makes them; here the role is set directly) signs in again to carry the role.
    await system.sql("UPDATE identity.accounts SET role = 'teamMember' WHERE username = 'sipho-rep'");
    const client = system.client();
    assert.equal(
      (await client.request('/api/session', { body: { email: rep.email, password: rep.password } })).body.user.role,
      'teamMember',
    );
    member = { ...rep, client };
  });
  afterAll(() => system?.stop());

  const calls = (accountId: string): Array<[string, string, unknown]> => [
    ['POST', '/api/staff/account-search', { query: 'lindiwe' }],
    ['GET', `/api/staff/accounts/${accountId}`, undefined],
    ['GET', `/api/staff/accounts/${accountId}/audit`, undefined],
    ['PUT', `/api/staff/accounts/${accountId}/role`, { role: 'teamLeader' }],
    ['PUT', `/api/staff/accounts/${accountId}/partner`, { isPartner: true }],
    ['PUT', `/api/staff/accounts/${accountId}/vanity-paths`, { paths: ['lindiwe-promo'] }],
    ['PUT', `/api/staff/accounts/${accountId}/business`, { businessUsername: 'kasi-coffee' }],
  ];
  const call = (client: ApiClient, [method, path, body]: [string, string, unknown]) => client.request(path, { method, body });
  /** The account's changes by staff, newest first (its first page: fewer than 50 here). */
  const auditOf = async (accountId: string) => {
    const res = await staff.client.request(`/api/staff/accounts/${accountId}/audit`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.nextCursor, null);
    return res.body.entries as Array<Record<string, unknown> & { at: string }>;
  };

  it('refuses every console endpoint signed out (401), and to an owner, a team member and print (403); nothing changes', async () => {
    for (const c of calls(owner.accountId)) {
      const visitor = await call(system.client(), c);
      assert.equal(visitor.status, 401, `${c[0]} ${c[1]} signed out`);
      assert.equal(visitor.body.message, 'Please log in first.');
      for (const [who, client] of [
        ['owner', owner.client],
        ['team member', member.client],
        ['print', print.client],
      ] as const) {
        const res = await call(client, c);
        assert.equal(res.status, 403, `${c[0]} ${c[1]} as ${who}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'FORBIDDEN');
      }
    }
    const [row] = await system.sql<{ is_partner: boolean; business_account_id: string | null }>(
      "SELECT is_partner, business_account_id FROM profiles.profiles WHERE username = 'lindiwe'",
    );
    assert.deepEqual(row, { is_partner: false, business_account_id: null });
    assert.equal((await system.sql("SELECT role FROM identity.accounts WHERE username = 'lindiwe'"))[0]!['role'], 'user');
    assert.equal((await system.sql('SELECT * FROM profiles.vanity_paths')).length, 0);
    assert.equal((await system.sql('SELECT * FROM identity.staff_audit UNION ALL SELECT * FROM profiles.staff_audit')).length, 0);
  });

  it('finds an account by email, username or name, in any case; a blank query is a field error', async () => {
    for (const query of ['lindiwe.d@EXAMPLE', 'LINDIWE', 'Lindiwe Dlamini', 'dlamini']) {
      const res = await staff.client.request('/api/staff/account-search', { body: { query } });
      assert.equal(res.status, 200, query);
      assert.deepEqual(
        res.body.accounts.map((a: { username: string }) => a.username),
        ['lindiwe'],
        `search for ${query}`,
      );
    }
    const kasi = await staff.client.request('/api/staff/account-search', { body: { query: 'kasi' } });
    assert.deepEqual(kasi.body.accounts.map((a: { username: string }) => a.username).sort(), ['kasi-coffee', 'sipho-rep']);
    assert.equal(kasi.body.accounts.find((a: { username: string }) => a.username === 'sipho-rep').role, 'teamMember');
    const wildcard = await staff.client.request('/api/staff/account-search', { body: { query: '%' } });
    assert.deepEqual(wildcard.body.accounts, [], 'a % is a character, not a wildcard');
    // The next page is asked for with ?cursor=: one that is not ours is refused at the edge with the field named.
    const badCursor = await staff.client.request('/api/staff/account-search?cursor=not%20ours', { body: { query: 'kasi' } });
    assert.equal(badCursor.status, 400);
    assert.deepEqual(badCursor.body.fieldErrors, { cursor: [PageMessages.badCursor] });
    const blank = await staff.client.request('/api/staff/account-search', { body: { query: '  ' } });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body.fieldErrors, { query: ['Please enter an email, a username or a name to search for.'] });
  });

  it('makes an account a partner and a team leader, each change audited with who, when, before and after', async () => {
    const partner = await staff.client.request(`/api/staff/accounts/${owner.accountId}/partner`, {
      method: 'PUT',
      body: { isPartner: true },
    });
    assert.equal(partner.status, 200, JSON.stringify(partner.body));
    assert.equal(partner.body.profile.isPartner, true);
    const leader = await staff.client.request(`/api/staff/accounts/${owner.accountId}/role`, {
      method: 'PUT',
      body: { role: 'teamLeader' },
    });
    assert.equal(leader.status, 200, JSON.stringify(leader.body));
    assert.equal(leader.body.account.role, 'teamLeader');
    // The same value again changes and records nothing.
    await staff.client.request(`/api/staff/accounts/${owner.accountId}/role`, { method: 'PUT', body: { role: 'teamLeader' } });
    const audit = await auditOf(owner.accountId);
    assert.deepEqual(
      audit.map((e: Record<string, unknown>) => [e['change'], e['before'], e['after'], e['staffUsername'], e['staffAccountId']]),
      [
        ['role', 'user', 'teamLeader', 'thandi-staff', staff.accountId],
        ['partner', false, true, 'thandi-staff', staff.accountId],
      ],
    );
    for (const entry of audit) assert.ok(Date.now() - Date.parse(entry.at) < 60_000, 'when');

    // What it means: the partner switches tiers freely; the role is theirs at the next sign-in, and profiles knows it.
    const client = system.client();
    const signedIn = await client.request('/api/session', { body: { email: owner.email, password: owner.password } });
    assert.equal(signedIn.body.user.role, 'teamLeader');
    const gold = await client.request('/api/profile/settings', { method: 'PUT', body: { isPublic: true, membership: 'DigiGold' } });
    assert.equal(gold.status, 200, JSON.stringify(gold.body));
    assert.equal(gold.body.membership, 'DigiGold');
    await waitFor(
      'profiles to learn the role',
      async () => (await system.sql("SELECT 1 FROM profiles.profiles WHERE username = 'lindiwe' AND role = 'teamLeader'"))[0],
    );

    const back = await staff.client.request(`/api/staff/accounts/${owner.accountId}/role`, { method: 'PUT', body: { role: 'user' } });
    assert.equal(back.body.account.role, 'user');
    const [latest] = await auditOf(owner.accountId);
    assert.deepEqual([latest!.before, latest!.after], ['teamLeader', 'user']);
  });

  it('refuses roles it does not give, accounts whose role is not its to change, and unknown accounts', async () => {
    const asStaff = await staff.client.request(`/api/staff/accounts/${owner.accountId}/role`, { method: 'PUT', body: { role: 'staff' } });
    assert.equal(asStaff.status, 400);
    assert.deepEqual(asStaff.body.fieldErrors, { role: ['Please choose user or teamLeader.'] });
    for (const target of [print, member, staff]) {
      const res = await staff.client.request(`/api/staff/accounts/${target.accountId}/role`, {
        method: 'PUT',
        body: { role: 'teamLeader' },
      });
      assert.equal(res.status, 409, target.username);
      assert.equal(res.body.message, 'This account is print or staff, or a team member: its role is not changed here.');
    }
    const unknown = await staff.client.request('/api/staff/accounts/00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 404);
    assert.equal((await staff.client.request('/api/staff/accounts/not-an-id')).status, 404);
    const unknownPartner = await staff.client.request('/api/staff/accounts/00000000-0000-4000-8000-000000000000/partner', {
      method: 'PUT',
      body: { isPartner: true },
    });
    assert.equal(unknownPartner.status, 404);
    assert.equal(
      (await staff.client.request(`/api/staff/accounts/${owner.accountId}/partner`, { method: 'PUT', body: { isPartner: 'yes' } })).status,
      400,
    );
  });

  it('sets vanity paths that lead to the profile, refusing a page of the site, a username and another profile’s path', async () => {
    const set = await staff.client.request(`/api/staff/accounts/${owner.accountId}/vanity-paths`, {
      method: 'PUT',
      body: { paths: ['Pinnacle-Point-2', 'lindiwe-promo'] },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body.profile.vanityPaths, ['lindiwe-promo', 'pinnacle-point-2']);
    const [paths] = await auditOf(owner.accountId);
    assert.deepEqual([paths!.change, paths!.before, paths!.after], ['vanityPaths', [], ['lindiwe-promo', 'pinnacle-point-2']]);
    const page = await fetch(`${system.gatewayUrl}/pinnacle-point-2`, { redirect: 'manual' });
    assert.equal(page.status, 301);
    assert.equal(page.headers.get('location'), '/lindiwe');

    const refusals: Array<[string[], string]> = [
      [['dashboard'], 'dashboard: That path is a page of the site. Please choose another.'],
      [['kasi-coffee'], 'kasi-coffee: That path is already a username. Please choose another.'],
      [['same', 'same'], 'same: Each path only once, please.'],
    ];
    for (const [paths, message] of refusals) {
      const res = await staff.client.request(`/api/staff/accounts/${owner.accountId}/vanity-paths`, { method: 'PUT', body: { paths } });
      assert.equal(res.status, 400, paths.join());
      assert.deepEqual(res.body.fieldErrors, { paths: [message] });
    }
    const taken = await staff.client.request(`/api/staff/accounts/${business.accountId}/vanity-paths`, {
      method: 'PUT',
      body: { paths: ['pinnacle-point-2'] },
    });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body.fieldErrors, { paths: ['pinnacle-point-2: That path already leads to another profile.'] });
    const malformed = await staff.client.request(`/api/staff/accounts/${owner.accountId}/vanity-paths`, {
      method: 'PUT',
      body: { paths: ['no spaces'] },
    });
    assert.equal(malformed.status, 400);
    assert.deepEqual(
      (await system.sql<{ path: string }>('SELECT path FROM profiles.vanity_paths ORDER BY path')).map((r) => r.path),
      ['lindiwe-promo', 'pinnacle-point-2'],
    );

    const cleared = await staff.client.request(`/api/staff/accounts/${owner.accountId}/vanity-paths`, {
      method: 'PUT',
      body: { paths: ['lindiwe-promo'] },
    });
    assert.deepEqual(cleared.body.profile.vanityPaths, ['lindiwe-promo']);
    assert.equal((await fetch(`${system.gatewayUrl}/pinnacle-point-2`, { redirect: 'manual' })).status, 404);
  });

  it('sets and clears the business a profile inherits from, refusing itself, an unknown profile and a chain', async () => {
    const set = await staff.client.request(`/api/staff/accounts/${member.accountId}/business`, {
      method: 'PUT',
      body: { businessUsername: 'kasi-coffee' },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.profile.businessUsername, 'kasi-coffee');
    const [linked] = await auditOf(member.accountId);
    assert.deepEqual([linked!.change, linked!.before, linked!.after], ['business', null, 'kasi-coffee']);
    const [row] = await system.sql<{ business_account_id: string }>(
      "SELECT business_account_id FROM profiles.profiles WHERE username = 'sipho-rep'",
    );
    assert.equal(row!.business_account_id, business.accountId);

    const refusals: Array<[string, string, string]> = [
      [member.accountId, 'sipho-rep', 'A profile cannot inherit from itself.'],
      [member.accountId, 'nobody-here', 'No profile has that username.'],
      [owner.accountId, 'sipho-rep', 'That profile itself inherits from a business: choose the business profile.'],
      [business.accountId, 'lindiwe', 'Other profiles inherit from this one: it cannot inherit from a business itself.'],
    ];
    for (const [accountId, businessUsername, message] of refusals) {
      const res = await staff.client.request(`/api/staff/accounts/${accountId}/business`, { method: 'PUT', body: { businessUsername } });
      assert.equal(res.status, 400, businessUsername);
      assert.deepEqual(res.body.fieldErrors, { businessUsername: [message] });
    }
    const cleared = await staff.client.request(`/api/staff/accounts/${member.accountId}/business`, {
      method: 'PUT',
      body: { businessUsername: null },
    });
    assert.equal(cleared.body.profile.businessUsername, null);
    const [unlinked] = await auditOf(member.accountId);
    assert.deepEqual([unlinked!.before, unlinked!.after], ['kasi-coffee', null]);
  });

  it('makes staff and print accounts only by the command: a second one with the same email is refused, a bad role too', async () => {
    const again = await runCreateStaff(
      system,
      ['--email', 'THANDI@digicard.test', '--role', 'staff', '--username', 'thandi-two', '--password-stdin'],
      'another long passphrase',
    );
    assert.equal(again.code, 65, again.stderr);
    assert.match(again.stderr, /already exists/);
    const badRole = await runCreateStaff(system, ['--email', 'x@digicard.test', '--role', 'admin']);
    assert.equal(badRole.code, 64);
    assert.match(badRole.stderr, /--role must be staff or print/);
    const weak = await runCreateStaff(system, ['--email', 'y@digicard.test', '--role', 'print', '--password-stdin'], 'password123');
    assert.equal(weak.code, 65);
    assert.match(weak.stderr, /too common/);
    // Sign-up never gives a role: a body that asks for one is still a user.
    const signUp = await system.client().request('/api/accounts', {
      body: {
        username: 'sneaky',
        firstName: 'S',
        lastName: 'N',
        email: 'sneaky@example.test',
        password: 'a long enough passphrase',
        role: 'staff',
      },
    });
    assert.equal(signUp.status, 201);
    assert.deepEqual(await system.sql("SELECT role FROM identity.accounts WHERE username = 'sneaky'"), [{ role: 'user' }]);
  });

  it('without a password, the command mails a reset link that sets the password of the new staff account', async () => {
    const made = await runCreateStaff(system, ['--email', 'zodwa@digicard.test', '--role', 'staff']);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /Created staff account staff-zodwa \([0-9a-f-]{36}\) for zodwa@digicard\.test\./);
    const mail = await system.mail.waitFor((m) => m.to.includes('zodwa@digicard.test') && /reset/i.test(m.subject));
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    assert.ok(token, mail.text);
    const client = system.client();
    const reset = await client.request('/api/password-reset', { body: { token, password: 'her own long passphrase' } });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const signedIn = await client.request('/api/session', { body: { email: 'zodwa@digicard.test', password: 'her own long passphrase' } });
    assert.equal(signedIn.body.user.role, 'staff');
    await waitFor('her profile', async () => (await client.request('/api/profile')).status === 200);
    assert.equal((await client.request('/api/staff/account-search', { body: { query: 'kasi' } })).status, 200);
  });
});
