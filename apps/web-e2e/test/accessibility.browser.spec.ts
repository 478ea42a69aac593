import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  createStaffAccount,
  describeViolations,
  launchChromium,
  registerOwner,
  runAxe,
  screenshotPath,
  setMembership,
  TestSystem,
  type AxeViolation,
  type TestOwner,
  sessionCookie,
} from '@digicard/testing';

// Issue 23: axe-core (its own browser bundle, injected) on every page a visitor, an owner, staff and the print team
// can open, and on every section of the dashboard, with the WCAG 2.0-2.2 A and AA rules. Any violation fails the test,
// whatever impact axe gives it (minor and moderate ones too).

const PUBLIC_PAGES = [
  '/',
  '/pricing',
  '/accessories',
  '/accessories/pvc-card',
  '/specials/pvc-special',
  '/contact',
  '/terms-and-conditions',
  '/register',
  '/registration',
  '/login',
  '/verify-email',
  '/reset-password',
  '/confirm-email',
  '/cart',
  '/thank-you',
  '/cancel',
  '/tedx_george',
  '/no-such-page',
];

describe('axe-core finds no WCAG A/AA violation on any page', () => {
  let system: TestSystem;
  let browser: Browser;
  let owner: TestOwner;
  let staff: TestOwner;
  let printer: TestOwner;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'gateway'],
    });
    owner = await registerOwner(system, { username: 'amahle', firstName: 'Amahle', lastName: 'Cele', email: 'amahle@example.co.za' });
    // A DigiPlatinum team leader sees every section (Teams included); a fresh sign-in carries the role.
    await system.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE username = $1`, [owner.username]);
    await setMembership(system, owner.username, 'DigiPlatinum');
    const signedIn = await owner.client.request('/api/session', { body: { email: owner.email, password: owner.password } });
    assert.equal(signedIn.status, 200);
    staff = await createStaffAccount(system, { email: 'support@digicard.test', role: 'staff', username: 'support-staff' });
    printer = await createStaffAccount(system, { email: 'print@digicard.test', role: 'print', username: 'print-room' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const url = (path: string) => `${system.gatewayUrl}${path}`;

  /** A context that lets axe's script in (our CSP forbids inline scripts), signed in as `who` when given. */
  async function contextFor(who?: TestOwner, mobile = false): Promise<BrowserContext> {
    const context = await browser.newContext({
      bypassCSP: true,
      viewport: mobile ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    });
    if (who) {
      await context.addCookies([sessionCookie(who.client.sessionId!)]);
    }
    return context;
  }

  /** Runs axe on the page as it is: every violation of the WCAG A/AA rules, whatever its impact. */
  function check(page: Page): Promise<AxeViolation[]> {
    return runAxe(page);
  }

  /** Opens the page once the app has drawn it (hydrated, or drawn in the browser) and the network is quiet. */
  async function open(page: Page, path: string): Promise<void> {
    await page.goto(url(path), { waitUntil: 'networkidle' });
    await page.locator('main').first().waitFor();
  }

  it('axe itself: a page with an unlabelled image and button fails it (the check can fail)', async () => {
    const context = await contextFor();
    const page = await context.newPage();
    await page.setContent(
      '<html lang="en"><head><title>t</title></head><body><main><img src="x.png"><button></button></main></body></html>',
    );
    const ids = (await runAxe(page)).filter((v) => v.impact === 'critical').map((v) => v.id);
    await context.close();
    assert.deepEqual(ids.sort(), ['button-name', 'image-alt']);
  });

  it('every public page, signed out, on a phone and on a desktop', async () => {
    const found: string[] = [];
    // The phone and the desktop side by side (each page waits for a quiet network, which is mostly idle time).
    await Promise.all(
      [true, false].map(async (mobile) => {
        const context = await contextFor(undefined, mobile);
        const page = await context.newPage();
        for (const path of [...PUBLIC_PAGES, `/${owner.username}`]) {
          await open(page, path);
          const where = `${path} (${mobile ? 'phone' : 'desktop'})`;
          const blocking = await check(page);
          if (blocking.length > 0) found.push(describeViolations(where, blocking));
        }
        await context.close();
      }),
    );
    // The app's own alert dialog, open over a page.
    const context = await contextFor(undefined, true);
    const page = await context.newPage();
    await open(page, '/specials/pvc-special');
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Your cards have been added to your basket.' });
    await dialog.waitFor();
    const blocking = await check(page);
    if (blocking.length > 0) found.push(describeViolations('the notice dialog', blocking));
    await page.screenshot({ path: screenshotPath('axe-notice-dialog') });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(url('/registration'));
    await context.close();
    assert.equal(found.length, 0, found.join('\n'));
  });

  it('every section of a DigiPlatinum owner’s dashboard, and the public page as its owner sees it', async () => {
    const context = await contextFor(owner);
    const page = await context.newPage();
    await open(page, '/dashboard');
    const tabs = page.getByRole('tablist', { name: 'Profile sections' }).getByRole('tab');
    await tabs.first().waitFor();
    const names = await tabs.allTextContents();
    for (const name of ['Contact Information', 'Settings', 'Leads', 'Analytics', 'CRM integration', 'Teams', 'Billing', 'Orders'])
      assert.ok(names.includes(name), `the dashboard's sections: ${names.join(', ')}`);
    const found: string[] = [];
    for (const name of names) {
      await page.getByRole('tab', { name, exact: true }).click();
      await page.getByRole('tabpanel').first().waitFor();
      await page.waitForLoadState('networkidle');
      const where = `/dashboard ${name}`;
      const blocking = await check(page);
      if (blocking.length > 0) found.push(describeViolations(where, blocking));
      if (name === 'Teams' || name === 'Billing')
        await page.screenshot({ path: screenshotPath(`axe-dashboard-${name.toLowerCase()}`), fullPage: true });
    }
    for (const path of ['/cart', `/${owner.username}`]) {
      await open(page, path);
      const blocking = await check(page);
      if (blocking.length > 0) found.push(describeViolations(`${path} (signed in)`, blocking));
    }
    await context.close();
    assert.equal(found.length, 0, found.join('\n'));
  });

  it('the staff console and the print console', async () => {
    const found: string[] = [];
    for (const [who, path] of [
      [staff, '/staff'],
      [printer, '/print'],
    ] as const) {
      const context = await contextFor(who);
      const page = await context.newPage();
      await open(page, path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const blocking = await check(page);
      if (blocking.length > 0) found.push(describeViolations(path, blocking));
      await page.screenshot({ path: screenshotPath(`axe-${path.slice(1)}`), fullPage: true });
      await context.close();
    }
    assert.equal(found.length, 0, found.join('\n'));
  });
});
