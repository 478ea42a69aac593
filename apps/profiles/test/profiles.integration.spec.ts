import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, ProfileDefaults, Rpc, UpgradeMessages, LeadMessages, type ProfileDocument } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { profilesService } from '../src/service.js';
import { SaveProfile } from '../src/profiles/use-cases/save-profile.use-case.js';
import { StoreImage } from '../src/profiles/use-cases/store-image.use-case.js';

// The profiles service in this process, on a fresh database and its own NATS server: its use cases with their real
// repositories, its subjects over NATS with their access rules, and its consumers of identity's events.

let service: InProcessService<Config>;

/** An account as identity announces it: the profile is created by the service's own consumer. */
async function registered(username: string, options: { verified?: boolean; membership?: string } = {}): Promise<string> {
  const accountId = randomUUID();
  const eventId = await service.publish(Events.userRegistered, {
    accountId,
    username,
    email: `${username}@example.test`,
    firstName: username[0]!.toUpperCase() + username.slice(1),
    lastName: 'Tester',
    role: 'user',
    registeredAt: new Date().toISOString(),
  });
  await service.handled(Events.userRegistered, eventId);
  if (options.verified ?? true)
    await service.handled(
      Events.userVerified,
      await service.publish(Events.userVerified, { accountId, verifiedAt: new Date().toISOString() }),
    );
  if (options.membership)
    await service.sql('UPDATE profiles.profiles SET membership = $1 WHERE account_id = $2', [options.membership, accountId]);
  return accountId;
}

const png1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const lead = { kind: 'lead' as const, firstName: 'Thabo', email: 'thabo@example.test', consent: true as const, message: 'Call me' };

beforeAll(async () => {
  service = await InProcessService.start(profilesService, { LEADS_PER_PROFILE_DAY: '5' });
});

afterAll(async () => {
  await service.stop();
});

describe('account events', () => {
  it('gives a registered account a profile with the product defaults, once however often the event comes', async () => {
    const accountId = randomUUID();
    const data = {
      accountId,
      username: 'naledi',
      email: 'naledi@example.test',
      firstName: 'Naledi',
      lastName: 'Dlamini',
      role: 'user' as const,
      registeredAt: new Date().toISOString(),
    };
    const eventId = await service.publish(Events.userRegistered, data);
    await service.handled(Events.userRegistered, eventId);
    await service.publish(Events.userRegistered, data, eventId);
    await service.publish(Events.userRegistered, { ...data, firstName: 'Changed' }, randomUUID());
    const own = await service.call(Rpc.getOwnProfile, {}, { accountId });
    expect(own).toMatchObject({
      ok: true,
      value: { username: 'naledi', firstName: 'Naledi', membership: 'DigiShare', isVerified: false, isPublic: true },
    });
    if (own.ok) expect(own.value.document).toEqual(ProfileDefaults);
    const handled = await service.sql('SELECT count(*)::int AS n FROM profiles.processed_messages WHERE message_id = $1', [eventId]);
    expect(handled[0]!['n']).toBe(1);
  });

  it('marks a verified account and forgets a deleted one, telling the gateways', async () => {
    const accountId = await registered('sipho');
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({ ok: true, value: { isVerified: true } });
    await service.handled(
      Events.userDeleted,
      await service.publish(Events.userDeleted, { accountId, deletedAt: new Date().toISOString() }),
    );
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({ ok: false, status: 404 });
    const deleted = await service.recordedEvents<{ accountId: string; username: string }>(Events.profileDeleted.subject);
    expect(deleted.map((e) => e.data)).toContainEqual({ accountId, username: 'sipho' });
  });
});

describe('identity’s events in any order', () => {
  const registration = (accountId: string, username: string) => ({
    accountId,
    username,
    email: `${username}@example.test`,
    firstName: 'Late',
    lastName: 'Arrival',
    role: 'user' as const,
    registeredAt: new Date().toISOString(),
  });

  it('a verification that arrives before the registration still leaves the profile verified', async () => {
    const accountId = randomUUID();
    await service.handled(
      Events.userVerified,
      await service.publish(Events.userVerified, { accountId, verifiedAt: new Date().toISOString() }),
    );
    await service.handled(Events.userRegistered, await service.publish(Events.userRegistered, registration(accountId, 'verifiedfirst')));
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({
      ok: true,
      value: { username: 'verifiedfirst', isVerified: true },
    });
  });

  it('a deletion that arrives before the registration leaves no profile behind', async () => {
    const accountId = randomUUID();
    await service.handled(
      Events.userDeleted,
      await service.publish(Events.userDeleted, { accountId, deletedAt: new Date().toISOString() }),
    );
    await service.handled(Events.userRegistered, await service.publish(Events.userRegistered, registration(accountId, 'deletedfirst')));
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({ ok: false, status: 404 });
    expect(await service.sql('SELECT 1 FROM profiles.profiles WHERE username = $1', ['deletedfirst'])).toEqual([]);
  });
});

describe('save profile', () => {
  it('saves the document and announces the change for the page caches', async () => {
    const accountId = await registered('lerato');
    const document: ProfileDocument = {
      ...ProfileDefaults,
      title: 'Estate agent',
      websiteLinks: [{ buttonName: 'Listings', url: 'https://example.co.za' }],
    };
    const saved = await service.get(SaveProfile).execute(accountId, document);
    expect(saved.document.title).toBe('Estate agent');
    const updates = await service.recordedEvents<{ accountId: string; username: string }>(Events.profileUpdated.subject);
    expect(updates.at(-1)?.data).toMatchObject({ accountId, username: 'lerato' });
  });

  it('refuses content the tier does not include, naming the tier that unlocks it, and stores nothing', async () => {
    const accountId = await registered('pieter');
    const withSocial = {
      ...ProfileDefaults,
      title: 'Not saved',
      socialLinks: [{ platform: 'facebook' as const, url: 'https://facebook.com/pieter' }],
    };
    await expect(service.get(SaveProfile).execute(accountId, withSocial)).rejects.toMatchObject({
      body: { statusCode: 403, message: UpgradeMessages.socialLinks },
    });
    const withVideo = { ...ProfileDefaults, videoLink: 'https://www.youtube.com/watch?v=abc' };
    await service.sql("UPDATE profiles.profiles SET membership = 'DigiSilver' WHERE account_id = $1", [accountId]);
    await expect(service.get(SaveProfile).execute(accountId, withVideo)).rejects.toMatchObject({
      body: { statusCode: 403, message: UpgradeMessages.video },
    });
    await service.sql("UPDATE profiles.profiles SET membership = 'DigiGold' WHERE account_id = $1", [accountId]);
    await expect(service.get(SaveProfile).execute(accountId, withVideo)).resolves.toMatchObject({
      document: { videoLink: withVideo.videoLink },
    });
    const own = await service.call(Rpc.getOwnProfile, {}, { accountId });
    expect(own.ok && own.value.document.title).toBe('');
  });

  it('refuses another owner’s image in a document', async () => {
    const owner = await registered('anele');
    const other = await registered('musa');
    const { url } = await service
      .get(StoreImage)
      .execute(owner, { purpose: 'profileImage', contentType: 'image/png', data: png1x1, width: 1, height: 1 });
    await expect(service.get(SaveProfile).execute(other, { ...ProfileDefaults, profileImage: url })).rejects.toMatchObject({
      body: { statusCode: 400 },
    });
    await expect(service.get(SaveProfile).execute(owner, { ...ProfileDefaults, profileImage: url })).resolves.toMatchObject({
      document: { profileImage: url },
    });
  });

  it('over NATS: only a signed-in caller, and always on their own profile', async () => {
    const a = await registered('ayanda');
    const b = await registered('bongani');
    const document = { ...ProfileDefaults, title: 'Written by B' };
    expect(await service.call(Rpc.saveProfile, { document }, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.saveProfile, { document }, { accountId: b })).toMatchObject({ ok: true, value: { username: 'bongani' } });
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId: a })).toMatchObject({
      ok: true,
      value: { username: 'ayanda', document: { title: '' } },
    });
    // A body field naming another account is not part of the contract: it is dropped, never obeyed.
    const sneaky = await service.call(Rpc.saveProfile, { document, accountId: a } as never, { accountId: b });
    expect(sneaky).toMatchObject({ ok: true, value: { username: 'bongani' } });
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId: a })).toMatchObject({ ok: true, value: { document: { title: '' } } });
  });

  it('answers field errors for a document that breaks the contract', async () => {
    const accountId = await registered('zanele');
    const answer = await service.call(Rpc.saveProfile, { document: { ...ProfileDefaults, buttonBorderWidth: 11 } }, { accountId });
    expect(answer).toMatchObject({ ok: false, status: 400, code: 'VALIDATION_FAILED' });
    if (!answer.ok) expect(Object.keys(answer.fieldErrors ?? {}).join()).toContain('buttonBorderWidth');
  });

  it('keeps the logo width to the slider’s "0-100 percent step 10" (spec section 9), whatever the browser sends', async () => {
    const accountId = await registered('lwazi');
    for (const width of [55, 110, -10]) {
      const answer = await service.call(Rpc.saveProfile, { document: { ...ProfileDefaults, businessLogoWidth: width } }, { accountId });
      expect(answer).toMatchObject({ ok: false, status: 400, code: 'VALIDATION_FAILED' });
      if (!answer.ok) expect(Object.keys(answer.fieldErrors ?? {})).toEqual(['body.document.businessLogoWidth']);
    }
    const saved = await service.call(Rpc.saveProfile, { document: { ...ProfileDefaults, businessLogoWidth: 60 } }, { accountId });
    expect(saved).toMatchObject({ ok: true, value: { document: { businessLogoWidth: 60 } } });
  });
});

describe('settings', () => {
  it('changes the visibility; partners take any tier; everyone else’s tier goes through Billing', async () => {
    const accountId = await registered('kagiso');
    expect(await service.call(Rpc.saveSettings, { isPublic: false, membership: 'DigiGold' }, { accountId })).toMatchObject({
      ok: false,
      status: 403,
      message: /Billing/,
    });
    expect(await service.call(Rpc.saveSettings, { isPublic: false, membership: 'DigiShare' }, { accountId })).toMatchObject({
      ok: true,
      value: { isPublic: false },
    });
    await service.sql('UPDATE profiles.profiles SET is_partner = true WHERE account_id = $1', [accountId]);
    expect(await service.call(Rpc.saveSettings, { isPublic: true, membership: 'DigiGold' }, { accountId })).toMatchObject({
      ok: true,
      value: { membership: 'DigiGold' },
    });
  });
});

describe('images', () => {
  it('puts a profile image on the profile at once; gallery images need DigiGold', async () => {
    const accountId = await registered('thandi');
    const store = service.get(StoreImage);
    const { url } = await store.execute(accountId, {
      purpose: 'profileImage',
      contentType: 'image/png',
      data: png1x1,
      width: 1,
      height: 1,
    });
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({
      ok: true,
      value: { document: { profileImage: url } },
    });
    await expect(
      store.execute(accountId, { purpose: 'gallery', contentType: 'image/png', data: png1x1, width: 1, height: 1 }),
    ).rejects.toMatchObject({
      body: { statusCode: 403, message: UpgradeMessages.gallery },
    });
    const media = await service.call(Rpc.getMedia, { id: /\/media\/([^.]+)\./.exec(url)![1]! });
    expect(media.ok && Buffer.from(media.value.dataBase64, 'base64').equals(png1x1)).toBe(true);
  });
});

describe('public profile and leads', () => {
  it('shows a private or unverified profile to its owner only', async () => {
    const owner = await registered('unverified', { verified: false });
    const stranger = await registered('stranger');
    expect(await service.call(Rpc.getPublicProfile, { username: 'unverified', source: null }, { accountId: owner })).toMatchObject({
      ok: true,
      value: { isOwner: true, shareable: false },
    });
    expect(await service.call(Rpc.getPublicProfile, { username: 'unverified', source: null }, { accountId: stranger })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await service.call(Rpc.getPublicProfile, { username: 'unverified', source: null }, null)).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it('hides content above the tier from visitors, and counts their views', async () => {
    const owner = await registered('hidden', { membership: 'DigiGold' });
    await service.get(SaveProfile).execute(owner, { ...ProfileDefaults, videoLink: 'https://www.youtube.com/watch?v=abc' });
    await service.sql("UPDATE profiles.profiles SET membership = 'DigiShare' WHERE account_id = $1", [owner]);
    const seen = await service.call(Rpc.getPublicProfile, { username: 'hidden', source: 'qr' }, null);
    expect(seen).toMatchObject({ ok: true, value: { profile: { document: { videoLink: '' }, features: { video: false } } } });
    const views = await service.sql<{ key: string; count: number }>(
      "SELECT key, count FROM profiles.analytics_daily WHERE account_id = $1 AND metric = 'view'",
      [owner],
    );
    expect(views).toEqual([{ key: 'qr', count: 1 }]);
    // Still stored: a new tier shows it again.
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId: owner })).toMatchObject({
      ok: true,
      value: { document: { videoLink: 'https://www.youtube.com/watch?v=abc' } },
    });
  });

  it('stores a lead with the event that emails its owner; the lead form needs DigiGold; robots store nothing', async () => {
    const silver = await registered('silverowner', { membership: 'DigiSilver' });
    expect(await service.call(Rpc.submitLead, { username: 'silverowner', submission: lead })).toMatchObject({
      ok: false,
      status: 403,
      message: UpgradeMessages.leadForm,
    });
    const exchange = await service.call(Rpc.submitLead, { username: 'silverowner', submission: { ...lead, kind: 'exchange' } });
    expect(exchange.ok).toBe(true);
    const captured = await service.recordedEvents<{ leadId: string; accountId: string; ownerEmail: string }>(Events.leadCaptured.subject);
    expect(captured.at(-1)?.data).toMatchObject({ accountId: silver, ownerEmail: 'silverowner@example.test' });
    const before = await service.sql('SELECT id FROM profiles.leads WHERE account_id = $1', [silver]);
    expect(
      await service.call(Rpc.submitLead, {
        username: 'silverowner',
        submission: { ...lead, kind: 'exchange', website: 'https://spam.example' },
      }),
    ).toMatchObject({ ok: true });
    expect(await service.sql('SELECT id FROM profiles.leads WHERE account_id = $1', [silver])).toHaveLength(before.length);
    expect(await service.call(Rpc.submitLead, { username: 'nobody-here', submission: lead })).toMatchObject({ ok: false, status: 404 });
  });

  it('answers a retry of a lead with the same idempotency key with the first lead: one stored, one email event', async () => {
    const owner = await registered('retryowner', { membership: 'DigiGold' });
    const submission = { ...lead, email: 'retry-visitor@example.test', idempotencyKey: 'visitor-key-0001-abcdef' };
    const [first, again] = await Promise.all([
      service.call(Rpc.submitLead, { username: 'retryowner', submission }),
      service.call(Rpc.submitLead, { username: 'retryowner', submission }),
    ]);
    expect(first.ok).toBe(true);
    expect(again).toEqual(first);
    expect(await service.call(Rpc.submitLead, { username: 'retryowner', submission })).toEqual(first);
    expect(await service.sql('SELECT id FROM profiles.leads WHERE account_id = $1', [owner])).toHaveLength(1);
    const captured = (await service.recordedEvents<{ accountId: string }>(Events.leadCaptured.subject)).filter(
      (e) => e.data.accountId === owner,
    );
    expect(captured).toHaveLength(1);
    // The key sent to another profile, or with someone else's details: refused.
    await registered('retryother', { membership: 'DigiGold' });
    expect(await service.call(Rpc.submitLead, { username: 'retryother', submission })).toMatchObject({ ok: false, status: 409 });
    expect(
      await service.call(Rpc.submitLead, { username: 'retryowner', submission: { ...submission, email: 'other@example.test' } }),
    ).toMatchObject({ ok: false, status: 409 });
    const second = await service.call(Rpc.submitLead, {
      username: 'retryowner',
      submission: { ...submission, idempotencyKey: 'visitor-key-0002-abcdef' },
    });
    expect(second.ok && first.ok && second.value.id !== first.value.id).toBe(true);
  });

  it('takes at most LEADS_PER_PROFILE_DAY leads a day per profile (429 with a message); yesterday’s do not count', async () => {
    const owner = await registered('busyowner', { membership: 'DigiGold' });
    await registered('quietowner', { membership: 'DigiGold' });
    const send = (username: string, n: number, extra: object = {}) =>
      service.call(Rpc.submitLead, { username, submission: { ...lead, email: `visitor-${n}@example.test`, ...extra } });
    const keyed = await send('busyowner', 0, { idempotencyKey: 'busy-visitor-key-0001' });
    expect(keyed.ok).toBe(true);
    // Sent together: the account's lock counts them one after the other.
    const burst = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => send('busyowner', n)));
    expect(burst.filter((a) => a.ok)).toHaveLength(4);
    expect(burst.filter((a) => !a.ok)).toEqual(
      Array(2).fill(expect.objectContaining({ ok: false, status: 429, message: LeadMessages.profileFullToday })),
    );
    expect(await service.sql('SELECT id FROM profiles.leads WHERE account_id = $1', [owner])).toHaveLength(5);
    // A retry of a lead stored already is still answered with it; another profile is not affected.
    expect(await send('busyowner', 0, { idempotencyKey: 'busy-visitor-key-0001' })).toEqual(keyed);
    expect((await send('quietowner', 7)).ok).toBe(true);
    // The day's leads made yesterday's: today has room again.
    await service.sql("UPDATE profiles.leads SET created_at = created_at - interval '1 day' WHERE account_id = $1", [owner]);
    expect((await send('busyowner', 8)).ok).toBe(true);
  });

  it('lists and exports only the signed-in owner’s leads', async () => {
    const gold = await registered('goldowner', { membership: 'DigiGold' });
    const other = await registered('otherowner', { membership: 'DigiGold' });
    await service.call(Rpc.submitLead, { username: 'goldowner', submission: lead });
    expect(await service.call(Rpc.listLeads, {}, { accountId: gold })).toMatchObject({
      ok: true,
      value: { leads: [{ firstName: 'Thabo', kind: 'lead' }] },
    });
    expect(await service.call(Rpc.listLeads, {}, { accountId: other })).toMatchObject({ ok: true, value: { leads: [] } });
    expect(await service.call(Rpc.listLeads, {}, null)).toMatchObject({ ok: false, status: 401 });
    const exported = await service.exportOf(Rpc.exportData, { accountId: other });
    expect(exported).toMatchObject({ ok: true, value: { profile: { username: 'otherowner' }, leads: [] } });
  });
});

describe('membership from payments', () => {
  const changed = (accountId: string, membership: 'DigiShare' | 'DigiSilver' | 'DigiGold', version: number) => ({
    accountId,
    membership,
    paidUntil: membership === 'DigiShare' ? null : new Date(Date.now() + 30 * 86_400_000).toISOString(),
    version,
    changedAt: new Date().toISOString(),
  });

  it('takes the tier payments decided, drops the cached page, and unlocks what it includes', async () => {
    const accountId = await registered('upgraded');
    await service.handled(Events.membershipChanged, await service.publish(Events.membershipChanged, changed(accountId, 'DigiSilver', 1)));
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({ ok: true, value: { membership: 'DigiSilver' } });
    const updates = await service.recordedEvents<{ username: string }>(Events.profileUpdated.subject);
    expect(updates.at(-1)?.data.username).toBe('upgraded');
    const social = { ...ProfileDefaults, socialLinks: [{ platform: 'instagram' as const, url: 'https://instagram.com/upgraded' }] };
    await expect(service.get(SaveProfile).execute(accountId, social)).resolves.toMatchObject({
      document: { socialLinks: social.socialLinks },
    });
  });

  it('ignores an older change that arrives after a newer one', async () => {
    const accountId = await registered('reordered');
    await service.handled(Events.membershipChanged, await service.publish(Events.membershipChanged, changed(accountId, 'DigiShare', 3)));
    await service.handled(Events.membershipChanged, await service.publish(Events.membershipChanged, changed(accountId, 'DigiGold', 2)));
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({ ok: true, value: { membership: 'DigiShare' } });
  });

  it('keeps a tier paid before the profile existed, and applies it when the account arrives', async () => {
    const accountId = randomUUID();
    await service.handled(Events.membershipChanged, await service.publish(Events.membershipChanged, changed(accountId, 'DigiGold', 1)));
    const eventId = await service.publish(Events.userRegistered, {
      accountId,
      username: 'early',
      email: 'early@example.test',
      firstName: 'Early',
      lastName: 'Bird',
      role: 'user',
      registeredAt: new Date().toISOString(),
    });
    await service.handled(Events.userRegistered, eventId);
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({ ok: true, value: { membership: 'DigiGold' } });
  });

  it('leaves a partner’s own choice alone', async () => {
    const accountId = await registered('partner');
    await service.sql("UPDATE profiles.profiles SET is_partner = true, membership = 'DigiPlatinum' WHERE account_id = $1", [accountId]);
    await service.handled(Events.membershipChanged, await service.publish(Events.membershipChanged, changed(accountId, 'DigiShare', 1)));
    expect(await service.call(Rpc.getOwnProfile, {}, { accountId })).toMatchObject({ ok: true, value: { membership: 'DigiPlatinum' } });
  });
});
