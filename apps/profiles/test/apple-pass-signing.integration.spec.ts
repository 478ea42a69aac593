import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import sharp from 'sharp';
import { ProfileDefaults, type PublicProfile } from '@digicard/contracts';
import {
  makeAppleTestCredentials,
  renderApplePassPreview,
  sha1Hex,
  unzipPass,
  verifyPassSignature,
  type AppleTestCredentials,
} from '@digicard/testing';
import { ConfigSchema } from '../src/config.js';
import { appleWalletOf, type AppleWallet } from '../src/wallet/apple-config.js';
import { signedApplePass } from '../src/wallet/apple-pass-bundle.js';
import { applePassContentOf } from '../src/wallet/apple-pass-content.js';

// The signed .pkpass, checked the way Wallet checks it: every file's SHA-1 in manifest.json, and manifest.json's
// detached PKCS#7 signature by the pass type certificate, chained to the WWDR authority: here a throwaway chain made
// with openssl in this test, verified with `openssl smime -verify` and `openssl cms -verify`.

let credentials: AppleTestCredentials;
let wallet: AppleWallet;

const profile: PublicProfile = {
  username: 'thabo',
  firstName: 'Thabo',
  lastName: 'Mokoena',
  email: 'thabo@example.co.za',
  membership: 'DigiGold',
  features: { socialLinks: true, leadForm: true, gallery: true, video: true, products: true, shareContact: true },
  document: {
    ...ProfileDefaults,
    title: 'Head Barista',
    businessName: 'Karoo Coffee Co.',
    businessLogo: '/media/logo-0123456789.webp',
    profileBackgroundColor: '#102030',
    mainFontColor: '#f0f0f0',
    buttonBackgroundColor: '#e69f00',
  },
  updatedAt: new Date().toISOString(),
};

const identity = {
  passTypeIdentifier: 'pass.test.digicard.card',
  teamIdentifier: 'TEAM123456',
  serialNumber: 'AbCdEfGhIjKlMnOpQrStUvWx',
  authenticationToken: 'T'.repeat(43),
  webServiceURL: 'https://cards.example.co.za/api/wallet/apple',
  organizationName: 'DigiCard',
};

beforeAll(() => {
  credentials = makeAppleTestCredentials();
  const config = ConfigSchema.parse({
    NATS_URL: 'nats://127.0.0.1:4222',
    DATABASE_URL: 'postgres://x@127.0.0.1:5432/x',
    PUBLIC_URL: 'https://cards.example.co.za',
    REDIS_URL: 'redis://127.0.0.1:6379',
    ...credentials.env('https://127.0.0.1:1'),
  });
  wallet = appleWalletOf(config)!;
});
afterAll(() => credentials?.remove());

describe('an Apple Wallet pass, signed', () => {
  it('lists every file in manifest.json with its SHA-1, and signs the manifest with the pass certificate (OpenSSL verifies)', async () => {
    const logo = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#e69f00' } })
      .webp()
      .toBuffer();
    const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#336699' } })
      .webp()
      .toBuffer();
    const content = applePassContentOf(profile, wallet.publicUrl);
    const files = unzipPass(await signedApplePass(wallet, identity, content, { logo, photo }));

    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, string>;
    const bundled = [...files.keys()].filter((name) => name !== 'manifest.json' && name !== 'signature').sort();
    assert.deepEqual(Object.keys(manifest).sort(), bundled, 'the manifest lists exactly the other files');
    for (const name of bundled) assert.equal(manifest[name], sha1Hex(files.get(name)!), `${name}'s SHA-1`);
    for (const name of ['pass.json', 'icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'logo@2x.png', 'thumbnail@2x.png'])
      assert.ok(files.has(name), name);
    const logoMeta = await sharp(files.get('logo@2x.png')).metadata();
    assert.equal(logoMeta.format, 'png');
    assert.ok(logoMeta.width! <= 320 && logoMeta.height! <= 100, 'the logo fits Apple’s 160x50 points at 2x');

    const verified = verifyPassSignature(files, credentials.wwdrFile);
    assert.ok(verified.smime.ok, `openssl smime -verify: ${verified.smime.output}`);
    assert.ok(verified.cms.ok, `openssl cms -verify: ${verified.cms.output}`);
    assert.match(verified.signer, /UID\s*=\s*pass\.test\.digicard\.card/, 'signed by the pass type certificate');
    assert.match(verified.signer, /Test WWDR Authority/, 'the WWDR certificate travels with the signature');
    assert.match(verified.structure, /eContent: <ABSENT>/, 'detached: the manifest is not inside the signature');
    for (const attribute of ['contentType', 'messageDigest', 'signingTime'])
      assert.match(verified.structure, new RegExp(`object: ${attribute}`), `signed attribute ${attribute}`);
    assert.match(verified.structure, /digestAlgorithm:\s+algorithm: sha256/);
  });

  it('shows the name, title, business, colours and a QR code of the public page tagged src=wallet', async () => {
    const content = applePassContentOf(profile, wallet.publicUrl);
    const files = unzipPass(await signedApplePass(wallet, identity, content, { logo: null, photo: null }));
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8')) as Record<string, any>;
    assert.equal(pass['formatVersion'], 1);
    assert.equal(pass['passTypeIdentifier'], 'pass.test.digicard.card');
    assert.equal(pass['teamIdentifier'], 'TEAM123456');
    assert.equal(pass['serialNumber'], identity.serialNumber);
    assert.equal(pass['authenticationToken'], identity.authenticationToken);
    assert.equal(pass['webServiceURL'], 'https://cards.example.co.za/api/wallet/apple');
    assert.equal(pass['backgroundColor'], 'rgb(16, 32, 48)');
    assert.equal(pass['foregroundColor'], 'rgb(240, 240, 240)');
    assert.equal(pass['labelColor'], 'rgb(230, 159, 0)');
    assert.deepEqual(pass['generic'].primaryFields, [{ key: 'name', label: 'Name', value: 'Thabo Mokoena' }]);
    assert.deepEqual(pass['generic'].secondaryFields, [
      { key: 'title', label: 'Title', value: 'Head Barista' },
      { key: 'business', label: 'Company', value: 'Karoo Coffee Co.' },
    ]);
    assert.deepEqual(pass['barcodes'], [
      {
        format: 'PKBarcodeFormatQR',
        message: 'https://cards.example.co.za/thabo?src=wallet',
        messageEncoding: 'iso-8859-1',
        altText: 'cards.example.co.za/thabo',
      },
    ]);
    assert.ok(!files.has('logo.png'), 'no logo image without its bytes');
    assert.equal(pass['logoText'], 'Karoo Coffee Co.', 'without the logo image, the business name heads the pass');
    assert.ok(!('voided' in pass));
  });

  it('looks like the card: its fields drawn into a picture whose QR code scans back to the page (zbarimg)', async () => {
    const logo = await sharp({ create: { width: 400, height: 120, channels: 3, background: '#e69f00' } })
      .webp()
      .toBuffer();
    const content = applePassContentOf(profile, wallet.publicUrl);
    const files = unzipPass(await signedApplePass(wallet, identity, content, { logo, photo: null }));
    const picture = await renderApplePassPreview(files);
    const meta = await sharp(picture).metadata();
    assert.deepEqual([meta.width, meta.height], [640, 880]);
    // PASS_PREVIEW_DIR keeps the picture, to look at it.
    const dir = process.env['PASS_PREVIEW_DIR'] ?? mkdtempSync(join(tmpdir(), 'digicard-pass-preview-'));
    const file = join(dir, 'apple-pass-preview.png');
    writeFileSync(file, picture);
    try {
      assert.equal(
        execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim(),
        'https://cards.example.co.za/thabo?src=wallet',
      );
      // The page's background colour is the pass's (#102030), sampled at the card's corner inside its rounding.
      const { data } = await sharp(picture)
        .extract({ left: 40, top: 400, width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      assert.deepEqual([...data.subarray(0, 3)], [16, 32, 48]);
    } finally {
      if (!process.env['PASS_PREVIEW_DIR']) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('voids a pass without saying whose it was', async () => {
    const files = unzipPass(await signedApplePass(wallet, identity, null, { logo: null, photo: null }));
    const text = files.get('pass.json')!.toString('utf8');
    const pass = JSON.parse(text) as Record<string, unknown>;
    assert.equal(pass['voided'], true);
    assert.equal(pass['serialNumber'], identity.serialNumber, 'the same pass, so the device replaces its copy');
    assert.equal(pass['barcodes'], undefined);
    assert.ok(!/Thabo|Karoo|thabo/.test(text));
    assert.ok(verifyPassSignature(files, credentials.wwdrFile).smime.ok);
  });

  it('fails verification when a file was changed after signing, or against another authority', async () => {
    const content = applePassContentOf(profile, wallet.publicUrl);
    const files = unzipPass(await signedApplePass(wallet, identity, content, { logo: null, photo: null }));
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, string>;
    const tamperedPass = Buffer.from(files.get('pass.json')!.toString('utf8').replace('Head Barista', 'Chief Executive'));
    assert.notEqual(manifest['pass.json'], sha1Hex(tamperedPass), 'a changed pass.json no longer matches its manifest entry');
    const tamperedManifest = new Map(files);
    tamperedManifest.set('manifest.json', Buffer.from(JSON.stringify({ ...manifest, 'pass.json': sha1Hex(tamperedPass) })));
    const refused = verifyPassSignature(tamperedManifest, credentials.wwdrFile);
    assert.equal(refused.smime.ok, false, 'a manifest changed to match is no longer what was signed');
    assert.equal(refused.cms.ok, false);
    const other = makeAppleTestCredentials();
    try {
      assert.equal(verifyPassSignature(files, other.wwdrFile).smime.ok, false, 'another authority does not vouch for our certificate');
    } finally {
      other.remove();
    }
  });
});

describe('Apple Wallet configuration', () => {
  const base = {
    NATS_URL: 'nats://127.0.0.1:4222',
    DATABASE_URL: 'postgres://x@127.0.0.1:5432/x',
  };

  it('is off without its settings, and health says which are missing', async () => {
    const { appleWalletState } = await import('../src/wallet/apple-config.js');
    const config = ConfigSchema.parse(base);
    assert.equal(appleWalletOf(config), null);
    const state = appleWalletState(config);
    assert.equal(state.status, 'off');
    assert.match(
      state.reason!,
      /APPLE_PASS_TYPE_ID, APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT, APNS_KEY_ID, APNS_KEY, PUBLIC_URL, REDIS_URL not set/,
    );
  });

  it('refuses some settings without the others, naming each missing one', () => {
    const { APPLE_PASS_CERT, APPLE_PASS_TYPE_ID } = credentials.env('https://127.0.0.1:1');
    const result = ConfigSchema.safeParse({ ...base, APPLE_PASS_CERT, APPLE_PASS_TYPE_ID });
    assert.equal(result.success, false);
    const keys = result.error!.issues.map((i) => i.path.join('.')).sort();
    assert.deepEqual(keys, ['APNS_KEY', 'APNS_KEY_ID', 'APPLE_PASS_KEY', 'APPLE_TEAM_ID', 'APPLE_WWDR_CERT', 'PUBLIC_URL', 'REDIS_URL']);
  });

  it('refuses a key that does not open, a key of another certificate, and a certificate of another pass type', () => {
    const full = {
      ...base,
      PUBLIC_URL: 'https://cards.example.co.za',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ...credentials.env('https://127.0.0.1:1'),
    };
    const wrongPassphrase = ConfigSchema.safeParse({ ...full, APPLE_PASS_KEY_PASSPHRASE: 'not it' });
    assert.match(JSON.stringify(wrongPassphrase.error?.issues), /APPLE_PASS_KEY.*does not open/);
    const other = makeAppleTestCredentials('pass.test.other.card');
    try {
      const otherKey = ConfigSchema.safeParse({
        ...full,
        APPLE_PASS_KEY: other.signerKey,
        APPLE_PASS_KEY_PASSPHRASE: other.signerKeyPassphrase,
      });
      assert.match(JSON.stringify(otherKey.error?.issues), /is not the key of APPLE_PASS_CERT/);
      const otherType = ConfigSchema.safeParse({ ...full, APPLE_PASS_TYPE_ID: 'pass.test.other.card' });
      assert.match(JSON.stringify(otherType.error?.issues), /not the certificate of pass\.test\.other\.card/);
    } finally {
      other.remove();
    }
    assert.match(JSON.stringify(ConfigSchema.safeParse({ ...full, APNS_KEY: credentials.signerCert }).error?.issues), /APNS_KEY/);
    assert.equal(ConfigSchema.safeParse(full).success, true);
  });
});
