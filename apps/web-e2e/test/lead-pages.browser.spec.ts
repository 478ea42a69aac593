import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, registerOwner, screenshotPath, setMembership, TestSystem, type TestOwner, sessionCookie } from '@digicard/testing';

// Issue 28, item 4 in the dashboard: the Leads section reads the owner's leads a page at a time (50), says how many
// it shows, and "Load more leads" adds the next page below until every lead is there, each once.

describe('the Leads section, a page at a time', () => {
  let system: TestSystem;
  let browser: Browser;
  let page: Page;
  let owner: TestOwner;
  const LEADS = 57;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['identity', 'profiles', 'gateway'] });
    owner = await registerOwner(
      system,
      { username: 'zodwa', firstName: 'Zodwa', lastName: 'Mthembu', email: 'zodwa@example.co.za' },
      { verify: false },
    );
    await setMembership(system, 'zodwa', 'DigiGold');
    // Stored as the forms store them (the daily cap is not under test here), one minute apart, visitor 1 the oldest.
    await system.sql(
      `INSERT INTO profiles.leads (id, account_id, kind, first_name, last_name, email, phone, message, created_at)
       SELECT gen_random_uuid(), $1, 'lead', 'Visitor', 'No ' || n, 'visitor' || n || '@example.co.za', '', 'Message ' || n,
              timestamptz '2026-01-05 08:00:00+02' + n * interval '1 minute'
         FROM generate_series(1, $2::int) AS n`,
      [owner.accountId, LEADS],
    );
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('shows the newest 50, then the rest with "Load more leads", each lead once', async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Leads' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Leads' });
    await panel.getByText('50 leads shown, newest first.').waitFor();
    const messages = () => panel.locator('.pe-lead__message dd').allTextContents();
    assert.deepEqual((await messages()).slice(0, 2), [`Message ${LEADS}`, `Message ${LEADS - 1}`]);
    assert.equal((await messages()).length, 50);
    await panel.getByRole('button', { name: 'Load more leads' }).click();
    await panel.getByText(`${LEADS} leads, newest first.`).waitFor();
    const all = await messages();
    assert.deepEqual(
      all,
      Array.from({ length: LEADS }, (_, i) => `Message ${LEADS - i}`),
    );
    assert.equal(await panel.getByRole('button', { name: 'Load more leads' }).count(), 0, 'no button once every lead shows');
    await page.screenshot({ path: screenshotPath('leads-load-more'), fullPage: true });
  });
});
