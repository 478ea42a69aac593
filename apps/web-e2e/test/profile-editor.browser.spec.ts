import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  acceptDialogs,
  launchChromium,
  registerOwner,
  savedDownload,
  screenshotPath,
  setMembership,
  TestSystem,
  type TestOwner,
  waitFor,
  sessionCookie,
} from '@digicard/testing';

const dir = mkdtempSync(join(tmpdir(), 'editor-'));
async function imageFile(name: string, width: number, height: number, r: number): Promise<string> {
  const path = join(dir, name);
  writeFileSync(
    path,
    await sharp({ create: { width, height, channels: 3, background: { r, g: 100, b: 140 } } })
      .jpeg()
      .toBuffer(),
  );
  return path;
}

describe('an owner builds a full profile in the dashboard, and visitors use it', () => {
  let system: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let owner: TestOwner;
  const alerts: string[] = [];

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'] });
    owner = await registerOwner(system, { username: 'naledi', firstName: 'Naledi', lastName: 'Khumalo', email: 'naledi@example.co.za' });
    await setMembership(system, 'naledi', 'DigiGold');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    page = await context.newPage();
    acceptDialogs(page, alerts, ['Delete my account']);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const form = () => page.getByRole('form', { name: 'Edit profile' });
  // Opens a section as the owner sees it open: the tab marked chosen and the panel under the section's heading.
  const section = async (name: string) => {
    await page.getByRole('tab', { name }).click();
    await page.getByRole('tab', { name, selected: true }).waitFor();
    const panel = page.getByRole('tabpanel', { name });
    await panel.getByRole('heading', { level: 2, name }).waitFor();
    return panel;
  };
  const lastAlert = async (text: string) => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !alerts.includes(text)) await page.waitForTimeout(100);
    assert.ok(alerts.includes(text), `alert "${text}" in ${JSON.stringify(alerts)}`);
  };

  it('fills every section, uploads the images, and saves', async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByText('Welcome, Naledi!').waitFor();
    let panel = await section('Contact Information');
    await panel.getByLabel('Title').fill('Founder & Designer');
    await panel.getByLabel('About me').fill('I design brands for small businesses in Durban.');
    await panel.getByLabel('Phone').fill('082 555 1234');
    // The spec (section 3): "Profile data is held locally and updated on every edit" (localStorage userData).
    const userData = JSON.parse((await page.evaluate(() => localStorage.getItem('userData'))) ?? '{}') as {
      username?: string;
      document?: { tel?: string };
    };
    assert.deepEqual([userData.username, userData.document?.tel], ['naledi', '082 555 1234'], 'the edit is in userData at once');
    // The spec (section 5): "Hints: profile image max 500 x 500 px, cover image max 800 x 300 px, gallery 800 x 300 px".
    await panel.getByText('Max 500 x 500 px.', { exact: false }).waitFor();
    await panel.getByLabel('Profile image', { exact: true }).setInputFiles(await imageFile('me.jpg', 1200, 1200, 220));
    await lastAlert('Profile image uploaded and saved successfully!');
    const height = panel.getByLabel('Profile image height');
    await height.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await height.inputValue(), '200');

    panel = await section('Business Information');
    await panel.getByLabel('Business name').fill('Khumalo Studio');
    // The spec (section 9): "logo width 0-100 percent step 10 (default 50)".
    const logoWidth = panel.getByLabel('Logo width');
    assert.deepEqual(await logoWidth.evaluate((input: HTMLInputElement) => [input.type, input.min, input.max, input.step, input.value]), [
      'range',
      '0',
      '100',
      '10',
      '50',
    ]);
    await panel.getByLabel('Business logo').setInputFiles(await imageFile('logo.jpg', 400, 400, 30));
    await lastAlert('Business logo uploaded and saved successfully!');
    await panel.getByRole('button', { name: 'Add website button' }).click();
    await panel.getByLabel('Button name').last().fill('My portfolio');
    await panel.getByLabel('URL').last().fill('https://khumalo.studio');
    await panel.getByLabel('Video link').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');

    panel = await section('Social Links');
    await panel.getByRole('button', { name: 'Add social link' }).click();
    await panel.getByLabel('Platform').last().selectOption('instagram');
    await panel.getByLabel('URL').last().fill('https://www.instagram.com/khumalo.studio');
    // The spec (section 5): "WhatsApp hint: {host}/ followed by the number".
    await panel.getByRole('button', { name: 'Add social link' }).click();
    await panel.getByLabel('Platform').last().selectOption('whatsapp');
    await panel.getByText('https://wa.me/ followed by your number', { exact: false }).waitFor();
    await panel
      .getByRole('button', { name: /Remove/ })
      .last()
      .click();

    panel = await section('Products');
    await panel.getByRole('button', { name: 'Add product' }).click();
    await panel.getByLabel('Name').last().fill('Logo package');
    await panel.getByLabel('Link').last().fill('https://khumalo.studio/logo');
    await panel
      .getByLabel('Image')
      .last()
      .setInputFiles(await imageFile('product.jpg', 900, 900, 90));
    await lastAlert('Product image uploaded. Remember to Save.');

    panel = await section('Gallery');
    await panel.getByText('Max 800 x 300 px.', { exact: false }).waitFor();
    await panel.getByLabel('Add a gallery image').setInputFiles(await imageFile('gallery.jpg', 1600, 900, 160));
    await lastAlert('Gallery image uploaded. Remember to Save.');

    panel = await section('Design');
    await panel.getByText('Max 800 x 300 px.', { exact: false }).waitFor();
    await panel.getByLabel('Cover image').setInputFiles(await imageFile('cover.jpg', 1600, 600, 10));
    await lastAlert('Cover image uploaded and saved successfully!');
    await panel.getByLabel('Button background', { exact: true }).fill('#123456');

    const preview = page.getByRole('region', { name: 'Live preview' }).or(page.locator('.pv').first());
    await preview.first().getByText('Founder & Designer').waitFor();
    await page.screenshot({ path: screenshotPath('editor-desktop'), fullPage: true });
    await form()
      .getByRole('button', { name: 'Save' })
      .first()
      .click()
      .catch(async () => page.getByRole('button', { name: 'Save', exact: true }).click());
    await lastAlert('Profile is updated');
    const { body } = await owner.client.request('/api/profile');
    assert.equal(body.document.title, 'Founder & Designer');
    assert.equal(body.document.profileImageHeight, 200);
    assert.equal(body.document.buttonBackgroundColor, '#123456');
    assert.deepEqual(body.document.websiteLinks, [{ buttonName: 'My portfolio', url: 'https://khumalo.studio' }]);
    assert.deepEqual(body.document.socialLinks, [{ platform: 'instagram', url: 'https://www.instagram.com/khumalo.studio' }]);
    assert.equal(body.document.gallery.length, 1);
    assert.equal(body.document.products[0].name, 'Logo package');
    assert.match(body.document.products[0].imageUrl, /^\/media\//);
  });

  /**
   * The profile the first test builds in the editor, written through the API (the images uploaded as the editor
   * uploads them), so that what follows does not depend on the first test having passed.
   */
  async function fullProfileThroughApi(): Promise<void> {
    const upload = async (purpose: string, file: string) => {
      const res = await owner.client.request(`/api/profile/images/${purpose}`, {
        method: 'POST',
        raw: readFileSync(file),
        headers: { 'content-type': 'image/jpeg' },
      });
      assert.equal(res.status, 201, `${purpose}: ${JSON.stringify(res.body)}`);
      return (res.body as { url: string }).url;
    };
    // The profile image, the logo and the cover go into the profile as they are uploaded.
    await upload('profileImage', await imageFile('api-me.jpg', 1200, 1200, 220));
    await upload('businessLogo', await imageFile('api-logo.jpg', 400, 400, 30));
    await upload('profileBackground', await imageFile('api-cover.jpg', 1600, 600, 10));
    const productImage = await upload('product', await imageFile('api-product.jpg', 900, 900, 90));
    const galleryImage = await upload('gallery', await imageFile('api-gallery.jpg', 1600, 900, 160));
    const current = await owner.client.request('/api/profile');
    assert.equal(current.status, 200);
    const document = {
      ...current.body.document,
      title: 'Founder & Designer',
      profileBio: 'I design brands for small businesses in Durban.',
      tel: '082 555 1234',
      profileImageHeight: 200,
      businessName: 'Khumalo Studio',
      websiteLinks: [{ buttonName: 'My portfolio', url: 'https://khumalo.studio' }],
      videoLink: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      socialLinks: [{ platform: 'instagram', url: 'https://www.instagram.com/khumalo.studio' }],
      products: [{ name: 'Logo package', link: 'https://khumalo.studio/logo', imageUrl: productImage }],
      gallery: [{ imageUrl: galleryImage }],
      buttonBackgroundColor: '#123456',
    };
    const saved = await owner.client.request('/api/profile', { method: 'PUT', body: { document } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  }

  it('shows the public page with every element, and its vCard and QR code are right', async () => {
    await fullProfileThroughApi();
    const visitor = await (
      await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, acceptDownloads: true })
    ).newPage();
    const response = await visitor.goto(`${system.gatewayUrl}/naledi`);
    assert.equal(response?.status(), 200);
    assert.equal(await visitor.title(), 'Naledi Khumalo | DigiCard');
    await visitor.getByRole('heading', { level: 1, name: 'Naledi Khumalo' }).waitFor();
    assert.equal(await visitor.locator('[data-header-height]').getAttribute('data-header-height'), '220');
    for (const name of ['Save to Contact', 'Exchange Contact', 'Get your own Profile', 'About Me', 'Let me get in contact with you.']) {
      assert.ok(await visitor.getByRole(name === 'Save to Contact' ? 'link' : 'button', { name }).isVisible(), name);
    }
    assert.equal(await visitor.getByRole('link', { name: /My portfolio/ }).getAttribute('href'), 'https://khumalo.studio/');
    assert.equal(await visitor.getByRole('link', { name: 'Instagram' }).getAttribute('href'), 'https://www.instagram.com/khumalo.studio');
    await visitor.getByRole('heading', { name: 'My Gallery' }).waitFor();
    await visitor.getByRole('heading', { name: 'Products' }).waitFor();
    assert.equal(await visitor.locator('iframe[src*="youtube-nocookie.com/embed/dQw4w9WgXcQ"]').count(), 1);
    assert.match((await visitor.locator('meta[property="og:image"]').getAttribute('content')) ?? '', /\/media\/.+\.webp$/);
    await visitor.screenshot({ path: screenshotPath('public-profile-phone'), fullPage: true });

    const [vcard] = await Promise.all([visitor.waitForEvent('download'), visitor.getByRole('link', { name: 'Save to Contact' }).click()]);
    assert.equal(vcard.suggestedFilename(), 'Naledi Khumalo.vcf');
    const card = readFileSync(await savedDownload(vcard), 'utf8').replace(/\r\n /g, '');
    for (const line of [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Khumalo;Naledi;;;',
      'FN:Naledi Khumalo',
      'ORG:Khumalo Studio',
      'TITLE:Founder & Designer',
      'TEL;TYPE=WORK,VOICE:+27825551234',
      'EMAIL;TYPE=INTERNET,WORK:naledi@example.co.za',
      `URL:${system.gatewayUrl}/naledi`,
      'END:VCARD',
    ]) {
      assert.ok(card.includes(`${line}\r\n`), line);
    }
    assert.match(card, /PHOTO;ENCODING=b;TYPE=JPEG:/);

    await page.goto(`${system.gatewayUrl}/dashboard`);
    const qr = await section('QR Code');
    const [download] = await Promise.all([page.waitForEvent('download'), qr.getByRole('link', { name: 'Download QR Code' }).click()]);
    assert.equal(download.suggestedFilename(), 'QR_Code.png');
    const file = await savedDownload(download);
    const meta = await sharp(file).metadata();
    assert.deepEqual([meta.width, meta.height], [300, 300]);
    assert.equal(execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim(), `${system.gatewayUrl}/naledi?src=qr`);
  });

  it('takes the three forms from a visitor, emails the owner, and lists them in the dashboard', async () => {
    const visitor = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })).newPage();
    const answers: string[] = [];
    visitor.on('response', (r) => {
      if (r.url().includes('/leads')) void r.text().then((t) => answers.push(`${r.status()} ${t}`));
    });
    visitor.on('console', (m) => answers.push(`console: ${m.text()}`));
    await visitor.goto(`${system.gatewayUrl}/naledi?src=nfc`);
    const send = async (toggle: string, kind: string, fields: Record<string, string>, thanks: string) => {
      await visitor.getByRole('button', { name: toggle }).click();
      const f = visitor.locator(`form[data-lead-kind="${kind}"]`);
      await f.getByRole('button', { name: 'Send' }).click();
      await f
        .getByText(/Please enter/)
        .first()
        .waitFor();
      for (const [label, value] of Object.entries(fields)) await f.getByLabel(label, { exact: false }).first().fill(value);
      // The consent (Exchange Contact also has "Send me …'s contact card", ticked already).
      await f.getByRole('checkbox', { name: /I agree/ }).check();
      await f.getByRole('button', { name: 'Send' }).click();
      await visitor
        .getByRole('status')
        .filter({ hasText: thanks, visible: true })
        .first()
        .waitFor({ timeout: 10_000 })
        .catch((error: Error) => {
          throw new Error(`${error.message}\nanswers: ${answers.join('\n')}`);
        });
    };
    await send(
      'Exchange Contact',
      'exchange',
      { 'First name': 'Sipho', 'Last name': 'Nkosi', Phone: '0821234567', Email: 'sipho@example.co.za' },
      'Thank you! I will get in touch with you soon.',
    );
    await send(
      'Get your own Profile',
      'own-profile',
      { 'First name': 'Zanele', 'Last name': 'Zulu', Email: 'zanele@example.co.za' },
      'Thank you! Please check your email and follow the easy steps.',
    );
    await send(
      'Let me get in contact with you.',
      'lead',
      { 'First name': 'Thabo', Email: 'thabo@example.co.za', Message: 'I need a logo for my spaza shop.' },
      'Thank you! I will get in touch with you soon.',
    );
    await visitor.screenshot({ path: screenshotPath('public-profile-forms-sent'), fullPage: true });

    const mails = await system.mail.waitForCount((m) => m.to.includes('naledi@example.co.za') && /\[DigiCard\]/.test(m.subject), 3);
    assert.deepEqual(
      mails.map((m) => m.subject).sort(),
      [
        '[DigiCard] Sipho Nkosi shared their contact details',
        '[DigiCard] Thabo  sent you a message'.replace('  ', ' '),
        '[DigiCard] Zanele Zulu would like a digital profile of their own',
      ].sort(),
    );

    await page.goto(`${system.gatewayUrl}/dashboard`);
    const leads = await section('Leads');
    for (const name of ['Sipho', 'Zanele', 'Thabo']) await leads.getByText(name, { exact: false }).first().waitFor();
    await leads.getByText('I need a logo for my spaza shop.').waitFor();
    await page.screenshot({ path: screenshotPath('editor-leads'), fullPage: true });
  });

  it('works on a phone: the editor stacks above the preview', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await phone.addCookies([sessionCookie(owner.client.sessionId!)]);
    const p = await phone.newPage();
    await p.goto(`${system.gatewayUrl}/dashboard`);
    await p.getByRole('tab', { name: 'Contact Information' }).waitFor();
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
    await p.screenshot({ path: screenshotPath('editor-phone'), fullPage: true });
    await phone.close();
  });

  it("says what went wrong in the spec's words: 'Failed to upload {field}.', 'Profile not updated' and 'User not logged in'", async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    let panel = await section('Contact Information');
    // Passes the browser's check (a .png under 2 MB) but is no image: the server refuses it.
    const fake = join(dir, 'not-an-image.png');
    writeFileSync(fake, 'this is not a picture');
    await panel.getByLabel('Profile image', { exact: true }).setInputFiles(fake);
    await waitFor('the upload failure', () => Promise.resolve(alerts.some((a) => a.startsWith('Failed to upload profile image.'))), 10_000);

    panel = await section('Business Information');
    await panel.getByRole('button', { name: 'Add website button' }).click();
    await panel.getByLabel('Button name').last().fill('Broken');
    await panel.getByLabel('URL').last().fill('not a web address');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await waitFor('the save failure', () => Promise.resolve(alerts.some((a) => a.startsWith('Profile not updated'))), 10_000);
    await page.getByRole('alert').getByText('Profile not updated').first().waitFor();
    await panel
      .getByRole('button', { name: /^Remove/ })
      .last()
      .click();

    // The session ends (signed out elsewhere): an upload then says so.
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await other.addCookies([sessionCookie(owner.client.sessionId!)]);
    const ended = await other.newPage();
    const endedAlerts: string[] = [];
    acceptDialogs(ended, endedAlerts);
    await ended.goto(`${system.gatewayUrl}/dashboard`);
    await ended.getByRole('tab', { name: 'Contact Information' }).waitFor();
    await other.clearCookies();
    await ended
      .getByRole('tabpanel', { name: 'Contact Information' })
      .getByLabel('Profile image', { exact: true })
      .setInputFiles(await imageFile('late.jpg', 300, 300, 50));
    await waitFor('the signed-out upload', () => Promise.resolve(endedAlerts.includes('User not logged in')), 10_000);
    await other.close();
  });

  it('deletes the account from Settings after the password is confirmed', async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    const settings = await section('Settings');
    const remove = settings.getByRole('group', { name: 'Delete my account' });
    await remove.getByLabel('Password').fill('not my password');
    await remove.getByRole('button', { name: 'Delete my account' }).click();
    await remove.getByText('Incorrect password. Please try again.').waitFor();
    await remove.getByLabel('Password').fill(owner.password);
    await remove.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${system.gatewayUrl}/`);
    await lastAlert('Your account and everything we held about it are deleted.');
    assert.ok(
      alerts.some((a) => a.startsWith('Delete your account')),
      'asked to confirm first',
    );
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).waitFor();
    // The account goes at once; its profile is forgotten through identity.user.deleted, a moment later.
    await waitFor('the public page to be gone', async () => (await fetch(`${system.gatewayUrl}/naledi`)).status === 404, 10_000);
  });
});
