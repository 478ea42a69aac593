import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  acceptDialogs,
  answerDialog,
  launchChromium,
  registerOwner,
  screenshotPath,
  TestSystem,
  type TestOwner,
  waitFor,
  sessionCookie,
} from '@digicard/testing';

// An owner upgrades to DigiSilver through PayFast (our simulator, real HTTP and signed ITNs on the wire) from the
// membership selector, comes back to Billing (pending, then active), social links unlock, and a cancellation keeps the
// tier to the end of the paid month.

describe('an owner pays for DigiSilver, and cancels it', () => {
  let system: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let owner: TestOwner;
  const dialogs: string[] = [];
  let stopAccepting: () => void = () => undefined;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'orders', 'payments', 'notifications', 'gateway'],
    });
    owner = await registerOwner(system, { username: 'sizwe', firstName: 'Sizwe', lastName: 'Ndlovu', email: 'sizwe@example.co.za' });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    page = await context.newPage();
    stopAccepting = acceptDialogs(page, dialogs);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const section = async (name: string) => {
    await page.getByRole('tab', { name }).click();
    return page.getByRole('tabpanel', { name });
  };

  it('keeps social links locked on DigiShare', async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    const panel = await section('Social Links');
    await panel.getByText('Upgrade to DigiSilver to unlock Social Media Links!').waitFor();
  });

  it('chooses DigiSilver in the Settings membership selector, which starts the PayFast checkout Billing starts; a second tab cannot start another', async () => {
    const billing = await section('Billing');
    await billing.getByText('Your membership: DigiShare').waitFor();
    await page.screenshot({ path: screenshotPath('billing-plans'), fullPage: true });
    // The spec: "choosing DigiSilver or DigiGold when the user is not a partner starts a payment redirect".
    const settings = await section('Settings');
    await settings.getByLabel('Membership').selectOption('DigiSilver');
    await page.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
    await page.getByText('R 49.00').first().waitFor();
    assert.ok(await page.getByText('Monthly', { exact: false }).first().isVisible(), 'the page says it recurs monthly');
    await page.screenshot({ path: screenshotPath('payfast-simulator-membership'), fullPage: true });

    // Another tab, while this checkout is open: the selector is refused, and Billing says a payment is awaited.
    const other = await context.newPage();
    await other.goto(`${system.gatewayUrl}/dashboard`);
    await other.getByRole('tab', { name: 'Settings' }).click();
    const otherSettings = other.getByRole('tabpanel', { name: 'Settings' });
    await otherSettings.getByLabel('Membership').selectOption('DigiGold');
    await otherSettings
      .getByRole('alert')
      .getByText(/Your DigiSilver payment at PayFast is not finished yet/)
      .waitFor();
    assert.equal(other.url(), `${system.gatewayUrl}/dashboard`, 'the second tab stays on the dashboard');
    await other.close();
    const [row] = await system.sql<{ n: number }>('SELECT count(*)::int AS n FROM payments.subscriptions WHERE account_id = $1', [
      owner.accountId,
    ]);
    assert.equal(row?.n, 1, 'one subscription asked of PayFast');
  });

  it('pays R49.00 and comes back to Billing, which shows DigiSilver pending until PayFast confirms it, then active, without a reload', async () => {
    // PayFast's notification may come after the buyer is back: the simulator holds it until released.
    await fetch(`${system.payfastUrl}/_sim/itns/hold`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hold":true}',
    });
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${system.gatewayUrl}/dashboard?section=billing`);
    const billing = page.getByRole('tabpanel', { name: 'Billing' });
    assert.equal(await page.getByRole('tab', { name: 'Billing' }).getAttribute('aria-selected'), 'true', 'Billing is the section shown');
    await billing.getByText('Waiting for PayFast to confirm your first DigiSilver payment.').waitFor();
    assert.equal(await page.getByText('Thank you for your order.').count(), 0, 'not the card-order page');
    await page.screenshot({ path: screenshotPath('billing-pending'), fullPage: true });
    const released = await fetch(`${system.payfastUrl}/_sim/itns/hold`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hold":false}',
    });
    assert.equal(released.status, 200);
    await billing.getByText('Your membership: DigiSilver').waitFor({ timeout: 20_000 });
    await billing.getByText(/DigiSilver, R49\.00 per month\. Paid until/).waitFor();
    // The editor heard too: social links are open without a reload.
    await page.getByRole('tab', { name: 'Social Links' }).click();
    await page
      .getByRole('tabpanel', { name: 'Social Links' })
      .getByRole('button', { name: 'Add social link' })
      .waitFor({ timeout: 20_000 });
    const receipt = await system.mail.waitFor(
      (m) => m.to.includes('sizwe@example.co.za') && m.subject === '[DigiCard] Your DigiSilver membership has started',
    );
    assert.match(receipt.text, /R49\.00/);
    assert.match(receipt.text, /Paid until/);
  });

  it('unlocks social links, which the public page then shows', async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    const panel = await section('Social Links');
    await panel.getByRole('button', { name: 'Add social link' }).click();
    await panel.getByLabel('Platform').last().selectOption('linkedin');
    await panel.getByLabel('URL').last().fill('https://www.linkedin.com/in/sizwe-ndlovu');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await waitFor(
      'the saved social link',
      async () => (await owner.client.request('/api/profile')).body.document.socialLinks.length === 1,
      10_000,
    );
    const visitor = await browser.newPage();
    await visitor.goto(`${system.gatewayUrl}/sizwe`);
    assert.ok(
      await visitor.locator('a[href="https://www.linkedin.com/in/sizwe-ndlovu"]').count(),
      'the LinkedIn button is on the public page',
    );
    await visitor.close();
  });

  it('shows the subscription and the payment in Billing, and a cancellation keeps DigiSilver to the end of the month', async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    const panel = await section('Billing');
    await panel.getByText('Your membership: DigiSilver').waitFor();
    await panel.getByText(/DigiSilver, R49\.00 per month\. Paid until/).waitFor();
    const row = panel.getByRole('listitem').filter({ hasText: 'R49.00' });
    // The payments are a list of their own, read after the membership.
    await row.first().waitFor();
    assert.equal(await row.count(), 1, 'one payment of R49.00');
    assert.match((await row.textContent()) ?? '', /StatusPaid/);
    await page.screenshot({ path: screenshotPath('billing-active'), fullPage: true });
    // The question is the app's own alert dialog: modal, named by its question, the focus inside on the safe answer
    // and kept there, Escape says no and gives the focus back to the button that asked.
    stopAccepting();
    const cancelButton = panel.getByRole('button', { name: 'Cancel membership' });
    await cancelButton.click();
    const question = page.getByRole('alertdialog', { name: /^Cancel your membership\?/ });
    await question.waitFor();
    assert.equal(await question.getAttribute('aria-modal'), 'true');
    const focused = () =>
      page.evaluate(() => (document.activeElement?.closest('[role="alertdialog"]') ? document.activeElement.textContent : null));
    assert.equal(await focused(), 'Keep membership', 'the focus starts on the safe answer, inside the dialog');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Cancel membership');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Keep membership', 'Tab stays within the dialog');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'Cancel membership', 'and so does Shift+Tab');
    await page.screenshot({ path: screenshotPath('billing-cancel-question') });
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    assert.ok(await cancelButton.evaluate((button) => button === document.activeElement), 'the focus is back on Cancel membership');
    assert.equal(await panel.getByText(/Cancelled: DigiSilver stays until/).count(), 0, 'Escape cancelled nothing');
    assert.equal((await owner.client.request('/api/billing')).body.subscription.status, 'active');
    await cancelButton.click();
    dialogs.push(await answerDialog(page, /^Cancel your membership\?/, 'Cancel membership'));
    assert.ok(
      dialogs.some((d) => d.startsWith('Cancel your membership?')),
      'asked to confirm first',
    );
    await panel.getByText(/Cancelled: DigiSilver stays until/).waitFor();
    assert.equal((await owner.client.request('/api/profile')).body.membership, 'DigiSilver', 'the paid month is kept');
    await page.screenshot({ path: screenshotPath('billing-cancelled'), fullPage: true });
    // The cancelled email (HTML and text): no more charges, the amount in rand, the day DigiSilver ends.
    const mail = await system.mail.waitFor(
      (m) => m.to.includes('sizwe@example.co.za') && m.subject === '[DigiCard] Your DigiSilver membership is cancelled',
    );
    const { paidUntil } = (await owner.client.request('/api/billing')).body.subscription as { paidUntil: string };
    const day = new Date(paidUntil).toLocaleDateString('en-ZA', { timeZone: 'Africa/Johannesburg', dateStyle: 'long' });
    assert.match(mail.text, /PayFast will not charge you again/);
    assert.ok(mail.text.includes(`You keep DigiSilver until ${day}`), mail.text);
    assert.match(mail.text, /Monthly amount: R49\.00 \(no longer charged\)/);
    assert.ok((mail.html ?? '').includes(day) && (mail.html ?? '').includes('R49.00'), 'the HTML says it too');
    await system.mail.waitForCount((m) => m.to.includes('sizwe@example.co.za') && /cancelled/.test(m.subject), 1);
  });
});
