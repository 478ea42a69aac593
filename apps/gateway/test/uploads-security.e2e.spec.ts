import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import sharp from 'sharp';
import { TestSystem, registerOwner, setMembership, type TestOwner, withinOneWindow } from '@digicard/testing';

/** A photo-like JPEG of noise: it does not compress, so its WebP stays large. */
async function noisyPhoto(width: number, height: number, seed = 1): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = x >> 16;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
}

const plainPhoto = (r = 10) =>
  sharp({ create: { width: 300, height: 300, channels: 3, background: { r, g: 90, b: 160 } } })
    .png()
    .toBuffer();

async function upload(owner: TestOwner, purpose: string, data: Buffer) {
  return owner.client.request(`/api/profile/images/${purpose}`, { method: 'POST', raw: data, headers: { 'content-type': 'image/png' } });
}

/**
 * Sends an upload's headers declaring `length` bytes and none of the body, and waits for the answer: a gateway that
 * decides before reading the body answers at once; one that buffers first waits for bytes that never come.
 */
function headersOnly(
  url: string,
  headers: Record<string, string>,
  length: number,
  waitMs = 3000,
): Promise<{ status: number; body: string } | 'no answer'> {
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'image/png', 'content-length': String(length), ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, waitMs);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', () => undefined);
    req.flushHeaders();
  });
}

describe('uploads and media: checked before the body, limited, kept to what profiles show, private media not served', () => {
  let system: TestSystem;
  let thabo: TestOwner;
  let lerato: TestOwner;
  let sipho: TestOwner;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'],
      env: { gateway: { RATE_LIMIT_UPLOAD_ACCOUNT: '6/600' }, profiles: { MEDIA_QUOTA_BYTES: '1500000' } },
    });
    thabo = await registerOwner(system, { username: 'thabo', firstName: 'Thabo', lastName: 'Mokoena', email: 'thabo@example.co.za' });
    lerato = await registerOwner(system, { username: 'lerato', firstName: 'Lerato', lastName: 'Dlamini', email: 'lerato@example.co.za' });
    sipho = await registerOwner(system, { username: 'sipho', firstName: 'Sipho', lastName: 'Nkosi', email: 'sipho@example.co.za' });
  });
  afterAll(() => system?.stop());

  it('answers a signed-out upload, and one with a wrong CSRF token, before a byte of its body arrives', async () => {
    const url = `${system.gatewayUrl}/api/profile/images/profileImage`;
    const signedOut = await headersOnly(url, {}, 1_500_000);
    assert.notEqual(signedOut, 'no answer', 'the gateway waited for the body of a signed-out upload');
    assert.equal(signedOut !== 'no answer' && signedOut.status, 401);
    const forged = await headersOnly(url, { cookie: thabo.client.cookie ?? '', 'x-csrf-token': 'not-the-token' }, 1_500_000);
    assert.notEqual(forged, 'no answer');
    assert.equal(forged !== 'no answer' && forged.status, 403);
    const tooLong = await headersOnly(url, { cookie: thabo.client.cookie ?? '', 'x-csrf-token': thabo.client.csrfToken ?? '' }, 3_000_000);
    assert.notEqual(tooLong, 'no answer', 'a declared length over 2 MB is refused before the body');
    assert.equal(tooLong !== 'no answer' && tooLong.status, 400);
    assert.match(tooLong !== 'no answer' ? tooLong.body : '', /smaller than 2MB/);
  });

  it('deletes the image a new profile image replaces, and gallery images a save drops', async () => {
    await setMembership(system, 'lerato', 'DigiGold');
    const first = await upload(lerato, 'profileImage', await plainPhoto(10));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal((await system.client().request(first.body.url)).status, 200);
    const second = await upload(lerato, 'profileImage', await plainPhoto(200));
    assert.equal(second.status, 201);
    assert.equal((await system.client().request(first.body.url)).status, 404, 'the replaced image is gone');
    assert.equal((await system.client().request(second.body.url)).status, 200);

    const gallery = await upload(lerato, 'gallery', await plainPhoto(90));
    assert.equal(gallery.status, 201);
    const { body: own } = await lerato.client.request('/api/profile');
    const withImage = { ...own.document, gallery: [{ imageUrl: gallery.body.url }] };
    assert.equal((await lerato.client.request('/api/profile', { method: 'PUT', body: { document: withImage } })).status, 200);
    assert.equal((await system.client().request(gallery.body.url)).status, 200);
    assert.equal(
      (await lerato.client.request('/api/profile', { method: 'PUT', body: { document: { ...withImage, gallery: [] } } })).status,
      200,
    );
    assert.equal((await system.client().request(gallery.body.url)).status, 404, 'the image the save dropped is gone');
    const rows = await system.sql<{ n: string }>('SELECT count(*) AS n FROM profiles.media WHERE account_id = $1', [lerato.accountId]);
    assert.equal(Number(rows[0]?.n), 1, 'only the image the profile shows is kept');
  });

  it('serves a private profile’s images to its owner only, never cached; a public one’s for a year', async () => {
    const image = await upload(sipho, 'profileImage', await plainPhoto(40));
    assert.equal(image.status, 201);
    const open = await system.client().request(image.body.url);
    assert.equal(open.status, 200);
    assert.match(open.headers.get('cache-control') ?? '', /max-age=31536000/);
    assert.equal(
      (await sipho.client.request('/api/profile/settings', { method: 'PUT', body: { isPublic: false, membership: 'DigiShare' } })).status,
      200,
    );
    const visitor = await system.client().request(image.body.url);
    assert.equal(visitor.status, 404);
    assert.doesNotMatch(visitor.headers.get('cache-control') ?? '', /max-age=31536000/);
    assert.equal((await lerato.client.request(image.body.url)).status, 404, 'another owner does not see it either');
    const owner = await sipho.client.request(image.body.url);
    assert.equal(owner.status, 200);
    assert.equal(owner.headers.get('cache-control'), 'private, no-store');
  });

  it('forgets a deleted account’s images', async () => {
    const doomed = await registerOwner(system, {
      username: 'doomed',
      firstName: 'Doomed',
      lastName: 'Owner',
      email: 'doomed@example.co.za',
    });
    const image = await upload(doomed, 'profileImage', await plainPhoto(70));
    assert.equal(image.status, 201);
    assert.equal((await doomed.client.request('/api/accounts/me', { method: 'DELETE', body: { password: doomed.password } })).status, 200);
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await system.client().request(image.body.url)).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 404);
    assert.equal((await system.sql('SELECT 1 FROM profiles.media WHERE account_id = $1', [doomed.accountId])).length, 0);
  });

  it('refuses uploads past the storage quota with 413 and past the upload limit with 429, each with a clear message', async () => {
    await withinOneWindow(600, 60);
    await setMembership(system, 'thabo', 'DigiGold');
    // Each noisy gallery image is about 0.5 MB once re-encoded: the third goes past the 1.5 MB quota.
    const statuses: number[] = [];
    let refused: { status: number; body: { code: string; message: string } } | null = null;
    for (let i = 0; i < 4; i++) {
      const res = await upload(thabo, 'gallery', await noisyPhoto(1000, 750, i + 1));
      statuses.push(res.status);
      if (res.status === 413) {
        refused = res;
        break;
      }
    }
    assert.ok(refused, `no 413 in ${statuses.join(',')}`);
    assert.equal(refused.body.code, 'QUOTA_EXCEEDED');
    assert.match(refused.body.message, /1 MB of storage|2 MB of storage/);
    const used = await system.sql<{ n: string }>('SELECT sum(octet_length(bytes)) AS n FROM profiles.media WHERE account_id = $1', [
      thabo.accountId,
    ]);
    assert.ok(Number(used[0]?.n) <= 1_500_000, `stored ${used[0]?.n} bytes`);

    // The limit is 6 uploads per 10 minutes per account; the attempts above counted too.
    let limited: { status: number; body: { code: string; message: string } } | null = null;
    for (let i = 0; i < 7 && !limited; i++) {
      const res = await upload(thabo, 'profileImage', await plainPhoto(i));
      if (res.status === 429) limited = res;
    }
    assert.ok(limited, 'no 429 after the limit');
    assert.equal(limited.body.code, 'TOO_MANY_REQUESTS');
    assert.match(limited.body.message, /Please try again in \d+ minute/);
    // Another account is not limited by thabo's uploads.
    assert.equal((await upload(sipho, 'profileImage', await plainPhoto(3))).status, 201);
  });
});
