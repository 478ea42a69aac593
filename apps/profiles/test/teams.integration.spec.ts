import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, ProfileDefaults, Rpc, TeamMessages, type ProfileDocument } from '@digicard/contracts';
import { InheritedFields } from '@digicard/domain';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { profilesService } from '../src/service.js';

// Team reps' profiles in the profiles service (in this process, on its own database and NATS server): the events of
// identity and teams as their owners publish them, and the subjects over NATS with their access rules.

let service: InProcessService<Config>;

type Role = 'user' | 'teamLeader' | 'teamMember';

async function registered(username: string, role: Role, membership?: string): Promise<string> {
  const accountId = randomUUID();
  await service.handled(
    Events.userRegistered,
    await service.publish(Events.userRegistered, {
      accountId,
      username,
      email: `${username}@example.test`,
      firstName: 'Zanele',
      lastName: 'Khumalo',
      role,
      registeredAt: new Date().toISOString(),
    }),
  );
  await service.handled(
    Events.userVerified,
    await service.publish(Events.userVerified, { accountId, verifiedAt: new Date().toISOString() }),
  );
  if (membership) await service.sql('UPDATE profiles.profiles SET membership = $1 WHERE account_id = $2', [membership, accountId]);
  return accountId;
}

async function joined(leader: string, member: string, username: string, tel = '0821234567'): Promise<void> {
  await service.handled(
    Events.teamMemberAdded,
    await service.publish(Events.teamMemberAdded, {
      leaderAccountId: leader,
      memberAccountId: member,
      username,
      tel,
      addedAt: new Date().toISOString(),
    }),
  );
}

const leaderDocument: ProfileDocument = {
  ...ProfileDefaults,
  businessName: 'Karoo Solar',
  buttonBackgroundColor: '#123456',
  websiteLinks: [{ buttonName: 'Shop', url: 'https://karoo-solar.example' }],
  title: 'Founder',
};

const as = (accountId: string, role: Role) => ({ accountId, role });
const updatedFor = async (accountId: string) =>
  (await service.recordedEvents<{ accountId: string; username: string }>(Events.profileUpdated.subject)).filter(
    (e) => e.data.accountId === accountId,
  );

let leader: string;
let repA: string;
let repB: string;

beforeAll(async () => {
  service = await InProcessService.start(profilesService);
  leader = await registered('karoo-lead', 'teamLeader', 'DigiPlatinum');
  expect(await service.call(Rpc.saveProfile, { document: leaderDocument }, as(leader, 'teamLeader'))).toMatchObject({ ok: true });
  repA = await registered('karoo-rep-a', 'teamMember');
  await joined(leader, repA, 'karoo-rep-a');
  // The other order: teams' event before identity's registration.
  repB = randomUUID();
  await joined(leader, repB, 'karoo-rep-b', '0839998888');
  await service.handled(
    Events.userRegistered,
    await service.publish(Events.userRegistered, {
      accountId: repB,
      username: 'karoo-rep-b',
      email: 'karoo-rep-b@example.test',
      firstName: 'Bheki',
      lastName: 'Zulu',
      role: 'teamMember',
      registeredAt: new Date().toISOString(),
    }),
  );
  await service.handled(
    Events.userVerified,
    await service.publish(Events.userVerified, { accountId: repB, verifiedAt: new Date().toISOString() }),
  );
});

afterAll(async () => {
  await service.stop();
});

describe('a rep inherits the business', () => {
  it("shows the leader's business and tier on the rep's page, with the rep's own fields, whatever order the events came in", async () => {
    // Numbers are kept in E.164 (issue 12), whatever form the leader typed them in.
    for (const [username, tel] of [
      ['karoo-rep-a', '+27821234567'],
      ['karoo-rep-b', '+27839998888'],
    ] as const) {
      const page = await service.call(Rpc.getPublicProfile, { username, source: null });
      if (!page.ok) throw new Error(page.message);
      expect(page.value.profile.membership).toBe('DigiPlatinum');
      expect(page.value.profile.document).toMatchObject({ businessName: 'Karoo Solar', buttonBackgroundColor: '#123456', title: '', tel });
      expect(page.value.profile.document.websiteLinks).toEqual(leaderDocument.websiteLinks);
      expect(page.value.shareable).toBe(true);
    }
  });

  it("the rep's editor shows the business fields as the leader set them, locked, with who manages them", async () => {
    const own = await service.call(Rpc.getOwnProfile, {}, as(repA, 'teamMember'));
    if (!own.ok) throw new Error(own.message);
    expect(own.value.membership).toBe('DigiPlatinum');
    expect(own.value.document.businessName).toBe('Karoo Solar');
    expect(own.value.managedBy).toEqual({
      accountId: leader,
      username: 'karoo-lead',
      businessName: 'Karoo Solar',
      fields: [...InheritedFields],
    });
    const leaderOwn = await service.call(Rpc.getOwnProfile, {}, as(leader, 'teamLeader'));
    expect(leaderOwn.ok && leaderOwn.value.managedBy).toBeUndefined();
  });

  it("a rep's save keeps their personal fields and ignores the business fields (server-side)", async () => {
    const sent: ProfileDocument = {
      ...leaderDocument,
      title: 'Sales rep',
      profileBio: 'Ask me about panels',
      businessName: 'Rogue Rep Ltd',
      buttonBackgroundColor: '#ff0000',
      websiteLinks: [],
    };
    const saved = await service.call(Rpc.saveProfile, { document: sent }, as(repA, 'teamMember'));
    if (!saved.ok) throw new Error(saved.message);
    expect(saved.value.document).toMatchObject({
      title: 'Sales rep',
      profileBio: 'Ask me about panels',
      businessName: 'Karoo Solar',
      buttonBackgroundColor: '#123456',
    });
    const [stored] = await service.sql<{ document: ProfileDocument }>('SELECT document FROM profiles.profiles WHERE account_id = $1', [
      repA,
    ]);
    expect(stored!.document.businessName).toBe('');
    expect(stored!.document.title).toBe('Sales rep');
    const page = await service.call(Rpc.getPublicProfile, { username: 'karoo-rep-a', source: null });
    expect(page.ok && page.value.profile.document).toMatchObject({
      businessName: 'Karoo Solar',
      buttonBackgroundColor: '#123456',
      title: 'Sales rep',
    });
  });

  it('a rep may upload their own photo, never the logo, cover, gallery or products', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    for (const purpose of ['businessLogo', 'profileBackground', 'gallery', 'product'] as const) {
      expect(
        await service.call(
          Rpc.storeImage,
          { purpose, contentType: 'image/png', dataBase64: png, width: 1, height: 1 },
          as(repA, 'teamMember'),
        ),
      ).toMatchObject({
        ok: false,
        status: 403,
        message: TeamMessages.businessLocked,
      });
    }
    expect(
      await service.call(
        Rpc.storeImage,
        { purpose: 'profileImage', contentType: 'image/png', dataBase64: png, width: 1, height: 1 },
        as(repA, 'teamMember'),
      ),
    ).toMatchObject({ ok: true });
  });

  it('a rep cannot change the tier they share with their leader', async () => {
    expect(await service.call(Rpc.saveSettings, { isPublic: true, membership: 'DigiShare' }, as(repB, 'teamMember'))).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await service.call(Rpc.saveSettings, { isPublic: true, membership: 'DigiPlatinum' }, as(repB, 'teamMember'))).toMatchObject({
      ok: true,
    });
  });

  it("a leader's Save announces every rep's page too, so the gateways drop those cached pages", async () => {
    const beforeA = (await updatedFor(repA)).length;
    const beforeB = (await updatedFor(repB)).length;
    expect(
      await service.call(
        Rpc.saveProfile,
        { document: { ...leaderDocument, businessName: 'Karoo Solar & Wind' } },
        as(leader, 'teamLeader'),
      ),
    ).toMatchObject({ ok: true });
    expect((await updatedFor(repA)).length).toBe(beforeA + 1);
    expect((await updatedFor(repB)).at(-1)?.data.username).toBe('karoo-rep-b');
    expect((await updatedFor(repB)).length).toBe(beforeB + 1);
    const page = await service.call(Rpc.getPublicProfile, { username: 'karoo-rep-b', source: null });
    expect(page.ok && page.value.profile.document.businessName).toBe('Karoo Solar & Wind');
  });

  it("the leader's phone change for a rep reaches the rep's page", async () => {
    await service.handled(
      Events.teamMemberUpdated,
      await service.publish(Events.teamMemberUpdated, {
        leaderAccountId: leader,
        memberAccountId: repB,
        tel: '0841230000',
        updatedAt: new Date().toISOString(),
      }),
    );
    const page = await service.call(Rpc.getPublicProfile, { username: 'karoo-rep-b', source: null });
    expect(page.ok && page.value.profile.document.tel).toBe('+27841230000');
  });

  it("a changed username moves the page and drops the old address's cache", async () => {
    const changed = await service.publish(Events.userChanged, {
      accountId: repB,
      username: 'karoo-bheki',
      email: 'bheki@example.test',
      firstName: 'Bheki',
      lastName: 'Zulu',
      changedAt: new Date().toISOString(),
    });
    await service.handled(Events.userChanged, changed);
    expect(await service.call(Rpc.getPublicProfile, { username: 'karoo-rep-b', source: null })).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.getPublicProfile, { username: 'karoo-bheki', source: null })).toMatchObject({ ok: true });
    const deleted = await service.recordedEvents<{ username: string }>(Events.profileDeleted.subject);
    expect(deleted.some((e) => e.data.username === 'karoo-rep-b')).toBe(true);
  });

  it('an older change of names delivered after a newer one is skipped; one that comes before the registration is kept for it', async () => {
    const change = (accountId: string, username: string, firstName: string, changedAt: Date) =>
      service.publish(Events.userChanged, {
        accountId,
        username,
        email: `${username}@example.test`,
        firstName,
        lastName: 'Zulu',
        changedAt: changedAt.toISOString(),
      });
    const now = Date.now();
    await service.handled(Events.userChanged, await change(repB, 'karoo-bheki-z', 'Bhekani', new Date(now)));
    await service.handled(Events.userChanged, await change(repB, 'karoo-bheki-old', 'Old', new Date(now - 60_000)));
    const page = await service.call(Rpc.getPublicProfile, { username: 'karoo-bheki-z', source: null });
    expect(page.ok && page.value.profile.firstName).toBe('Bhekani');
    expect(await service.call(Rpc.getPublicProfile, { username: 'karoo-bheki-old', source: null })).toMatchObject({
      ok: false,
      status: 404,
    });

    // A leader renames a rep the moment they are made: identity's two events, handled in the other order.
    const rep = randomUUID();
    await service.handled(Events.userChanged, await change(rep, 'karoo-thandeka', 'Thandeka', new Date()));
    await service.handled(
      Events.userRegistered,
      await service.publish(Events.userRegistered, {
        accountId: rep,
        username: 'karoo-thando',
        email: 'karoo-thando@example.test',
        firstName: 'Thando',
        lastName: 'Zulu',
        role: 'teamMember',
        registeredAt: new Date(Date.now() - 1000).toISOString(),
      }),
    );
    const [row] = await service.sql<{ username: string; first_name: string; email: string }>(
      'SELECT username, first_name, email FROM profiles.profiles WHERE account_id = $1',
      [rep],
    );
    expect(row).toEqual({ username: 'karoo-thandeka', first_name: 'Thandeka', email: 'karoo-thandeka@example.test' });
  });
});

describe('events of one account handled at once', () => {
  it('a rep registered, verified and added together always ends verified, with the business (no lost update)', async () => {
    const accounts = Array.from({ length: 8 }, (_, i) => ({ accountId: randomUUID(), username: `race-rep-${i}` }));
    const ids = await Promise.all(
      accounts.flatMap(({ accountId, username }) => [
        service
          .publish(Events.userRegistered, {
            accountId,
            username,
            email: `${username}@example.test`,
            firstName: 'R',
            lastName: 'R',
            role: 'teamMember',
            registeredAt: new Date().toISOString(),
          })
          .then((id) => [Events.userRegistered, id] as const),
        service
          .publish(Events.userVerified, { accountId, verifiedAt: new Date().toISOString() })
          .then((id) => [Events.userVerified, id] as const),
        service
          .publish(Events.teamMemberAdded, {
            leaderAccountId: leader,
            memberAccountId: accountId,
            username,
            tel: '0820001111',
            addedAt: new Date().toISOString(),
          })
          .then((id) => [Events.teamMemberAdded, id] as const),
      ]),
    );
    for (const [event, id] of ids) await service.handled(event, id);
    const rows = await service.sql<{ is_verified: boolean; business_account_id: string }>(
      `SELECT is_verified, business_account_id FROM profiles.profiles WHERE username LIKE 'race-rep-%'`,
    );
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.is_verified && r.business_account_id === leader)).toBe(true);
  });
});

describe('team leads', () => {
  const lead = { kind: 'lead' as const, firstName: 'Thabo', email: 'thabo@example.test', consent: true as const, message: 'Quote please' };

  it("only the leader gets their team's leads: not a DigiShare user, not a rep, not another leader", async () => {
    expect(await service.call(Rpc.submitLead, { username: 'karoo-rep-a', submission: lead })).toMatchObject({ ok: true });
    const leads = await service.call(Rpc.listTeamLeads, {}, as(leader, 'teamLeader'));
    expect(leads).toMatchObject({ ok: true, value: { leads: [{ firstName: 'Thabo', rep: 'karoo-rep-a' }] } });
    const other = await registered('other-lead', 'teamLeader', 'DigiPlatinum');
    expect(await service.call(Rpc.listTeamLeads, {}, as(other, 'teamLeader'))).toEqual({
      ok: true,
      value: { leads: [], nextCursor: null },
    });
    const plain = await registered('plain-owner', 'user');
    expect(await service.call(Rpc.listTeamLeads, {}, as(plain, 'user'))).toMatchObject({ ok: false, status: 403 });
    expect(await service.call(Rpc.listTeamLeads, {}, as(repB, 'teamMember'))).toMatchObject({ ok: false, status: 403 });
  });

  it('a rep their company deactivated (SCIM) is hidden from everyone, the rep too, until reactivated; the gateways are told', async () => {
    const [{ username }] = (await service.sql<{ username: string }>('SELECT username FROM profiles.profiles WHERE account_id = $1', [
      repB,
    ])) as [{ username: string }];
    expect(await service.call(Rpc.getPublicProfile, { username, source: null })).toMatchObject({ ok: true });
    const announcedBefore = (await updatedFor(repB)).length;
    await service.handled(
      Events.teamMemberSuspended,
      await service.publish(Events.teamMemberSuspended, {
        leaderAccountId: leader,
        memberAccountId: repB,
        suspendedAt: new Date().toISOString(),
      }),
    );
    for (const viewer of [null, as(repB, 'teamMember'), as(leader, 'teamLeader')])
      expect(await service.call(Rpc.getPublicProfile, { username, source: null }, viewer)).toMatchObject({
        ok: false,
        status: 404,
      });
    const lead = await service.call(Rpc.submitLead, {
      username,
      submission: { kind: 'lead', firstName: 'Visitor', email: 'visitor@example.test', consent: true },
    });
    expect(lead).toMatchObject({ ok: false, status: 404 });
    expect((await updatedFor(repB)).length).toBeGreaterThan(announcedBefore);

    await service.handled(
      Events.teamMemberReinstated,
      await service.publish(Events.teamMemberReinstated, {
        leaderAccountId: leader,
        memberAccountId: repB,
        reinstatedAt: new Date().toISOString(),
      }),
    );
    expect(await service.call(Rpc.getPublicProfile, { username, source: null })).toMatchObject({ ok: true });
    // Another rep of the same team was never hidden.
    expect(await service.call(Rpc.getPublicProfile, { username: 'karoo-rep-a', source: null })).toMatchObject({ ok: true });
  });

  it('a user created deactivated (SCIM active: false) before profiles made the page is hidden from the start; a late older event is skipped', async () => {
    const rep = randomUUID();
    const now = Date.now();
    const suspend = (at: number) =>
      service.publish(Events.teamMemberSuspended, {
        leaderAccountId: leader,
        memberAccountId: rep,
        suspendedAt: new Date(at).toISOString(),
      });
    const reinstate = (at: number) =>
      service.publish(Events.teamMemberReinstated, {
        leaderAccountId: leader,
        memberAccountId: rep,
        reinstatedAt: new Date(at).toISOString(),
      });
    // Teams' events come before identity's registration (each subject has its own consumer).
    await joined(leader, rep, 'karoo-inactive');
    await service.handled(Events.teamMemberSuspended, await suspend(now));
    await service.handled(
      Events.userRegistered,
      await service.publish(Events.userRegistered, {
        accountId: rep,
        username: 'karoo-inactive',
        email: 'karoo-inactive@example.test',
        firstName: 'Nomsa',
        lastName: 'Zulu',
        role: 'teamMember',
        registeredAt: new Date(now).toISOString(),
      }),
    );
    await service.handled(
      Events.userVerified,
      await service.publish(Events.userVerified, { accountId: rep, verifiedAt: new Date(now).toISOString() }),
    );
    const page = () => service.call(Rpc.getPublicProfile, { username: 'karoo-inactive', source: null });
    expect(await page()).toMatchObject({ ok: false, status: 404 });

    // Reactivated, then an older deactivation delivered late: the page stays up.
    await service.handled(Events.teamMemberReinstated, await reinstate(now + 2000));
    expect(await page()).toMatchObject({ ok: true });
    await service.handled(Events.teamMemberSuspended, await suspend(now + 1000));
    expect(await page()).toMatchObject({ ok: true });
    // A newer deactivation hides it again.
    await service.handled(Events.teamMemberSuspended, await suspend(now + 3000));
    expect(await page()).toMatchObject({ ok: false, status: 404 });
  });

  it('the job title the company’s identity provider gives (SCIM title) is the card’s title, also when it comes before the registration', async () => {
    const rep = randomUUID();
    const update = (title: string | undefined, tel = '0825550101') =>
      service.publish(Events.teamMemberUpdated, {
        leaderAccountId: leader,
        memberAccountId: rep,
        tel,
        ...(title === undefined ? {} : { title }),
        updatedAt: new Date().toISOString(),
      });
    await joined(leader, rep, 'karoo-titled');
    await service.handled(Events.teamMemberUpdated, await update('Solar Sales Consultant'));
    await service.handled(
      Events.userRegistered,
      await service.publish(Events.userRegistered, {
        accountId: rep,
        username: 'karoo-titled',
        email: 'karoo-titled@example.test',
        firstName: 'Lwazi',
        lastName: 'Ndlovu',
        role: 'teamMember',
        registeredAt: new Date().toISOString(),
      }),
    );
    await service.handled(
      Events.userVerified,
      await service.publish(Events.userVerified, { accountId: rep, verifiedAt: new Date().toISOString() }),
    );
    const title = async () => {
      const page = await service.call(Rpc.getPublicProfile, { username: 'karoo-titled', source: null });
      if (!page.ok) throw new Error(page.message);
      return page.value.profile.document.title;
    };
    expect(await title()).toBe('Solar Sales Consultant');
    await service.handled(Events.teamMemberUpdated, await update('Regional Sales Manager'));
    expect(await title()).toBe('Regional Sales Manager');
    // The leader's change of phone says nothing of the title: it stays.
    await service.handled(Events.teamMemberUpdated, await update(undefined, '0825550202'));
    expect(await title()).toBe('Regional Sales Manager');
    await service.handled(Events.teamMemberUpdated, await update(''));
    expect(await title()).toBe('');
  });

  it('a rep who leaves: the leads stay with the team, the page goes, the gateways are told', async () => {
    await service.handled(
      Events.teamMemberRemoved,
      await service.publish(Events.teamMemberRemoved, {
        leaderAccountId: leader,
        memberAccountId: repA,
        username: 'karoo-rep-a',
        removedAt: new Date().toISOString(),
      }),
    );
    expect(await service.call(Rpc.getPublicProfile, { username: 'karoo-rep-a', source: null })).toMatchObject({ ok: false, status: 404 });
    expect(await service.sql('SELECT 1 FROM profiles.profiles WHERE account_id = $1', [repA])).toHaveLength(0);
    expect(await service.call(Rpc.listTeamLeads, {}, as(leader, 'teamLeader'))).toMatchObject({
      ok: true,
      value: { leads: [{ firstName: 'Thabo', rep: 'karoo-rep-a' }] },
    });
    // The leader's own lead list is theirs alone; the former rep's leads show in the team's.
    const deleted = await service.recordedEvents<{ username: string }>(Events.profileDeleted.subject);
    expect(deleted.some((e) => e.data.username === 'karoo-rep-a')).toBe(true);
  });
});
