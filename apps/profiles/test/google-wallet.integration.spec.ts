import assert from 'node:assert/strict';
import { createPrivateKey, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { Events, ProfileDefaults, Rpc, type ProfileDocument } from '@digicard/contracts';
import { InProcessService, type Answer } from '@digicard/service-testing';
import {
  DEFAULTS,
  GoogleWalletStandIn,
  makeGoogleTestCredentials,
  verifyRs256Jwt,
  waitFor,
  type GoogleTestCredentials,
} from '@digicard/testing';
import { ConfigSchema, type Config } from '../src/config.js';
import { profilesService } from '../src/service.js';
import { googleWalletOf } from '../src/wallet/google-config.js';
import { GoogleWalletClient } from '../src/wallet/google-wallet-client.js';
import { WalletPassSweeper } from '../src/wallet/workers/wallet-pass-sweeper.js';

// Google Wallet in the profiles service, in this process: the owner's Save to Google Wallet link (a JWT checked here
// with the service account's public key), the object written through the Wallet REST API when a Save changes what it
// shows (the `google-wallet-sync` queue on real Redis, to a local stand-in of Google's token endpoint and API that
// checks the service account's signed assertion and the bearer token), objects expired with their account or rep,
// and a leader's "give every rep their pass". Apple Wallet is not configured here: each wallet stands alone.

let credentials: GoogleTestCredentials;
let google: GoogleWalletStandIn;
let service: InProcessService<Config>;
const queuePrefix = `g-${randomBytes(4).toString('hex')}`;
const PUBLIC_URL = 'https://cards.example.co.za';

async function registered(username: string, role: 'user' | 'teamLeader' | 'teamMember' = 'user'): Promise<string> {
  const accountId = randomUUID();
  await service.handled(
    Events.userRegistered,
    await service.publish(Events.userRegistered, {
      accountId,
      username,
      email: `${username}@example.test`,
      firstName: username[0]!.toUpperCase() + username.slice(1),
      lastName: 'Tester',
      role,
      registeredAt: new Date().toISOString(),
    }),
  );
  await service.handled(
    Events.userVerified,
    await service.publish(Events.userVerified, { accountId, verifiedAt: new Date().toISOString() }),
  );
  return accountId;
}

function ok<T>(answer: Answer<T>): T {
  if (!answer.ok) throw new Error(`refused ${answer.status}: ${answer.message}`);
  return answer.value;
}

/** The owner's save link, its JWT checked with the service account's public key. */
async function link(accountId: string) {
  const { saveUrl } = ok(await service.call(Rpc.issueGoogleWalletLink, {}, { accountId }));
  assert.ok(saveUrl.startsWith('https://pay.google.com/gp/v/save/'), saveUrl);
  const jwt = saveUrl.slice('https://pay.google.com/gp/v/save/'.length);
  const { header, claims } = verifyRs256Jwt(jwt, credentials.publicKey);
  const object = claims['payload'].genericObjects[0] as Record<string, any> & { id: string };
  return { saveUrl, header, claims, object };
}

const save = async (accountId: string, change: Partial<ProfileDocument>) =>
  ok(await service.call(Rpc.saveProfile, { document: { ...ProfileDefaults, ...change } }, { accountId }));

const puts = (objectId: string) => google.objectCalls(objectId).filter((c) => c.method === 'PUT');

beforeAll(async () => {
  credentials = makeGoogleTestCredentials();
  google = await new GoogleWalletStandIn(credentials).start();
  service = await InProcessService.start(profilesService, {
    PUBLIC_URL,
    REDIS_URL: DEFAULTS.redisUrl,
    QUEUE_PREFIX: queuePrefix,
    QUEUE_ADD_TIMEOUT_MS: '2000',
    GOOGLE_WALLET_SYNC_BACKOFF_MS: '100',
    // Not Apple's 72 (APPLE_VOIDED_PASS_KEEP_HOURS): the sweeper keeps Google's voided objects by Google's own setting.
    GOOGLE_WALLET_VOIDED_OBJECT_KEEP_HOURS: '24',
    ...credentials.env(google),
  });
});

afterAll(async () => {
  await service?.stop();
  await google?.stop();
  const redis = new Redis(DEFAULTS.redisUrl);
  const keys = await redis.keys(`${queuePrefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('configuration', () => {
  const base = {
    DATABASE_URL: 'postgres://127.0.0.1:5432/test',
    NATS_URL: 'nats://127.0.0.1:4222',
    PUBLIC_URL,
    REDIS_URL: DEFAULTS.redisUrl,
  };
  it('is all or nothing: some settings without the others is refused, naming each missing one', () => {
    const result = ConfigSchema.safeParse({ ...base, GOOGLE_WALLET_ISSUER_ID: credentials.issuerId });
    assert.equal(result.success, false);
    const paths = result.error!.issues.map((i) => i.path.join('.')).sort();
    assert.equal(paths.join(','), 'GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL,GOOGLE_WALLET_SERVICE_ACCOUNT_KEY');
  });

  it('refuses a key that is not a private key, an issuer id that is not digits, and an http API off the loopback', () => {
    const env = credentials.env(google);
    const result = ConfigSchema.safeParse({
      ...base,
      ...env,
      GOOGLE_WALLET_ISSUER_ID: 'my-issuer',
      GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: '-----BEGIN PRIVATE KEY-----\\nnot a key\\n-----END PRIVATE KEY-----',
      GOOGLE_WALLET_API_URL: 'http://walletobjects.example.com',
    });
    assert.equal(result.success, false);
    const paths = [...new Set(result.error!.issues.map((i) => i.path.join('.')))].sort();
    assert.equal(paths.join(','), 'GOOGLE_WALLET_API_URL,GOOGLE_WALLET_ISSUER_ID,GOOGLE_WALLET_SERVICE_ACCOUNT_KEY');
  });

  it('without any setting, the feature is off: no link, and health names what is missing', async () => {
    const off = await InProcessService.start(profilesService, { PUBLIC_URL });
    try {
      const accountId = randomUUID();
      expect(ok(await off.call(Rpc.getWalletStatus, {}, { accountId }))).toEqual({
        apple: { available: false },
        google: { available: false },
      });
      expect(await off.call(Rpc.issueGoogleWalletLink, {}, { accountId })).toMatchObject({ ok: false, status: 404 });
      const health = await off.running.ctx.health.report();
      const reason = (health.features?.['googleWallet'] as { reason?: string } | undefined)?.reason ?? '';
      assert.match(
        reason,
        /GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL, GOOGLE_WALLET_SERVICE_ACCOUNT_KEY, REDIS_URL not set/,
      );
    } finally {
      await off.stop();
    }
  });
});

describe('the owner’s save link', () => {
  it('is a JWT signed with the service account’s key, carrying the class and the owner’s one object', async () => {
    const accountId = await registered('naledi');
    expect(ok(await service.call(Rpc.getWalletStatus, {}, { accountId }))).toEqual({
      apple: { available: false },
      google: { available: true },
    });
    await save(accountId, { title: 'Sales Director', businessName: 'Ubuntu Motors', profileBackgroundColor: '#123456' });
    const first = await link(accountId);
    assert.deepEqual(first.header, { alg: 'RS256', typ: 'JWT' });
    assert.equal(first.claims['iss'], credentials.serviceAccountEmail);
    assert.equal(first.claims['aud'], 'google');
    assert.equal(first.claims['typ'], 'savetowallet');
    assert.equal(first.claims['origins'].join(','), PUBLIC_URL);
    assert.equal(first.claims['payload'].genericClasses[0].id, `${credentials.issuerId}.digicard-card`);
    const object = first.object;
    assert.equal(object['classId'], `${credentials.issuerId}.digicard-card`);
    assert.match(object.id, new RegExp(`^${credentials.issuerId}\\.[A-Za-z0-9_-]{24}$`));
    assert.ok(!object.id.includes(accountId.slice(0, 8)) && !/naledi/i.test(object.id), 'the id says nothing about the account');
    assert.equal(object['state'], 'ACTIVE');
    assert.equal(object['header'].defaultValue.value, 'Naledi Tester');
    assert.equal(object['subheader'].defaultValue.value, 'Sales Director');
    assert.equal(object['cardTitle'].defaultValue.value, 'Ubuntu Motors');
    assert.equal(object['hexBackgroundColor'], '#123456');
    assert.equal(object['barcode'].type, 'QR_CODE');
    assert.equal(object['barcode'].value, `${PUBLIC_URL}/naledi?src=wallet`);

    const again = await link(accountId);
    assert.equal(again.object.id, object.id, 'the same object every time: a second save does not add another card');
    const other = await link(await registered('pieter'));
    assert.notEqual(other.object.id, object.id);
    assert.equal(other.object['header'].defaultValue.value, 'Pieter Tester', 'each account’s link carries its own card only');
    const health = await service.running.ctx.health.report();
    assert.deepEqual(health.features?.['googleWallet'], { status: 'on' });
  });

  it('is refused to a visitor (no account) and to an account without a profile', async () => {
    expect(await service.call(Rpc.issueGoogleWalletLink, {}, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.issueGoogleWalletLink, {}, { accountId: randomUUID() })).toMatchObject({ ok: false, status: 404 });
  });
});

describe('updates written', () => {
  it('writes the object (service-account token, PUT) when a Save changes what it shows, and only then', async () => {
    const accountId = await registered('bongani');
    const { object } = await link(accountId);
    google.saved(object);

    await save(accountId, { title: 'Sales Director', businessName: 'Ubuntu Motors' });
    await waitFor('the object written', () => Promise.resolve(puts(object.id).some((c) => c.status === 200)));
    const written = google.objects.get(object.id)!;
    assert.equal(written['subheader'].defaultValue.value, 'Sales Director');
    assert.equal(written['cardTitle'].defaultValue.value, 'Ubuntu Motors');
    assert.equal(written['state'], 'ACTIVE');
    assert.ok(
      google.calls.some((c) => c.path === '/token' && c.status === 200),
      'a token from the service account’s signed assertion',
    );
    assert.equal(google.refused.length, 0, `the stand-in refused an assertion: ${google.refused.join('; ')}`);

    // A Save of what the object does not show (the bio) writes nothing.
    const count = puts(object.id).length;
    await save(accountId, { title: 'Sales Director', businessName: 'Ubuntu Motors', profileBio: 'Cars since 1998.' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(puts(object.id).length, count, 'no write for a change the object does not show');
  });

  it('retries a write Google could not take, renews a token Google no longer takes, and does not retry an unsaved object', async () => {
    const accountId = await registered('zanele');
    const { object } = await link(accountId);
    google.saved(object);
    google.failNext(2);
    await save(accountId, { title: 'Owner' });
    await waitFor('written on the third attempt', () => Promise.resolve(puts(object.id).some((c) => c.status === 200)));
    assert.equal(
      puts(object.id)
        .map((c) => c.status)
        .join(','),
      '503,503,200',
    );

    google.revokeTokens();
    await save(accountId, { title: 'Managing Director' });
    await waitFor('written with a new token', () => Promise.resolve(puts(object.id).filter((c) => c.status === 200).length === 2));
    assert.equal(
      puts(object.id)
        .map((c) => c.status)
        .join(','),
      '503,503,200,401,200',
    );

    // Never saved by its owner: Google has no such object; the save link carries the card as it is then.
    const unsavedOwner = await registered('unsaved');
    const unsaved = await link(unsavedOwner);
    await save(unsavedOwner, { title: 'Agent' });
    await waitFor('one write tried', () => Promise.resolve(puts(unsaved.object.id).length === 1));
    await new Promise((resolve) => setTimeout(resolve, 800));
    assert.equal(
      puts(unsaved.object.id)
        .map((c) => c.status)
        .join(','),
      '404',
    );
    assert.equal((await link(unsavedOwner)).object['subheader'].defaultValue.value, 'Agent');
  });
});

describe('the service account’s token', () => {
  it('is refused by Google when signed with another key or for another account, and nothing is written', async () => {
    const wallet = googleWalletOf(service.running.ctx.config)!;
    const stranger = makeGoogleTestCredentials();
    const refusedBefore = google.refused.length;
    const otherKey = new GoogleWalletClient({ ...wallet, key: createPrivateKey(stranger.privateKeyPem) });
    await expect(otherKey.accessToken()).rejects.toThrow(/400/);
    const otherAccount = new GoogleWalletClient({ ...wallet, serviceAccountEmail: 'someone@else.iam.gserviceaccount.com' });
    await expect(otherAccount.putObject({ id: `${wallet.issuerId}.${'A'.repeat(24)}` })).rejects.toThrow(/400/);
    assert.equal(google.refused.slice(refusedBefore).join(','), 'assertion: bad signature,iss');
    assert.equal(google.objectCalls(`${wallet.issuerId}.${'A'.repeat(24)}`).length, 0);
  });
});

describe('objects whose account is gone', () => {
  it('a deleted account’s object is expired at Google, keeps nothing of its owner, and no link is made for it', async () => {
    const accountId = await registered('thandi');
    const { object } = await link(accountId);
    google.saved(object);
    await service.handled(
      Events.userDeleted,
      await service.publish(Events.userDeleted, { accountId, deletedAt: new Date().toISOString() }),
    );
    const [row] = await service.sql<{ account_id: string | null; voided_at: Date | null }>(
      'SELECT account_id, voided_at FROM profiles.google_wallet_objects WHERE object_suffix = $1',
      [object.id.split('.')[1]],
    );
    assert.equal(row!.account_id, null);
    assert.ok(row!.voided_at);
    await waitFor('the expiry written', () => Promise.resolve(google.objects.get(object.id)?.['state'] === 'EXPIRED'));
    const expired = JSON.stringify(google.objects.get(object.id));
    assert.ok(!/thandi/i.test(expired), expired);
    assert.ok(!expired.includes('barcode'));
    expect(await service.call(Rpc.issueGoogleWalletLink, {}, { accountId })).toMatchObject({ ok: false, status: 404 });

    // Kept GOOGLE_WALLET_VOIDED_OBJECT_KEEP_HOURS (24 here), for the expiry's retries, then deleted.
    const rowOf = () => service.sql('SELECT 1 FROM profiles.google_wallet_objects WHERE object_suffix = $1', [object.id.split('.')[1]]);
    await service.get(WalletPassSweeper).sweep(new Date(Date.now() + 23 * 3_600_000));
    assert.equal((await rowOf()).length, 1, 'kept for 23 hours');
    const swept = await service.get(WalletPassSweeper).sweep(new Date(Date.now() + 25 * 3_600_000));
    assert.ok(swept.deleted >= 1);
    assert.equal((await rowOf()).length, 0, 'gone after 25 hours');
  });

  it('a removed rep’s object is expired; another rep’s is left alone', async () => {
    const leader = await registered('lindiwe', 'teamLeader');
    const [rep, stays] = [await registered('sipho', 'teamMember'), await registered('themba', 'teamMember')];
    for (const member of [rep, stays])
      await service.handled(
        Events.teamMemberAdded,
        await service.publish(Events.teamMemberAdded, {
          leaderAccountId: leader,
          memberAccountId: member,
          username: member === rep ? 'sipho' : 'themba',
          tel: '0821234567',
          addedAt: new Date().toISOString(),
        }),
      );
    const removed = (await link(rep)).object;
    const kept = (await link(stays)).object;
    google.saved(removed);
    google.saved(kept);
    await service.handled(
      Events.teamMemberRemoved,
      await service.publish(Events.teamMemberRemoved, {
        leaderAccountId: leader,
        memberAccountId: rep,
        username: 'sipho',
        removedAt: new Date().toISOString(),
      }),
    );
    await waitFor('the rep’s object expired', () => Promise.resolve(google.objects.get(removed.id)?.['state'] === 'EXPIRED'));
    assert.equal(puts(kept.id).length, 0, 'the other rep’s object is not touched');
    assert.equal(google.objects.get(kept.id)?.['state'], 'ACTIVE');
  });
});

describe('a leader gives every rep their pass', () => {
  it('records one offer per rep of the leader’s own team (never another team’s), with the wallets offered', async () => {
    const leader = await registered('ayanda', 'teamLeader');
    const otherLeader = await registered('johan', 'teamLeader');
    const reps = [await registered('nomsa', 'teamMember'), await registered('kagiso', 'teamMember')];
    const otherRep = await registered('pieterrep', 'teamMember');
    for (const [leaderId, member, username] of [
      [leader, reps[0]!, 'nomsa'],
      [leader, reps[1]!, 'kagiso'],
      [otherLeader, otherRep, 'pieterrep'],
    ] as const)
      await service.handled(
        Events.teamMemberAdded,
        await service.publish(Events.teamMemberAdded, {
          leaderAccountId: leaderId,
          memberAccountId: member,
          username,
          tel: '0821234567',
          addedAt: new Date().toISOString(),
        }),
      );
    const before = new Date();
    expect(ok(await service.call(Rpc.offerRepPasses, {}, { accountId: leader, role: 'teamLeader' }))).toEqual({ sent: 2 });
    const offers = await service.sql<{ payload: { data: Record<string, any> } | Record<string, any> }>(
      `SELECT payload FROM profiles.outbox WHERE subject = 'profiles.wallet-pass.offered' AND created_at >= $1`,
      [before],
    );
    const data = offers.map((o) => ((o.payload as { data?: Record<string, any> }).data ?? o.payload) as Record<string, any>);
    assert.equal(
      data
        .map((d) => d['email'])
        .sort()
        .join(','),
      'kagiso@example.test,nomsa@example.test',
    );
    assert.ok(data.every((d) => d['leaderName'] === 'Ayanda Tester'));
    assert.ok(data.every((d) => d['wallets'].apple === false && d['wallets'].google === true));
  });

  it('is refused to a rep, a plain owner and a visitor', async () => {
    const rep = await registered('busi', 'teamMember');
    expect(await service.call(Rpc.offerRepPasses, {}, { accountId: rep, role: 'teamMember' })).toMatchObject({ ok: false, status: 403 });
    expect(await service.call(Rpc.offerRepPasses, {}, { accountId: rep, role: 'user' })).toMatchObject({ ok: false, status: 403 });
    expect(await service.call(Rpc.offerRepPasses, {}, null)).toMatchObject({ ok: false, status: 401 });
  });
});

describe('the owner’s data export', () => {
  it('lists their own Google Wallet object, not another account’s', async () => {
    const accountId = await registered('mpho');
    const mine = (await link(accountId)).object;
    const theirs = (await link(await registered('karabo'))).object;
    const exported = ok(await service.exportOf(Rpc.exportData, { accountId }));
    expect(exported['googleWalletObjects']).toEqual([{ objectSuffix: mine.id.split('.')[1], createdAt: expect.any(String) }]);
    assert.ok(!JSON.stringify(exported).includes(theirs.id.split('.')[1]!));
  });
});
