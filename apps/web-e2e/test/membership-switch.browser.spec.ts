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

// An owner on DigiSilver switches to DigiGold under Billing. PayFast (our simulator, real HTTP, signed ITNs) is asked
// for the new recurring amount at once; the tier stays DigiSilver until the next billing date, whose charge (R69.00)
// makes it DigiGold, and DigiGold's content (a video) is then accepted and shown. As in membership-lapse, a month
// passes by moving the row that says when the next charge is due, and the simulator charges on demand.

const video = 'https://example.com/sizakele-intro';

describe('an owner switches from DigiSilver to DigiGold from the next billing date', () => {
  let system: TestSystem;
  let browser: Browser;
  let page: Page;
  let owner: TestOwner;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'orders', 'payments', 'notifications', 'gateway'],
    });
    owner = await registerOwner(system, {
      username: 'sizakele',
      firstName: 'Sizakele',
      lastName: 'Zungu',
      email: 'sizakele@example.co.za',
    });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    page = await context.newPage();
    acceptDialogs(page, []);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const section = async (name: string) => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name }).click();
    return page.getByRole('tabpanel', { name });
  };
  const membership = async () => (await owner.client.request('/api/profile')).body.membership as string;
  const saveVideo = async () => {
    const profile = (await owner.client.request('/api/profile')).body;
    return owner.client.request('/api/profile', { method: 'PUT', body: { document: { ...profile.document, videoLink: video } } });
  };
  const publicVideoLinks = async () => {
    const visitor = await browser.newPage();
    await visitor.goto(`${system.gatewayUrl}/sizakele`);
    const count = await visitor.locator(`a[href="${video}"]`).count();
    await visitor.close();
    return count;
  };
  const simSubscription = async (token: string) =>
    ((await (await fetch(`${system.payfastUrl}/_sim/subscriptions`)).json()) as Array<{ token: string; recurringCents: number }>).find(
      (s) => s.token === token,
    );

  it('pays DigiSilver through the simulator; video stays locked', async () => {
    const billing = await section('Billing');
    await billing.getByRole('button', { name: 'Choose DigiSilver' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${system.gatewayUrl}/dashboard?section=billing`);
    await waitFor('DigiSilver', async () => (await membership()) === 'DigiSilver', 20_000);
    const business = await section('Business Information');
    await business.getByText('Upgrade to DigiGold to unlock video!').waitFor();
    assert.equal((await saveVideo()).status, 403, 'DigiSilver may not store a video');
  });

  it('switches to DigiGold under Billing: PayFast charges R69.00 from the next billing date, and DigiSilver stays until then', async () => {
    const billing = await section('Billing');
    await billing.getByText('Your membership: DigiSilver').waitFor();
    const { nextBillingDate } = (await owner.client.request('/api/billing')).body.subscription as { nextBillingDate: string };
    assert.match(nextBillingDate, /^\d{4}-\d{2}-\d{2}$/);
    const switchButton = billing.getByRole('button', { name: /^Switch to DigiGold \(R69\.00 per month\) from / });
    await switchButton.click();
    await billing.getByText(/^From .+ your membership is DigiGold\.$/).waitFor();
    await page.screenshot({ path: screenshotPath('billing-switch-pending'), fullPage: true });
    const [row] = await system.sql<{ token: string; tier: string; next_tier: string }>(
      'SELECT token, tier, next_tier FROM payments.subscriptions WHERE account_id = $1',
      [owner.accountId],
    );
    assert.deepEqual({ tier: row!.tier, next_tier: row!.next_tier }, { tier: 'DigiSilver', next_tier: 'DigiGold' });
    assert.equal((await simSubscription(row!.token))?.recurringCents, 6900, 'PayFast now charges R69.00 a month');
    // Before the next billing date: still DigiSilver, and DigiGold content is still refused and hidden.
    assert.equal(await membership(), 'DigiSilver');
    assert.equal((await saveVideo()).status, 403);
    assert.match((await billing.textContent()) ?? '', /Your membership: DigiSilver/);
  });

  it('the charge of the next billing date pays R69.00 and makes the membership DigiGold: the video is accepted and shown', async () => {
    const [row] = await system.sql<{ token: string }>('SELECT token FROM payments.subscriptions WHERE account_id = $1', [owner.accountId]);
    // A month has passed: the next charge (the simulator's, dated today) is due today.
    await system.sql('UPDATE payments.subscriptions SET next_billing_date = current_date, paid_until = now() WHERE account_id = $1', [
      owner.accountId,
    ]);
    const charge = await fetch(`${system.payfastUrl}/_sim/subscriptions/${row!.token}/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'COMPLETE' }),
    });
    const answer = await charge.text();
    assert.equal(charge.status, 200, answer);
    assert.equal((JSON.parse(answer) as { itn: { fields: Record<string, string> } }).itn.fields['amount_gross'], '69.00');
    await waitFor('DigiGold on the profile', async () => (await membership()) === 'DigiGold', 20_000);

    const billing = await section('Billing');
    await billing.getByText('Your membership: DigiGold').waitFor();
    await billing.getByText(/DigiGold, R69\.00 per month\. Paid until/).waitFor();
    // The payments are a list of their own, read after the membership.
    await billing.getByRole('listitem').filter({ hasText: 'R69.00' }).first().waitFor();
    assert.equal(await billing.getByRole('listitem').filter({ hasText: 'R69.00' }).count(), 1, 'the R69.00 charge is listed');
    assert.equal(await billing.getByRole('listitem').filter({ hasText: 'R49.00' }).count(), 1, 'the DigiSilver month stays listed');
    assert.equal(
      await billing.getByRole('button', { name: /^Switch to DigiSilver \(R49\.00 per month\)/ }).count(),
      1,
      'and back is offered',
    );
    await page.screenshot({ path: screenshotPath('billing-switched-gold'), fullPage: true });
    const receipt = await system.mail.waitFor(
      (m) => m.to.includes('sizakele@example.co.za') && m.subject === '[DigiCard] Your DigiGold membership is paid',
    );
    assert.match(receipt.text, /Amount: R69\.00/);

    const business = await section('Business Information');
    await business.getByLabel('Video link').waitFor();
    assert.equal((await saveVideo()).status, 200, 'DigiGold may store a video');
    await waitFor('the video on the public page', async () => (await publicVideoLinks()) > 0, 10_000);
  });
});
