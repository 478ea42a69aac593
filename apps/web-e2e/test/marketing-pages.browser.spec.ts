import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { TestSystem, launchChromium, registerOwner, screenshotPath, sessionCookie } from '@digicard/testing';

const MARKETING_PAGES = [
  '/',
  '/pricing',
  '/accessories',
  '/accessories/pvc-card',
  '/specials/pvc-special',
  '/contact',
  '/terms-and-conditions',
];
/** Issue 14: at most 60 KB of gzipped JavaScript on the first load of a marketing page. */
const FIRST_LOAD_JS_LIMIT = 60_000;

/**
 * The marketing pages arrive rendered by the gateway with one small script; the app (React, the router, the forms)
 * loads only when the visitor first presses a button or field, and then hydrates the page it was given.
 */
describe('the marketing pages: rendered by the gateway, the app loaded on the first press', () => {
  let system: TestSystem;
  let browser: Browser;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'orders', 'payments', 'gateway'] });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  /** Opens a page and counts the JavaScript bytes that came over the wire (gzip) until the network is quiet. */
  const open = async (page: Page, path: string) => {
    const scripts: { url: string; bytes: number }[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      void request.sizes().then((sizes) => scripts.push({ url: request.url(), bytes: sizes.responseBodySize }));
    });
    const sessionReads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/session') sessionReads.push(request.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${system.gatewayUrl}${path}`, { waitUntil: 'networkidle' });
    const firstLoad = scripts.slice();
    return { firstLoad, firstLoadBytes: firstLoad.reduce((sum, s) => sum + s.bytes, 0), errors, sessionReads };
  };

  it('shows every marketing page’s content with JavaScript turned off', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const texts: Record<string, string> = {
      '/': 'Your business card, always in your pocket',
      '/pricing': 'DigiPlatinum for teams: request a quote',
      '/accessories': 'PVC NFC Card',
      '/accessories/pvc-card': 'R369.00',
      '/specials/pvc-special': 'R899.00',
      '/contact': 'Chat to us on WhatsApp',
      '/terms-and-conditions': 'Effective 1 January 2024',
    };
    for (const path of MARKETING_PAGES) {
      await page.goto(`${system.gatewayUrl}${path}`);
      await page.getByText(texts[path]!, { exact: false }).first().waitFor({ timeout: 5_000 });
      assert.ok(await page.getByRole('heading', { level: 1 }).first().isVisible(), path);
    }
    await page.goto(`${system.gatewayUrl}/pricing`);
    await page.screenshot({ path: screenshotPath('marketing-no-js-pricing'), fullPage: true });
    await context.close();
  });

  for (const path of MARKETING_PAGES) {
    it(`${path}: loads at most 60 KB of JavaScript, then the app hydrates it without errors on the first press`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      const { firstLoad, firstLoadBytes, errors, sessionReads } = await open(page, path);
      assert.ok(
        firstLoadBytes > 0 && firstLoadBytes <= FIRST_LOAD_JS_LIMIT,
        `${path}: ${firstLoadBytes} bytes of JS: ${JSON.stringify(firstLoad)}`,
      );
      assert.equal(firstLoad.length, 1, `${path}: one script at first`);
      assert.equal(await page.locator('html[data-app="ready"]').count(), 0, 'the app waits for a press');
      await page.getByRole('link', { name: 'Sign In' }).waitFor();
      await page.getByRole('textbox', { name: 'Name', exact: true }).first().focus();
      await page.locator('html[data-app="ready"]').waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      assert.deepEqual(errors, [], `${path}: no errors (a failed hydration logs one)`);
      assert.equal(sessionReads.length, 1, `${path}: the session is read once (the app takes the first-load script’s answer)`);
      await context.close();
    });
  }

  it('opens the Menu at once on a phone, before the app is in, and the app keeps it open', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    // Hold the app back until the menu has been opened, to see the first-load script do it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/main-app-*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${system.gatewayUrl}/pricing`, { waitUntil: 'networkidle' });
    const toggle = page.getByRole('button', { name: 'Menu' });
    const packages = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Packages' });
    assert.equal(await packages.isVisible(), false);
    await toggle.tap();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await packages.waitFor();
    assert.equal(await page.locator('html[data-app="ready"]').count(), 0, 'the app is still held back');
    release();
    await page.locator('html[data-app="ready"]').waitFor({ timeout: 30_000 });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await packages.waitFor();
    // After the app took over, a press closes the menu through the app.
    await toggle.tap();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await packages.isVisible(), false);
    await context.close();
  });

  it('loads the app at once for a signed-in visitor (the header shows Sign Out and Dashboard)', async () => {
    const owner = await registerOwner(system, { username: 'naledi', firstName: 'Naledi', lastName: 'Dube', email: 'naledi@example.co.za' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    const page = await context.newPage();
    let sessionReads = 0;
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/session') sessionReads += 1;
    });
    await page.goto(`${system.gatewayUrl}/accessories/pvc-card`);
    await page.locator('html[data-app="ready"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(sessionReads, 1, 'the session is read once (the app takes the first-load script’s answer)');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'ADD TO CART' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Sign In' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'REGISTER TODAY' }).count(), 0);
    // The spec: "Header: logo link to home".
    await page.getByRole('banner').getByRole('link', { name: 'DigiCard' }).click();
    await page.waitForURL(`${system.gatewayUrl}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Packages' }).waitFor();
    await context.close();
  });
});
