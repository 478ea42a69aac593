import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiClient, TestSystem, launchChromium, registerOwner, screenshotPath, waitFor } from '@digicard/testing';

// The special offer (issue 9): a visitor opens the PVC special, adds it to the basket, signs up on /registration,
// lands on /verify-email (no session: decisions.md), opens the emailed link (which signs in), comes back to pay
// R899.00 at PayFast (our simulator, signed ITN on the wire) and is back on /thank-you. The order is paid, the
// membership is DigiGold for a year, the receipt arrives. An email already registered gets exactly the same pages,
// nothing is created, and its owner is emailed.

const SESSION_COOKIE = '__Host-digicard_session';
const JOINED = 'Thanks for joining! Please verify your email address: we have sent you a link. It signs you in, and brings you back here to pay for your cards at PayFast.';

describe('a visitor buys the PVC special with a year of DigiGold', () => {
  let system: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const alerts: string[] = [];
  const person = { username: 'naledi', firstName: 'Naledi', lastName: 'Mthembu', email: 'naledi@example.co.za', password: 'a quiet harbour at dawn' };

  beforeAll(async () => {
    system = await TestSystem.start({ apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'orders', 'payments', 'notifications', 'gateway'] });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('adds the special (the alert) and opens /registration with the special price, the total and the sign-up form', async () => {
    await page.goto(`${system.gatewayUrl}/specials/pvc-special`);
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await page.waitForURL(`${system.gatewayUrl}/registration`);
    assert.deepEqual(alerts.splice(0), ['Your cards have been added to your basket.']);
    const main = page.getByRole('main');
    await main.getByText('Total: R899.00').waitFor();
    assert.ok(await main.getByText('PVC NFC Card Special').isVisible());
    for (const label of ['Username', 'First Name', 'Last Name', 'Email', 'Password']) assert.ok(await main.getByLabel(label).isVisible(), label);
    await page.screenshot({ path: screenshotPath('special-registration'), fullPage: true });
  });

  it('signs up, says so, and shows the verify-email page signed out; the emailed link signs in and leads to pay R899.00 at PayFast; back on /thank-you', async () => {
    const main = page.getByRole('main');
    await main.getByRole('button', { name: 'Register and pay' }).click();
    await main.getByText('Please choose a username.').waitFor();
    await main.getByLabel('Username').fill(person.username);
    await main.getByLabel('First Name').fill(person.firstName);
    await main.getByLabel('Last Name').fill(person.lastName);
    await main.getByLabel('Email').fill(person.email);
    await main.getByLabel('Password').fill(person.password);
    await main.getByRole('button', { name: 'Register and pay' }).click();
    await page.waitForURL(`${system.gatewayUrl}/verify-email`);
    assert.deepEqual(alerts.splice(0), [JOINED]);
    await page.getByText('Thank you for registering your DigiCard Business Card.').waitFor();
    assert.equal((await context.cookies()).find((c) => c.name === SESSION_COOKIE), undefined, 'no session before the email is confirmed');
    await page.screenshot({ path: screenshotPath('special-registered-verify-email'), fullPage: true });

    const mail = await system.mail.waitFor((m) => m.to.includes(person.email) && m.subject === 'Verify your email address for DigiCard');
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    assert.ok(token, 'a verification link');
    await page.goto(`${system.gatewayUrl}/verify-email?token=${token}`);
    await page.getByText('Your email address is verified. You can now share your profile.').waitFor();
    assert.ok((await context.cookies()).find((c) => c.name === SESSION_COOKIE), 'the link signed the browser in');
    await page.getByRole('link', { name: 'Pay for your cards' }).click();
    await page.waitForURL(`${system.gatewayUrl}/registration`);
    await main.getByText('Total: R899.00').waitFor();
    await main.getByRole('button', { name: 'Pay with PayFast' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
    assert.deepEqual(alerts.splice(0), ['You will now go to PayFast to pay for your cards.']);
    await page.getByText('R 899.00').first().waitFor();
    await page.screenshot({ path: screenshotPath('payfast-simulator-special'), fullPage: true });
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${system.gatewayUrl}/thank-you`);
    await page.getByRole('heading', { name: 'Thank you for your order.' }).waitFor();
  });

  it('marks the order paid, makes the membership DigiGold for a year, and sends the receipt', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
    assert.ok(cookie, 'the verification link signed the browser in');
    const client = new ApiClient(system.gatewayUrl);
    client.cookie = `${cookie.name}=${cookie.value}`;
    const order = await waitFor('the order to be paid', async () => {
      const { body } = await client.request('/api/orders');
      return ['paid', 'proof-ready'].includes(body.orders?.[0]?.status) ? body.orders[0] : null;
    }, 20_000);
    assert.equal(order.totalCents, 89_900);
    assert.deepEqual(order.lines.map((l: { itemId: string; includedGoldMonths: number }) => [l.itemId, l.includedGoldMonths]), [['pvc-special', 12]]);
    await waitFor('DigiGold on the profile', async () => (await client.request('/api/profile')).body?.membership === 'DigiGold', 20_000);
    const billing = (await client.request('/api/billing')).body;
    assert.equal(billing.membership, 'DigiGold');
    assert.equal(billing.subscription.status, 'active');
    const yearOut = Date.now() + 360 * 86_400_000;
    assert.ok(new Date(billing.subscription.paidUntil).getTime() > yearOut, `paid until ${billing.subscription.paidUntil}`);
    assert.ok(new Date(billing.subscription.nextBillingDate).getTime() > yearOut);
    const receipt = await system.mail.waitFor((m) => m.to.includes(person.email) && m.subject.includes(order.reference) && m.subject.endsWith(': thank you'));
    assert.match(receipt.text, /PVC NFC Card Special/);
    assert.match(receipt.text, /Total: R899\.00/);

    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Billing' }).click();
    await page.getByRole('tabpanel', { name: 'Billing' }).getByText('Your membership: DigiGold').waitFor();
    await page.screenshot({ path: screenshotPath('special-dashboard-billing'), fullPage: true });
  });

  it('an email already registered: the same alert and verify-email page, no session, nothing created; its owner is emailed', async () => {
    const existing = await registerOwner(system, { username: 'kagiso', firstName: 'Kagiso', lastName: 'Molefe', email: 'kagiso@example.co.za' });
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await visitor.newPage();
    const seen: string[] = [];
    phone.on('dialog', (dialog) => {
      seen.push(dialog.message());
      void dialog.accept();
    });
    await phone.goto(`${system.gatewayUrl}/specials/pvc-special`);
    await phone.getByRole('button', { name: 'ADD TO CART' }).click();
    await phone.waitForURL(`${system.gatewayUrl}/registration`);
    const main = phone.getByRole('main');
    await main.getByLabel('Username').fill('kagiso-two');
    await main.getByLabel('First Name').fill('Kagiso');
    await main.getByLabel('Last Name').fill('Molefe');
    await main.getByLabel('Email').fill('kagiso@example.co.za');
    await main.getByLabel('Password').fill('another quiet harbour');
    await main.getByRole('button', { name: 'Register and pay' }).click();
    await phone.waitForURL(`${system.gatewayUrl}/verify-email`);
    await phone.getByText('Thank you for registering your DigiCard Business Card.').waitFor();
    assert.deepEqual(seen.slice(1), [JOINED], 'the alert a new email gets');
    assert.ok(!(await phone.getByText(/already exists/).isVisible()));
    assert.equal((await visitor.cookies()).find((c) => c.name === SESSION_COOKIE), undefined, 'no session, as for a new email');
    await phone.screenshot({ path: screenshotPath('special-registration-email-taken'), fullPage: true });

    const warning = await system.mail.waitFor((m) => m.to.includes('kagiso@example.co.za') && /tried to register/.test(m.subject));
    assert.equal(warning.subject, '[DigiCard] Someone tried to register with your email address');
    assert.match(warning.text, /Hi Kagiso, someone tried to create a new DigiCard account with this email address/);
    assert.match(warning.text, /Reset Password/);
    assert.deepEqual((await existing.client.request('/api/orders')).body.orders, []);
    assert.deepEqual((await existing.client.request('/api/billing')).body.subscription, null);
    assert.deepEqual(await system.sql("SELECT 1 FROM identity.accounts WHERE username = 'kagiso-two'"), []);
    assert.deepEqual(await system.sql("SELECT 1 FROM payments.subscriptions WHERE account_id = $1", [existing.accountId]), []);
    await visitor.close();
  });
});
