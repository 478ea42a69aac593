import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, ProfileDefaults, Rpc } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { profilesService } from '../src/service.js';
import { StoreImage } from '../src/profiles/use-cases/store-image.use-case.js';

// The profiles service's own rules for images, whoever calls its subjects: the quota, the deletion of images no
// longer shown, and private profiles' images for their owner only.

let service: InProcessService<Config>;

async function registered(username: string, role: 'user' | 'teamLeader' | 'teamMember' = 'user'): Promise<string> {
  const accountId = randomUUID();
  const eventId = await service.publish(Events.userRegistered, {
    accountId,
    username,
    email: `${username}@example.test`,
    firstName: 'Media',
    lastName: 'Tester',
    role,
    registeredAt: new Date().toISOString(),
  });
  await service.handled(Events.userRegistered, eventId);
  await service.handled(
    Events.userVerified,
    await service.publish(Events.userVerified, { accountId, verifiedAt: new Date().toISOString() }),
  );
  return accountId;
}

const bytes = (n: number) => Buffer.alloc(n, 7);
const idOf = (url: string) => /\/media\/([^.]+)\./.exec(url)![1]!;

beforeAll(async () => {
  service = await InProcessService.start(profilesService, { MEDIA_QUOTA_BYTES: '300000' });
});

afterAll(async () => {
  await service.stop();
});

describe('images in the profiles service', () => {
  it('refuses an upload past the quota with 413 and stores nothing of it', async () => {
    const accountId = await registered('quota');
    const store = service.get(StoreImage);
    await store.execute(accountId, { purpose: 'profileImage', contentType: 'image/webp', data: bytes(200_000), width: 1, height: 1 });
    await expect(
      store.execute(accountId, { purpose: 'businessLogo', contentType: 'image/webp', data: bytes(150_000), width: 1, height: 1 }),
    ).rejects.toMatchObject({
      body: { statusCode: 413, code: 'QUOTA_EXCEEDED' },
    });
    expect(await service.sql('SELECT id FROM profiles.media WHERE account_id = $1', [accountId])).toHaveLength(1);
  });

  it('counts what is kept: an image that replaces another at the limit is taken, and the old one is gone', async () => {
    const accountId = await registered('atlimit');
    const store = service.get(StoreImage);
    const first = await store.execute(accountId, {
      purpose: 'profileImage',
      contentType: 'image/webp',
      data: bytes(200_000),
      width: 1,
      height: 1,
    });
    // 200 kB kept + 200 kB new would be over 300 kB; the new one replaces the old, so 200 kB is kept.
    const second = await store.execute(accountId, {
      purpose: 'profileImage',
      contentType: 'image/webp',
      data: bytes(200_000),
      width: 1,
      height: 1,
    });
    const rows = await service.sql<{ id: string }>('SELECT id FROM profiles.media WHERE account_id = $1', [accountId]);
    expect(rows.map((r) => r.id)).toEqual([idOf(second.url)]);
    expect(idOf(first.url)).not.toEqual(idOf(second.url));
    // A logo beside it would be kept as well: over the quota, refused, and the profile image is still the second.
    await expect(
      store.execute(accountId, { purpose: 'businessLogo', contentType: 'image/webp', data: bytes(150_000), width: 1, height: 1 }),
    ).rejects.toMatchObject({
      body: { statusCode: 413 },
    });
    expect(await service.call(Rpc.getMedia, { id: idOf(second.url) })).toMatchObject({ ok: true });
    expect(await service.sql('SELECT id FROM profiles.media WHERE account_id = $1', [accountId])).toHaveLength(1);
  });

  it('deletes the profile image a new one replaces', async () => {
    const accountId = await registered('replaced');
    const store = service.get(StoreImage);
    const first = await store.execute(accountId, {
      purpose: 'profileImage',
      contentType: 'image/webp',
      data: bytes(10),
      width: 1,
      height: 1,
    });
    const second = await store.execute(accountId, {
      purpose: 'profileImage',
      contentType: 'image/webp',
      data: bytes(10),
      width: 1,
      height: 1,
    });
    expect(await service.call(Rpc.getMedia, { id: idOf(first.url) })).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.getMedia, { id: idOf(second.url) })).toMatchObject({ ok: true, value: { shareable: true } });
  });

  it('answers a private profile’s image to its owner only, marked not shareable', async () => {
    const accountId = await registered('private');
    const { url } = await service
      .get(StoreImage)
      .execute(accountId, { purpose: 'profileImage', contentType: 'image/webp', data: bytes(10), width: 1, height: 1 });
    expect(await service.call(Rpc.saveSettings, { isPublic: false, membership: 'DigiShare' }, { accountId })).toMatchObject({ ok: true });
    expect(await service.call(Rpc.getMedia, { id: idOf(url) })).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.getMedia, { id: idOf(url) }, { accountId: randomUUID() })).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.getMedia, { id: idOf(url) }, { accountId })).toMatchObject({ ok: true, value: { shareable: false } });
  });

  it('answers mediaOfAccount for the account named in the body only, whatever the profile’s visibility or meta says', async () => {
    const accountId = await registered('printlogo');
    const { url } = await service
      .get(StoreImage)
      .execute(accountId, { purpose: 'businessLogo', contentType: 'image/webp', data: bytes(10), width: 1, height: 1 });
    expect(await service.call(Rpc.saveSettings, { isPublic: false, membership: 'DigiShare' }, { accountId })).toMatchObject({ ok: true });
    const id = idOf(url);
    expect(await service.call(Rpc.mediaOfAccount, { id, accountId })).toMatchObject({ ok: true, value: { contentType: 'image/webp' } });
    // Another account named in the body, even with the owner posed as in meta, finds nothing.
    expect(await service.call(Rpc.mediaOfAccount, { id, accountId: randomUUID() }, { accountId })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await service.call(Rpc.mediaOfAccount, { id } as never)).toMatchObject({ ok: false, status: 400 });
  });

  it('serves a private leader’s logo to visitors while a public rep’s page shows it, and nothing of the leader’s own', async () => {
    const leader = await registered('private-lead', 'teamLeader');
    await service.sql("UPDATE profiles.profiles SET membership = 'DigiPlatinum' WHERE account_id = $1", [leader]);
    const store = service.get(StoreImage);
    const logo = await store.execute(leader, { purpose: 'businessLogo', contentType: 'image/webp', data: bytes(10), width: 1, height: 1 });
    const photo = await store.execute(leader, { purpose: 'profileImage', contentType: 'image/webp', data: bytes(10), width: 1, height: 1 });
    const document = { ...ProfileDefaults, businessName: 'Private Lead Co', businessLogo: logo.url, profileImage: photo.url };
    expect(await service.call(Rpc.saveProfile, { document }, { accountId: leader, role: 'teamLeader' })).toMatchObject({ ok: true });
    expect(
      await service.call(Rpc.saveSettings, { isPublic: false, membership: 'DigiPlatinum' }, { accountId: leader, role: 'teamLeader' }),
    ).toMatchObject({ ok: true });
    // No rep yet: the private leader's logo is the leader's alone.
    expect(await service.call(Rpc.getMedia, { id: idOf(logo.url) })).toMatchObject({ ok: false, status: 404 });

    const rep = await registered('public-rep', 'teamMember');
    await service.handled(
      Events.teamMemberAdded,
      await service.publish(Events.teamMemberAdded, {
        leaderAccountId: leader,
        memberAccountId: rep,
        username: 'public-rep',
        tel: '0821234567',
        addedAt: new Date().toISOString(),
      }),
    );
    const page = await service.call(Rpc.getPublicProfile, { username: 'public-rep', source: null });
    expect(page).toMatchObject({ ok: true, value: { profile: { document: { businessLogo: logo.url } } } });
    expect(await service.call(Rpc.getMedia, { id: idOf(logo.url) })).toMatchObject({ ok: true, value: { shareable: true } });
    // The leader's own photo is not the business's: still private.
    expect(await service.call(Rpc.getMedia, { id: idOf(photo.url) })).toMatchObject({ ok: false, status: 404 });
    // With the rep's page private too, no public page shows the logo.
    expect(
      await service.call(Rpc.saveSettings, { isPublic: false, membership: 'DigiPlatinum' }, { accountId: rep, role: 'teamMember' }),
    ).toMatchObject({ ok: true });
    expect(await service.call(Rpc.getMedia, { id: idOf(logo.url) })).toMatchObject({ ok: false, status: 404 });
  });
});
