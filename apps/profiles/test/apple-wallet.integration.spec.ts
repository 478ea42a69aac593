import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { Events, ProfileDefaults, Rpc, type ProfileDocument } from '@digicard/contracts';
import { InProcessService, type Answer } from '@digicard/service-testing';
import { ApnsStandIn, DEFAULTS, makeAppleTestCredentials, unzipPass, waitFor, type AppleTestCredentials } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { profilesService } from '../src/service.js';
import { WalletPassSweeper } from '../src/wallet/workers/wallet-pass-sweeper.js';

// Apple Wallet in the profiles service, in this process: the owner's pass, Apple's pass web service (the subjects the
// gateway maps it to), the push when a Save changes what the pass shows (the `apple-pass-push` queue on real Redis, to
// a local APNs over HTTP/2 with TLS that checks the ES256 token), and the passes of a deleted account voided.

let credentials: AppleTestCredentials;
let apns: ApnsStandIn;
let service: InProcessService<Config>;
const queuePrefix = `w-${randomBytes(4).toString('hex')}`;
const PASS_TYPE = 'pass.test.digicard.card';

async function registered(username: string): Promise<string> {
  const accountId = randomUUID();
  await service.handled(
    Events.userRegistered,
    await service.publish(Events.userRegistered, {
      accountId,
      username,
      email: `${username}@example.test`,
      firstName: username[0]!.toUpperCase() + username.slice(1),
      lastName: 'Tester',
      role: 'user',
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

/** The owner's pass: its pass.json, its serial and token. */
async function issue(accountId: string) {
  const file = ok(await service.call(Rpc.issueApplePass, {}, { accountId }));
  const pass = JSON.parse(unzipPass(Buffer.from(file.dataBase64, 'base64')).get('pass.json')!.toString('utf8')) as Record<string, any>;
  return { file, pass, serialNumber: pass['serialNumber'] as string, token: pass['authenticationToken'] as string };
}

const save = async (accountId: string, change: Partial<ProfileDocument>) =>
  ok(await service.call(Rpc.saveProfile, { document: { ...ProfileDefaults, ...change } }, { accountId }));

const pushToken = () => randomBytes(32).toString('hex');
const pushesTo = (token: string) => apns.received.filter((r) => r.deviceToken === token);

beforeAll(async () => {
  credentials = makeAppleTestCredentials(PASS_TYPE);
  apns = await new ApnsStandIn(credentials).start();
  service = await InProcessService.start(profilesService, {
    PUBLIC_URL: 'https://cards.example.co.za',
    REDIS_URL: DEFAULTS.redisUrl,
    QUEUE_PREFIX: queuePrefix,
    QUEUE_ADD_TIMEOUT_MS: '2000',
    APPLE_PASS_PUSH_BACKOFF_MS: '100',
    ...credentials.env(apns.url),
  });
});

afterAll(async () => {
  await service?.stop();
  await apns?.stop();
  credentials?.remove();
  const redis = new Redis(DEFAULTS.redisUrl);
  const keys = await redis.keys(`${queuePrefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('the owner’s pass', () => {
  it('is made once per account, with a random serial and token, and says the feature is on', async () => {
    const accountId = await registered('naledi');
    expect(ok(await service.call(Rpc.getWalletStatus, {}, { accountId }))).toEqual({
      apple: { available: true },
      google: { available: false },
    });
    const first = await issue(accountId);
    const again = await issue(accountId);
    assert.equal(again.serialNumber, first.serialNumber, 'the same pass every time: Wallet replaces it');
    assert.equal(again.token, first.token);
    assert.match(first.serialNumber, /^[A-Za-z0-9_-]{24}$/);
    assert.match(first.token, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!first.serialNumber.includes(accountId.slice(0, 8)) && !/naledi/i.test(first.serialNumber));
    assert.equal(first.pass['barcodes'][0].message, 'https://cards.example.co.za/naledi?src=wallet');
    assert.equal(first.file.fileName, 'Naledi-Tester.pkpass');
    const other = await issue(await registered('pieter'));
    assert.notEqual(other.serialNumber, first.serialNumber);
    const health = await service.running.ctx.health.report();
    assert.deepEqual(health.features?.['appleWallet'], { status: 'on' });
    assert.equal(health.features?.['googleWallet']?.status, 'off');
  });

  it('is refused to a visitor (no account) and to an account without a profile', async () => {
    expect(await service.call(Rpc.issueApplePass, {}, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.issueApplePass, {}, { accountId: randomUUID() })).toMatchObject({ ok: false, status: 404 });
  });
});

describe('Apple’s web service', () => {
  it('serves the latest pass to its own token only; another account’s serial or token is 401, another pass type 404', async () => {
    const mine = await issue(await registered('lerato'));
    const theirs = await issue(await registered('johan'));
    const ref = { passTypeIdentifier: PASS_TYPE, serialNumber: mine.serialNumber };
    const latest = ok(await service.call(Rpc.latestApplePass, { ...ref, authenticationToken: mine.token, ifModifiedSince: null }));
    assert.equal(latest.modified, true);
    expect(await service.call(Rpc.latestApplePass, { ...ref, authenticationToken: theirs.token, ifModifiedSince: null })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(
      await service.call(Rpc.latestApplePass, {
        passTypeIdentifier: PASS_TYPE,
        serialNumber: theirs.serialNumber,
        authenticationToken: mine.token,
        ifModifiedSince: null,
      }),
    ).toMatchObject({ ok: false, status: 401 });
    expect(
      await service.call(Rpc.latestApplePass, {
        passTypeIdentifier: PASS_TYPE,
        serialNumber: 'A'.repeat(24),
        authenticationToken: mine.token,
        ifModifiedSince: null,
      }),
    ).toMatchObject({ ok: false, status: 401 });
    expect(
      await service.call(Rpc.latestApplePass, {
        ...ref,
        passTypeIdentifier: 'pass.test.someone.else',
        authenticationToken: mine.token,
        ifModifiedSince: null,
      }),
    ).toMatchObject({ ok: false, status: 404 });
    // Not modified since the time it says it was last modified.
    const notModified = ok(
      await service.call(Rpc.latestApplePass, {
        ...ref,
        authenticationToken: mine.token,
        ifModifiedSince: latest.modified ? latest.lastModified : null,
      }),
    );
    assert.deepEqual(notModified, { modified: false });
    expect(
      await service.call(Rpc.registerApplePassDevice, {
        ...ref,
        authenticationToken: theirs.token,
        deviceLibraryIdentifier: 'device-x',
        pushToken: pushToken(),
      }),
    ).toMatchObject({ ok: false, status: 401 });
  });

  it('registers a device once, lists its changed passes by tag, and forgets it when it unregisters', async () => {
    const pass = await issue(await registered('ayanda'));
    const device = `device-${randomBytes(8).toString('hex')}`;
    const ref = {
      passTypeIdentifier: PASS_TYPE,
      serialNumber: pass.serialNumber,
      authenticationToken: pass.token,
      deviceLibraryIdentifier: device,
    };
    const token = pushToken();
    expect(ok(await service.call(Rpc.registerApplePassDevice, { ...ref, pushToken: token }))).toEqual({ created: true });
    expect(ok(await service.call(Rpc.registerApplePassDevice, { ...ref, pushToken: token }))).toEqual({ created: false });
    const all = ok(
      await service.call(Rpc.listApplePassSerials, {
        deviceLibraryIdentifier: device,
        passTypeIdentifier: PASS_TYPE,
        passesUpdatedSince: null,
      }),
    );
    assert.deepEqual(all?.serialNumbers, [pass.serialNumber]);
    const since = ok(
      await service.call(Rpc.listApplePassSerials, {
        deviceLibraryIdentifier: device,
        passTypeIdentifier: PASS_TYPE,
        passesUpdatedSince: all!.lastUpdated,
      }),
    );
    assert.equal(since, null, 'nothing changed since that tag');
    const unknown = ok(
      await service.call(Rpc.listApplePassSerials, {
        deviceLibraryIdentifier: 'nobody',
        passTypeIdentifier: PASS_TYPE,
        passesUpdatedSince: null,
      }),
    );
    assert.equal(unknown, null);
    expect(ok(await service.call(Rpc.unregisterApplePassDevice, ref))).toEqual({ removed: true });
    assert.equal(
      ok(
        await service.call(Rpc.listApplePassSerials, {
          deviceLibraryIdentifier: device,
          passTypeIdentifier: PASS_TYPE,
          passesUpdatedSince: null,
        }),
      ),
      null,
    );
  });
});

describe('updates pushed', () => {
  it('pushes each registered device (HTTP/2, ES256 token) when a Save changes what the pass shows, and only then', async () => {
    const accountId = await registered('bongani');
    const pass = await issue(accountId);
    const tokens = [pushToken(), pushToken()];
    const devices = ['phone-1', 'watch-1'].map((d) => `${d}-${randomBytes(4).toString('hex')}`);
    for (const [i, device] of devices.entries())
      ok(
        await service.call(Rpc.registerApplePassDevice, {
          passTypeIdentifier: PASS_TYPE,
          serialNumber: pass.serialNumber,
          authenticationToken: pass.token,
          deviceLibraryIdentifier: device,
          pushToken: tokens[i]!,
        }),
      );
    const before = ok(
      await service.call(Rpc.listApplePassSerials, {
        deviceLibraryIdentifier: devices[0]!,
        passTypeIdentifier: PASS_TYPE,
        passesUpdatedSince: null,
      }),
    )!.lastUpdated;

    await save(accountId, { title: 'Sales Director', businessName: 'Ubuntu Motors' });
    await waitFor('a push to each device', () => Promise.resolve(tokens.every((t) => pushesTo(t).length === 1)));
    for (const token of tokens) {
      const push = pushesTo(token)[0]!;
      assert.equal(push.headers['apns-topic'], PASS_TYPE);
      assert.equal(push.body, '{}');
      assert.ok(push.jwt?.valid, 'signed ES256 with the APNs key');
      assert.deepEqual(push.jwt?.header, { alg: 'ES256', kid: credentials.apnsKeyId });
      assert.equal(push.jwt?.claims['iss'], credentials.teamIdentifier);
    }
    const changed = ok(
      await service.call(Rpc.listApplePassSerials, {
        deviceLibraryIdentifier: devices[0]!,
        passTypeIdentifier: PASS_TYPE,
        passesUpdatedSince: before,
      }),
    );
    assert.deepEqual(changed?.serialNumbers, [pass.serialNumber]);
    assert.ok(Number(changed!.lastUpdated) > Number(before));
    const latest = ok(
      await service.call(Rpc.latestApplePass, {
        passTypeIdentifier: PASS_TYPE,
        serialNumber: pass.serialNumber,
        authenticationToken: pass.token,
        ifModifiedSince: new Date(Number(before) * 1000).toISOString(),
      }),
    );
    assert.equal(latest.modified, true);
    if (!latest.modified) return;
    const json = JSON.parse(unzipPass(Buffer.from(latest.dataBase64, 'base64')).get('pass.json')!.toString('utf8')) as Record<string, any>;
    assert.deepEqual(
      json['generic'].secondaryFields.map((f: { value: string }) => f.value),
      ['Sales Director', 'Ubuntu Motors'],
    );

    // A Save of what the pass does not show (the bio) pushes nothing.
    await save(accountId, { title: 'Sales Director', businessName: 'Ubuntu Motors', profileBio: 'Cars since 1998.' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const token of tokens) assert.equal(pushesTo(token).length, 1, 'no push for a change the pass does not show');
    assert.equal(
      ok(
        await service.call(Rpc.listApplePassSerials, {
          deviceLibraryIdentifier: devices[0]!,
          passTypeIdentifier: PASS_TYPE,
          passesUpdatedSince: changed!.lastUpdated,
        }),
      ),
      null,
    );
  });

  it('retries a push APNs could not take, and forgets a device APNs says is gone', async () => {
    const accountId = await registered('zanele');
    const pass = await issue(accountId);
    const flaky = pushToken();
    const gone = pushToken();
    let failures = 0;
    apns.respond = (request) => {
      if (request.deviceToken === flaky && failures < 2) {
        failures += 1;
        return { status: 503, reason: 'ServiceUnavailable' };
      }
      if (request.deviceToken === gone) return { status: 410, reason: 'Unregistered' };
      return { status: 200 };
    };
    try {
      for (const [device, token] of [
        ['flaky-device', flaky],
        ['gone-device', gone],
      ] as const)
        ok(
          await service.call(Rpc.registerApplePassDevice, {
            passTypeIdentifier: PASS_TYPE,
            serialNumber: pass.serialNumber,
            authenticationToken: pass.token,
            deviceLibraryIdentifier: `${device}-${randomBytes(4).toString('hex')}`,
            pushToken: token,
          }),
        );
      await save(accountId, { title: 'Owner' });
      await waitFor('the flaky device pushed on its third attempt', () => Promise.resolve(pushesTo(flaky).length === 3));
      await waitFor('the gone device forgotten', async () => {
        const rows = await service.sql('SELECT 1 FROM profiles.apple_pass_registrations WHERE push_token = $1', [gone]);
        return rows.length === 0;
      });
      assert.equal(pushesTo(gone).length, 1, 'a device that is gone is not pushed again');
      const kept = await service.sql('SELECT 1 FROM profiles.apple_pass_registrations WHERE push_token = $1', [flaky]);
      assert.equal(kept.length, 1);
    } finally {
      apns.respond = () => ({ status: 200 });
    }
  });
});

describe('a deleted account', () => {
  it('voids its pass (devices pushed, served void), takes no new device, and is gone with its registrations later', async () => {
    const accountId = await registered('thandi');
    const pass = await issue(accountId);
    const token = pushToken();
    const ref = { passTypeIdentifier: PASS_TYPE, serialNumber: pass.serialNumber, authenticationToken: pass.token };
    ok(await service.call(Rpc.registerApplePassDevice, { ...ref, deviceLibraryIdentifier: 'thandi-phone', pushToken: token }));

    await service.handled(
      Events.userDeleted,
      await service.publish(Events.userDeleted, { accountId, deletedAt: new Date().toISOString() }),
    );
    const [row] = await service.sql<{ account_id: string | null; voided_at: Date | null }>(
      'SELECT account_id, voided_at FROM profiles.apple_passes WHERE serial_number = $1',
      [pass.serialNumber],
    );
    assert.equal(row!.account_id, null, 'the pass no longer says whose it was');
    assert.ok(row!.voided_at);
    await waitFor('the device told', () => Promise.resolve(pushesTo(token).length === 1));
    const changed = ok(
      await service.call(Rpc.listApplePassSerials, {
        deviceLibraryIdentifier: 'thandi-phone',
        passTypeIdentifier: PASS_TYPE,
        passesUpdatedSince: null,
      }),
    );
    assert.deepEqual(changed?.serialNumbers, [pass.serialNumber]);
    const latest = ok(await service.call(Rpc.latestApplePass, { ...ref, ifModifiedSince: null }));
    assert.equal(latest.modified, true);
    if (latest.modified) {
      const text = unzipPass(Buffer.from(latest.dataBase64, 'base64')).get('pass.json')!.toString('utf8');
      assert.equal((JSON.parse(text) as { voided?: boolean }).voided, true);
      assert.ok(!/thandi/i.test(text));
    }
    expect(
      await service.call(Rpc.registerApplePassDevice, { ...ref, deviceLibraryIdentifier: 'new-phone', pushToken: pushToken() }),
    ).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.issueApplePass, {}, { accountId })).toMatchObject({ ok: false, status: 404 });

    // Kept APPLE_VOIDED_PASS_KEEP_HOURS (72) for the devices to learn it is void, then deleted with its registrations.
    assert.deepEqual(await service.get(WalletPassSweeper).sweep(new Date(Date.now() + 71 * 3_600_000)), { queued: 0, deleted: 0 });
    const swept = await service.get(WalletPassSweeper).sweep(new Date(Date.now() + 73 * 3_600_000));
    assert.ok(swept.deleted >= 1);
    assert.equal((await service.sql('SELECT 1 FROM profiles.apple_passes WHERE serial_number = $1', [pass.serialNumber])).length, 0);
    assert.equal(
      (await service.sql('SELECT 1 FROM profiles.apple_pass_registrations WHERE serial_number = $1', [pass.serialNumber])).length,
      0,
    );
    expect(await service.call(Rpc.latestApplePass, { ...ref, ifModifiedSince: null })).toMatchObject({ ok: false, status: 401 });
  });
});

describe('the owner’s data export', () => {
  it('lists their passes and how many devices hold each, never a token', async () => {
    const accountId = await registered('mpho');
    const pass = await issue(accountId);
    const pushTokenValue = pushToken();
    ok(
      await service.call(Rpc.registerApplePassDevice, {
        passTypeIdentifier: PASS_TYPE,
        serialNumber: pass.serialNumber,
        authenticationToken: pass.token,
        deviceLibraryIdentifier: 'mpho-phone',
        pushToken: pushTokenValue,
      }),
    );
    const exported = ok(await service.exportOf(Rpc.exportData, { accountId }));
    expect(exported['applePasses']).toEqual([{ serialNumber: pass.serialNumber, createdAt: expect.any(String), devices: 1 }]);
    const text = JSON.stringify(exported);
    assert.ok(!text.includes(pass.token) && !text.includes(pushTokenValue));
  });
});

describe('a rep removed from the team', () => {
  it('has their pass voided as with a deleted account', async () => {
    const leader = await registered('leader');
    const rep = await registered('rep');
    const pass = await issue(rep);
    await service.handled(
      Events.teamMemberRemoved,
      await service.publish(Events.teamMemberRemoved, {
        leaderAccountId: leader,
        memberAccountId: rep,
        username: 'rep',
        removedAt: new Date().toISOString(),
      }),
    );
    const [row] = await service.sql<{ account_id: string | null; voided_at: Date | null }>(
      'SELECT account_id, voided_at FROM profiles.apple_passes WHERE serial_number = $1',
      [pass.serialNumber],
    );
    assert.equal(row!.account_id, null);
    assert.ok(row!.voided_at);
  });
});
