import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import sharp from 'sharp';
import { ProfileDefaults } from '@digicard/contracts';
import { TestSystem, registerOwner, setMembership, waitFor, type TestOwner } from '@digicard/testing';

/** A real photo-like PNG carrying EXIF with a GPS position, as phones write them. */
async function photoWithGps(width = 900, height = 700): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'X1' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 57/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '22/1 27/1 0/1' },
    })
    .jpeg()
    .toBuffer();
}

async function upload(owner: TestOwner, purpose: string, data: Buffer, contentType = 'image/jpeg') {
  return owner.client.request(`/api/profile/images/${purpose}`, { method: 'POST', raw: data, headers: { 'content-type': contentType } });
}

describe('profiles: the owner’s editor API, uploads, gating, leads, vCard and QR', () => {
  let system: TestSystem;
  let thabo: TestOwner;
  let lerato: TestOwner;

  beforeAll(async () => {
    // The export asks every service for its part: orders, payments and teams too.
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'gateway'],
    });
    thabo = await registerOwner(system, { username: 'thabo', firstName: 'Thabo', lastName: 'Mokoena', email: 'thabo@example.co.za' });
    lerato = await registerOwner(system, { username: 'lerato', firstName: 'Lerato', lastName: 'Dlamini', email: 'lerato@example.co.za' });
  });
  afterAll(() => system?.stop());

  it('gives the signed-in owner their own profile with the defaults, and nobody else any', async () => {
    assert.equal((await system.client().request('/api/profile')).status, 401);
    const own = await thabo.client.request('/api/profile');
    assert.equal(own.status, 200);
    assert.equal(own.body.username, 'thabo');
    assert.equal(own.body.membership, 'DigiShare');
    assert.deepEqual(own.body.document, ProfileDefaults);
    assert.equal((await lerato.client.request('/api/profile')).body.username, 'lerato');
  });

  it('saves the whole document and refuses bad values field by field', async () => {
    const document = {
      ...ProfileDefaults,
      title: 'Sales Director',
      businessName: 'Mokoena, Sons & Co; Ltd',
      tel: '082 123 4567',
      profileBio: 'Twenty years of selling solar in the Karoo.',
      profileImageHeight: 200,
      websiteLinks: [
        { buttonName: 'Our website', url: 'https://mokoena.co.za' },
        { buttonName: '', url: 'https://hidden.co.za' },
      ],
    };
    const saved = await thabo.client.request('/api/profile', { method: 'PUT', body: { document } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.document.title, 'Sales Director');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ websiteLinks: [{ buttonName: 'Click', url: 'javascript:alert(1)' }] }, 'document.websiteLinks.0.url'],
      [{ websiteLinks: [{ buttonName: 'Data', url: 'data:text/html,<script>alert(1)</script>' }] }, 'document.websiteLinks.0.url'],
      [{ profileImageWidth: 33 }, 'document.profileImageWidth'],
      [{ profileImageHeight: 410 }, 'document.profileImageHeight'],
      [{ opacityValue: 1.5 }, 'document.opacityValue'],
      [{ buttonBorderWidth: 11 }, 'document.buttonBorderWidth'],
      // The spec (section 9): "logo width 0-100 percent step 10".
      [{ businessLogoWidth: 55 }, 'document.businessLogoWidth'],
      [{ businessLogoWidth: 110 }, 'document.businessLogoWidth'],
      [{ mainFontColor: 'red' }, 'document.mainFontColor'],
      [{ profileImage: 'https://elsewhere.example/x.png' }, 'document.profileImage'],
      [{ socialLinks: [{ platform: 'myspace', url: 'https://myspace.com/x' }] }, 'document.socialLinks.0.platform'],
    ];
    for (const [change, field] of cases) {
      const res = await thabo.client.request('/api/profile', { method: 'PUT', body: { document: { ...document, ...change } } });
      assert.equal(res.status, 400, JSON.stringify(change));
      assert.ok(res.body.fieldErrors[field], `${field} in ${JSON.stringify(res.body.fieldErrors)}`);
    }
    assert.equal((await system.client().request('/api/profile', { method: 'PUT', body: { document } })).status, 401);
  });

  it('enforces the tiers on the server: social links need DigiSilver, gallery, video and products DigiGold', async () => {
    const { body: current } = await thabo.client.request('/api/profile');
    const social = { ...current.document, socialLinks: [{ platform: 'linkedin', url: 'https://www.linkedin.com/in/thabo' }] };
    const refused = await thabo.client.request('/api/profile', { method: 'PUT', body: { document: social } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, 'Upgrade to DigiSilver to unlock Social Media Links!');
    await setMembership(system, 'thabo', 'DigiSilver');
    assert.equal((await thabo.client.request('/api/profile', { method: 'PUT', body: { document: social } })).status, 200);
    const video = await thabo.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...social, videoLink: 'https://youtu.be/dQw4w9WgXcQ' } },
    });
    assert.equal(video.status, 403);
    assert.match(video.body.message, /DigiGold/);
    const products = await thabo.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...social, products: [{ name: 'Solar kit', link: 'https://mokoena.co.za/kit', imageUrl: '' }] } },
    });
    assert.equal(products.status, 403);
    assert.equal((await upload(thabo, 'gallery', await photoWithGps())).status, 403, 'gallery uploads need DigiGold too');
    const paid = await thabo.client.request('/api/profile/settings', { method: 'PUT', body: { isPublic: true, membership: 'DigiGold' } });
    assert.equal(paid.status, 403, 'paid tiers are not self-granted');
    assert.match(paid.body.message, /PayFast/);
    await system.sql('UPDATE profiles.profiles SET is_partner = true WHERE username = $1', ['thabo']);
    const partner = await thabo.client.request('/api/profile/settings', {
      method: 'PUT',
      body: { isPublic: true, membership: 'DigiPlatinum' },
    });
    assert.equal(partner.status, 200, 'a partner changes tier without paying');
    assert.equal(partner.body.membership, 'DigiPlatinum');
    await system.sql('UPDATE profiles.profiles SET is_partner = false WHERE username = $1', ['thabo']);
    await setMembership(system, 'thabo', 'DigiGold');
    const gold = await thabo.client.request('/api/profile', {
      method: 'PUT',
      body: {
        document: {
          ...social,
          videoLink: 'https://youtu.be/dQw4w9WgXcQ',
          products: [{ name: 'Solar kit', link: 'https://mokoena.co.za/kit', imageUrl: '' }],
        },
      },
    });
    assert.equal(gold.status, 200, JSON.stringify(gold.body));
  });

  it('takes an image by its content, strips its metadata, shrinks it, and saves the profile image at once', async () => {
    const res = await upload(thabo, 'profileImage', await photoWithGps(2400, 1800));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.url, /^\/media\/[A-Za-z0-9_-]+\.webp$/);
    const image = await fetch(`${system.gatewayUrl}${res.body.url}`);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/webp');
    assert.equal(image.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const bytes = Buffer.from(await image.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    assert.equal(meta.format, 'webp');
    assert.ok(meta.width! <= 1000 && meta.height! <= 1000, `${meta.width}x${meta.height}`);
    assert.equal(meta.exif, undefined, 'no EXIF (and so no GPS) survives');
    assert.ok(!bytes.includes(Buffer.from('PhoneMaker')));
    assert.equal((await thabo.client.request('/api/profile')).body.document.profileImage, res.body.url);
  });

  it('refuses oversized, disguised and broken uploads with the spec’s messages (400)', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2 * 1024 * 1023 + 10, 7)]);
    const tooLarge = await upload(thabo, 'profileImage', big);
    assert.equal(tooLarge.status, 400);
    assert.equal(tooLarge.body.message, 'Image is too large! Please upload an image smaller than 2MB.');
    const disguised = await upload(thabo, 'profileImage', Buffer.from('<?php system($_GET["c"]); ?> pretending to be a PNG'), 'image/png');
    assert.equal(disguised.status, 400);
    assert.equal(disguised.body.message, 'Image upload failed. Please try again.');
    const svg = await upload(
      thabo,
      'businessLogo',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
      'image/svg+xml',
    );
    assert.equal(svg.status, 400);
    const broken = await upload(
      thabo,
      'businessLogo',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 1)]),
      'image/png',
    );
    assert.equal(broken.status, 400);
    assert.equal((await upload(thabo, 'wallpaper', await photoWithGps())).status, 404);
    assert.equal((await system.client().request('/api/profile/images/profileImage', { body: 'x' })).status, 401);
  });

  it('keeps each owner to their own images and leads', async () => {
    const { body: thabos } = await thabo.client.request('/api/profile');
    const { body: leratos } = await lerato.client.request('/api/profile');
    const stolen = await lerato.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...leratos.document, profileImage: thabos.document.profileImage } },
    });
    assert.equal(stolen.status, 400);
    assert.match(stolen.body.message, /not one of your uploads/);
  });

  it('takes visitors’ forms: stored, emailed to the owner, listed and exported; the lead form needs DigiGold', async () => {
    const visitor = system.client();
    const exchange = await visitor.request('/api/profiles/lerato/leads', {
      body: { kind: 'exchange', firstName: 'Sipho', lastName: 'Nkosi', email: 'sipho@example.co.za', phone: '0821234567', consent: true },
    });
    assert.equal(exchange.status, 202, JSON.stringify(exchange.body));
    assert.equal(exchange.body.message, 'Thank you! I will get in touch with you soon.');
    const lead = await visitor.request('/api/profiles/lerato/leads', {
      body: { kind: 'lead', firstName: 'Sipho', email: 'sipho@example.co.za', message: 'Hi', consent: true },
    });
    assert.equal(lead.status, 403, 'Lerato is on DigiShare');
    const noConsent = await visitor.request('/api/profiles/thabo/leads', {
      body: { kind: 'lead', firstName: 'A', email: 'a@example.co.za', consent: false },
    });
    assert.equal(noConsent.status, 400);
    assert.ok(noConsent.body.fieldErrors.consent);
    const robot = await visitor.request('/api/profiles/thabo/leads', {
      body: { kind: 'lead', firstName: 'Bot', email: 'bot@example.co.za', consent: true, website: 'http://spam.example' },
    });
    assert.equal(robot.status, 202, 'a robot is not told it was caught');
    const real = await visitor.request('/api/profiles/thabo/leads', {
      body: {
        kind: 'lead',
        firstName: 'Naledi',
        lastName: '=HYPERLINK("http://evil")',
        email: 'naledi@example.co.za',
        phone: '0731234567',
        message: 'Please call me, about 20 panels',
        consent: true,
      },
    });
    assert.equal(real.status, 202);
    assert.equal(
      (
        await visitor.request('/api/profiles/nobody/leads', {
          body: { kind: 'exchange', firstName: 'A', email: 'a@example.co.za', consent: true },
        })
      ).status,
      404,
    );

    const mail = await system.mail.waitFor((m) => m.to.includes('thabo@example.co.za') && /sent you a message/.test(m.subject));
    assert.equal(mail.replyTo, 'naledi@example.co.za');
    assert.match(mail.text, /Please call me, about 20 panels/);
    await system.mail.waitFor((m) => m.to.includes('lerato@example.co.za') && /shared their contact details/.test(m.subject));

    const list = await thabo.client.request('/api/profile/leads');
    assert.deepEqual(
      list.body.leads.map((l: any) => l.firstName),
      ['Naledi'],
      'only real leads, only the owner’s',
    );
    assert.deepEqual(
      (await lerato.client.request('/api/profile/leads')).body.leads.map((l: any) => l.firstName),
      ['Sipho'],
    );
    assert.equal((await system.client().request('/api/profile/leads')).status, 401);
    const csv = await fetch(`${system.gatewayUrl}/api/profile/leads.csv`, { headers: { cookie: thabo.client.cookie! } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-disposition') ?? '', /attachment; filename="leads.csv"/);
    const bytes = Buffer.from(await csv.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a BOM, so spreadsheets read UTF-8');
    const text = bytes.subarray(3).toString('utf8');
    assert.match(text, /^Received,Form,First name,Last name,Email,Phone,Message\r\n/);
    assert.match(
      text,
      /lead,Naledi,"'=HYPERLINK\(""http:\/\/evil""\)",naledi@example\.co\.za,'\+27731234567,"Please call me, about 20 panels"/,
    );
  });

  it('hands out a correct vCard 3.0, with the photo embedded and text escaped', async () => {
    const res = await fetch(`${system.gatewayUrl}/api/profiles/thabo/vcard`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/vcard; charset=utf-8');
    assert.match(res.headers.get('content-disposition') ?? '', /filename="Thabo Mokoena\.vcf"/);
    const card = await res.text();
    const unfolded = card.replace(/\r\n /g, '');
    assert.ok(card.startsWith('BEGIN:VCARD\r\nVERSION:3.0\r\n'));
    assert.ok(card.endsWith('END:VCARD\r\n'));
    assert.ok(
      card.split('\r\n').every((line) => Buffer.byteLength(line) <= 75),
      'lines folded at 75 octets',
    );
    for (const line of [
      'N:Mokoena;Thabo;;;',
      'FN:Thabo Mokoena',
      'ORG:Mokoena\\, Sons & Co\\; Ltd',
      'TITLE:Sales Director',
      'TEL;TYPE=WORK,VOICE:+27821234567',
      'EMAIL;TYPE=INTERNET,WORK:thabo@example.co.za',
      `URL:${system.gatewayUrl}/thabo`,
    ]) {
      assert.ok(unfolded.includes(`${line}\r\n`), line);
    }
    const photo = /PHOTO;ENCODING=b;TYPE=JPEG:([A-Za-z0-9+/=]+)\r\n/.exec(unfolded)?.[1];
    assert.ok(photo);
    assert.equal((await sharp(Buffer.from(photo, 'base64')).metadata()).format, 'jpeg');
    assert.match(unfolded, /REV:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\r\n/);
  });

  it('draws a QR code that decodes to the public URL (PNG 300x300 named QR_Code.png, and SVG)', async () => {
    const res = await fetch(`${system.gatewayUrl}/api/profiles/thabo/qr.png`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition') ?? '', /filename="QR_Code.png"/);
    const png = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(png).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 300, 300]);
    const file = join(mkdtempSync(join(tmpdir(), 'qr-')), 'QR_Code.png');
    writeFileSync(file, png);
    assert.equal(execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim(), `${system.gatewayUrl}/thabo?src=qr`);
    const svg = await fetch(`${system.gatewayUrl}/api/profiles/thabo/qr.svg`);
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
    assert.match(await svg.text(), /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it('shows nothing of an unverified or private profile to others', async () => {
    await registerOwner(
      system,
      { username: 'zanele', firstName: 'Zanele', lastName: 'Zulu', email: 'zanele@example.co.za' },
      { verify: false },
    );
    assert.equal((await fetch(`${system.gatewayUrl}/api/profiles/zanele/vcard`)).status, 404);
    assert.equal((await fetch(`${system.gatewayUrl}/api/profiles/nobody-here/qr.png`)).status, 404);
    await lerato.client.request('/api/profile/settings', { method: 'PUT', body: { isPublic: false, membership: 'DigiShare' } });
    assert.equal((await fetch(`${system.gatewayUrl}/api/profiles/lerato/vcard`)).status, 404);
    assert.equal((await lerato.client.request('/api/profiles/lerato/vcard')).status, 200, 'the owner still sees their own');
    await lerato.client.request('/api/profile/settings', { method: 'PUT', body: { isPublic: true, membership: 'DigiShare' } });
    assert.equal((await fetch(`${system.gatewayUrl}/api/profiles/lerato/vcard`)).status, 200);
  });

  it('exports everything held about the owner as JSON', async () => {
    const res = await fetch(`${system.gatewayUrl}/api/profile/export`, { headers: { cookie: thabo.client.cookie! } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition') ?? '', /attachment/);
    const data = (await res.json()) as any;
    assert.equal(data.account.email, 'thabo@example.co.za');
    assert.equal(data.profile.document.title, 'Sales Director');
    assert.equal(data.leads.length, 1);
    assert.ok(data.images.length >= 1);
    await waitFor('no secrets in the export', () => Promise.resolve(!JSON.stringify(data).includes('argon2')));
  });

  it('deletes an account once its password is confirmed, and forgets its profile, images and leads', async () => {
    assert.equal((await system.client().request('/api/accounts/me', { method: 'DELETE', body: { password: 'x' } })).status, 401);
    const empty = await lerato.client.request('/api/accounts/me', { method: 'DELETE', body: {} });
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body.fieldErrors.password, ['Please enter your password to confirm.']);
    const wrong = await lerato.client.request('/api/accounts/me', { method: 'DELETE', body: { password: 'not my password' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.message, 'Incorrect password. Please try again.');
    const other = system.client();
    await other.request('/api/session', { body: { email: 'lerato@example.co.za', password: lerato.password } });
    const gone = await lerato.client.request('/api/accounts/me', { method: 'DELETE', body: { password: lerato.password } });
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal(gone.body.message, 'Your account and everything we held about it are deleted.');
    assert.equal((await other.request('/api/session')).body.user, null, 'every session ended');
    // Its own password no longer signs in: the account is gone.
    assert.equal(
      (await system.client().request('/api/session', { body: { email: 'lerato@example.co.za', password: lerato.password } })).body.code,
      'AUTH_INVALID_CREDENTIALS',
    );
    await waitFor('the profile to be forgotten', async () => {
      const rows = await system.sql<{ n: number }>(
        `SELECT (SELECT count(*) FROM profiles.profiles WHERE account_id = $1) + (SELECT count(*) FROM profiles.leads WHERE account_id = $1)
          + (SELECT count(*) FROM profiles.media WHERE account_id = $1) AS n`,
        [lerato.accountId],
      );
      return Number(rows[0]!.n) === 0;
    });
    assert.equal((await fetch(`${system.gatewayUrl}/api/profiles/lerato/vcard`)).status, 404);
    assert.equal((await thabo.client.request('/api/profile')).status, 200, 'nobody else is touched');
  });
});
