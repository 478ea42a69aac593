import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PKPASS_MEDIA_TYPE } from '@digicard/contracts';
import {
  DEFAULTS,
  GoogleWalletStandIn,
  googleWalletPreviewHtml,
  launchChromium,
  makeAppleTestCredentials,
  makeGoogleTestCredentials,
  registerOwner,
  renderApplePassPreview,
  savedDownload,
  screenshotPath,
  sessionCookie,
  setMembership,
  TestSystem,
  unzipPass,
  verifyPassSignature,
  verifyRs256Jwt,
  type AppleTestCredentials,
  type GoogleJson,
  type GoogleTestCredentials,
  type TestOwner,
} from '@digicard/testing';

// Why a browser test: the service lane (apps/gateway/test/apple-wallet.integration.spec.ts, google-wallet.*) proves
// the passes, their signatures and their limits; this proves the dashboard's QR Code section leads a real browser to
// them: "Add to Apple Wallet" downloads the signed pass, and "Add to Google Wallet" goes to Google's save page with
// the owner's card in its JWT. Then the passes' looks: each drawn into a picture (test-results/screenshots), whose QR
// code must scan back to the owner's page.

describe('the wallet passes from the dashboard, in Chromium', () => {
  let apple: AppleTestCredentials;
  let google: GoogleTestCredentials;
  let googleApi: GoogleWalletStandIn;
  let system: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let owner: TestOwner;
  let pass: Map<string, Buffer>;
  let googleObject: GoogleJson;

  const image = (width: number, height: number, svg: string) =>
    sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${svg}</svg>`))
      .png()
      .toBuffer();

  beforeAll(async () => {
    apple = makeAppleTestCredentials();
    google = makeGoogleTestCredentials();
    googleApi = await new GoogleWalletStandIn(google).start();
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'notifications', 'gateway'] });
    // The wallets need the public address (the gateway's, known once the system has its ports) and Redis (the jobs).
    await system.stopApp('profiles');
    await system.startApp('profiles', {
      PUBLIC_URL: system.gatewayUrl,
      REDIS_URL: DEFAULTS.redisUrl,
      QUEUE_PREFIX: system.redisPrefix,
      // No profile change follows the downloads here, so no push: APNs is an address nothing answers.
      ...apple.env('https://127.0.0.1:9'),
      ...google.env(googleApi),
    });
    owner = await registerOwner(system, { username: 'zanele', firstName: 'Zanele', lastName: 'Dube', email: 'zanele@example.co.za' });
    await setMembership(system, 'zanele', 'DigiGold');
    // A wide logo and a photo, as an owner uploads them (saved at once), then the Design section's colours.
    const upload = async (purpose: string, data: Buffer) => {
      const res = await owner.client.request(`/api/profile/images/${purpose}`, {
        method: 'POST',
        raw: data,
        headers: { 'content-type': 'image/png' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    };
    await upload(
      'businessLogo',
      await image(
        480,
        160,
        '<rect width="480" height="160" rx="24" fill="#f4b400"/><text x="240" y="108" text-anchor="middle" font-family="DejaVu Sans" font-size="72" font-weight="bold" fill="#1b2a41">UMOYA</text>',
      ),
    );
    await upload(
      'profileImage',
      await image(400, 400, '<rect width="400" height="400" fill="#2e7d32"/><circle cx="200" cy="160" r="90" fill="#c8e6c9"/>'),
    );
    const current = (await owner.client.request('/api/profile')).body as { document: Record<string, unknown> };
    const saved = await owner.client.request('/api/profile', {
      method: 'PUT',
      body: {
        document: {
          ...current.document,
          title: 'Energy Consultant',
          businessName: 'Umoya Solar',
          profileBackgroundColor: '#1b2a41',
          mainFontColor: '#ffffff',
          buttonBackgroundColor: '#f4b400',
        },
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));

    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    // Google's save page is not on this machine: the browser's visit to it is answered here.
    await context.route('https://pay.google.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Google Wallet</title><h1>Save your pass</h1>' }),
    );
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await googleApi?.stop();
    apple?.remove();
  });

  const qrSection = async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByText('Welcome, Zanele!').waitFor();
    await page.getByRole('tab', { name: 'QR Code' }).click();
    const panel = page.getByRole('tabpanel', { name: 'QR Code' });
    await panel.getByRole('heading', { level: 3, name: 'Your card in your phone’s wallet' }).waitFor();
    return panel;
  };

  it('"Add to Apple Wallet" downloads the signed pass: the owner’s name, and the page’s address tagged src=wallet', async () => {
    const panel = await qrSection();
    const badge = panel.getByRole('link', { name: 'Add to Apple Wallet' });
    const response = page.waitForResponse((r) => r.url() === `${system.gatewayUrl}/api/wallet/apple/pass.pkpass`);
    const download = page.waitForEvent('download');
    await badge.click();
    const res = await response;
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], PKPASS_MEDIA_TYPE);
    const file = await download;
    assert.equal(file.suggestedFilename(), 'Zanele-Dube.pkpass');
    pass = unzipPass(readFileSync(await savedDownload(file)));
    for (const name of ['pass.json', 'manifest.json', 'signature', 'logo@2x.png', 'thumbnail@2x.png']) assert.ok(pass.has(name), name);
    assert.ok(verifyPassSignature(pass, apple.wwdrFile).cms.ok, 'the manifest’s signature verifies with the (throwaway) WWDR chain');
    const json = JSON.parse(pass.get('pass.json')!.toString('utf8')) as GoogleJson;
    assert.equal(json['generic'].primaryFields[0].value, 'Zanele Dube');
    assert.deepEqual(
      json['generic'].secondaryFields.map((f: { value: string }) => f.value),
      ['Energy Consultant', 'Umoya Solar'],
    );
    assert.equal(json['barcodes'][0].message, `${system.gatewayUrl}/zanele?src=wallet`);
    assert.equal(json['backgroundColor'], 'rgb(27, 42, 65)');
  });

  it('"Add to Google Wallet" goes to Google’s save page with a JWT signed by the service account that carries the card', async () => {
    const panel = page.getByRole('tabpanel', { name: 'QR Code' });
    const toGoogle = page.waitForRequest((request) => request.url().startsWith('https://pay.google.com/'));
    await panel.getByRole('button', { name: 'Add to Google Wallet' }).click();
    const saveUrl = new URL((await toGoogle).url());
    await page.getByRole('heading', { name: 'Save your pass' }).waitFor();
    const [, jwt] = /^\/gp\/v\/save\/([^/]+)$/.exec(saveUrl.pathname) ?? [];
    assert.ok(jwt, saveUrl.pathname);
    const { claims } = verifyRs256Jwt(jwt, google.publicKey);
    assert.equal(claims['iss'], google.serviceAccountEmail);
    assert.equal(claims['aud'], 'google');
    assert.equal(claims['typ'], 'savetowallet');
    assert.deepEqual(claims['origins'], [system.gatewayUrl]);
    googleObject = claims['payload'].genericObjects[0] as GoogleJson;
    assert.equal(googleObject['classId'], `${google.issuerId}.digicard-card`);
    assert.equal(googleObject['header'].defaultValue.value, 'Zanele Dube');
    assert.equal(googleObject['subheader'].defaultValue.value, 'Energy Consultant');
    assert.equal(googleObject['cardTitle'].defaultValue.value, 'Umoya Solar');
    assert.equal(googleObject['barcode'].value, `${system.gatewayUrl}/zanele?src=wallet`);
    // The logo as Google fetches it (no session): the business logo, square, for Google's circular mask.
    const logoUri = googleObject['logo'].sourceUri.uri as string;
    const logoId = /^\/media\/([A-Za-z0-9_-]+)\.webp$/.exec((await owner.client.request('/api/profile')).body.document.businessLogo)?.[1];
    assert.equal(logoUri, `${system.gatewayUrl}/media/wallet-logo/${logoId}.png`);
    const logo = await fetch(logoUri);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
    const meta = await sharp(Buffer.from(await logo.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [660, 660]);
    assert.equal((await fetch(`${system.gatewayUrl}/media/wallet-logo/${'x'.repeat(24)}.png`)).status, 404, 'no such image');
  });

  it('looks like the card: both passes drawn into pictures whose QR codes scan back to the owner’s page', async () => {
    const applePicture = screenshotPath('wallet-apple-pass', 'png');
    writeFileSync(applePicture, await renderApplePassPreview(pass));
    // Drawn on the gateway's origin (the page answered here), where its media may be shown (helmet's CORP: same-origin).
    const html = await googleWalletPreviewHtml(googleObject);
    const preview = await context.newPage();
    await preview.route(`${system.gatewayUrl}/wallet-preview`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: html }),
    );
    await preview.goto(`${system.gatewayUrl}/wallet-preview`, { waitUntil: 'load' });
    const googlePicture = screenshotPath('wallet-google-pass', 'png');
    await preview.locator('.card').screenshot({ path: googlePicture });
    // The logo loaded from the address the object gives Google (the gateway's media).
    assert.ok(await preview.locator('.logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the logo loads');
    for (const picture of [applePicture, googlePicture])
      assert.equal(
        execFileSync('zbarimg', ['--raw', '-q', picture], { encoding: 'utf8' }).trim(),
        `${system.gatewayUrl}/zanele?src=wallet`,
      );
  });
});
