import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  acceptDialogs,
  launchChromium,
  registerOwner,
  screenshotPath,
  TestSystem,
  type TestOwner,
  waitFor,
  sessionCookie,
} from '@digicard/testing';

// What an owner sees when a paid month runs out: after a cancellation at the end of the paid month, and after a
// failed recurring charge at the end of the grace period. The payments service decides with its own clock (tested
// with a moved clock in apps/payments/test); here time passes the way it does for a running system: the rows that
// say until when a month is paid are moved into the past, and the service's sweep (every second in tests) acts.

const linkedin = 'https://www.linkedin.com/in/lapse-test';

describe('a paid tier runs out', () => {
  let system: TestSystem;
  let browser: Browser;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'orders', 'payments', 'notifications', 'gateway'],
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  /** An owner on DigiSilver, paid through the simulator's page, with a social link on the public page. */
  async function silverOwner(username: string): Promise<{ owner: TestOwner; page: Page }> {
    const owner = await registerOwner(system, { username, firstName: 'Lapse', lastName: 'Tester', email: `${username}@example.co.za` });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    const page = await context.newPage();
    acceptDialogs(page, [], ['Cancel membership']);
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Billing' }).click();
    await page.getByRole('button', { name: 'Choose DigiSilver' }).click();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${system.gatewayUrl}/dashboard?section=billing`);
    await waitFor('DigiSilver', async () => (await owner.client.request('/api/profile')).body.membership === 'DigiSilver', 20_000);
    const profile = (await owner.client.request('/api/profile')).body;
    const saved = await owner.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...profile.document, socialLinks: [{ platform: 'linkedin', url: linkedin }] } },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    return { owner, page };
  }

  const publicLinks = async (username: string): Promise<number> => {
    const visitor = await browser.newPage();
    await visitor.goto(`${system.gatewayUrl}/${username}`);
    const count = await visitor.locator(`a[href="${linkedin}"]`).count();
    await visitor.close();
    return count;
  };

  const billingText = async (page: Page): Promise<string> => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Billing' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Billing' });
    await panel.getByText(/Your membership:/).waitFor();
    // The payments are a list of their own, read after the membership: wait until it is in too.
    await panel.getByRole('heading', { name: 'Payments' }).waitFor();
    await panel.getByRole('status').filter({ hasText: 'Loading...' }).waitFor({ state: 'detached' });
    return (await panel.textContent()) ?? '';
  };

  it('a cancelled membership keeps its tier to the end of the paid month, then the profile is DigiShare and hides what it showed', async () => {
    const { owner, page } = await silverOwner('cancelsoon');
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Billing' }).click();
    await page.getByRole('button', { name: 'Cancel membership' }).click();
    await page.getByText(/Cancelled: DigiSilver stays until/).waitFor();
    assert.equal(await publicLinks('cancelsoon'), 1, 'still DigiSilver during the paid month');

    await system.sql("UPDATE payments.subscriptions SET paid_until = now() - interval '1 minute' WHERE account_id = $1", [owner.accountId]);
    await waitFor('the tier to lapse', async () => (await owner.client.request('/api/profile')).body.membership === 'DigiShare', 20_000);
    await waitFor('the public page to hide the social link', async () => (await publicLinks('cancelsoon')) === 0, 10_000);
    const text = await billingText(page);
    assert.match(text, /Your membership: DigiShare/);
    assert.match(text, /Your DigiSilver membership has ended\./);
    assert.match(text, /Choose DigiSilver/, 'the plans are offered again');
    const stored = (await owner.client.request('/api/profile')).body.document.socialLinks;
    assert.deepEqual(stored, [{ platform: 'linkedin', url: linkedin }], 'hidden, never deleted');
    await system.mail.waitFor((m) => m.to.includes('cancelsoon@example.co.za') && m.subject.includes('on DigiShare again'));
    await page.screenshot({ path: screenshotPath('billing-lapsed'), fullPage: true });
  });

  it('a failed recurring charge gives a grace period with an email, then the tier lapses', async () => {
    const { owner, page } = await silverOwner('failscharge');
    // A month has passed: the next charge is due today.
    await system.sql('UPDATE payments.subscriptions SET next_billing_date = current_date, paid_until = now() WHERE account_id = $1', [
      owner.accountId,
    ]);
    const [subscription] = await system.sql<{ token: string }>('SELECT token FROM payments.subscriptions WHERE account_id = $1', [
      owner.accountId,
    ]);
    const charge = await fetch(`${system.payfastUrl}/_sim/subscriptions/${subscription!.token}/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'FAILED' }),
    });
    assert.equal(charge.status, 200, await charge.text());
    const failed = await system.mail.waitFor((m) => m.to.includes('failscharge@example.co.za') && m.subject.includes('did not go through'));
    assert.match(failed.text, /Your features stay until/);
    const during = await billingText(page);
    assert.match(during, /Your last DigiSilver payment did not go through/);
    assert.match(during, /your DigiSilver features stay until \d{1,2} \w+ \d{4}/);
    assert.match(during, /Failed/, 'the failed charge is in the payments list');
    assert.equal(await publicLinks('failscharge'), 1, 'still DigiSilver during the grace period');
    await page.screenshot({ path: screenshotPath('billing-past-due'), fullPage: true });

    await system.sql("UPDATE payments.subscriptions SET grace_until = now() - interval '1 minute' WHERE account_id = $1", [
      owner.accountId,
    ]);
    await waitFor('the tier to lapse', async () => (await owner.client.request('/api/profile')).body.membership === 'DigiShare', 20_000);
    await waitFor('the public page to hide the social link', async () => (await publicLinks('failscharge')) === 0, 10_000);
    assert.match(await billingText(page), /Your membership: DigiShare/);
  });
});
