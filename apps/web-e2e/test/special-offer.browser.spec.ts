import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  acceptDialogs,
  ApiClient,
  takeDialogs,
  launchChromium,
  registerOwner,
  screenshotPath,
  TestSystem,
  waitFor,
  sessionCookie,
  SESSION_COOKIE_NAME,
} from '@digicard/testing';

// The special offer (issue 9): a visitor opens the PVC special, adds it to the basket, signs up on /registration,
// lands on /verify-email (no session: decisions.md) with the special gone from the basket: its order is on the
// server. The emailed link is opened on another device (a new browser context, empty basket): it signs in and offers
// "Pay for your cards", R899.00 at PayFast (our simulator, signed ITN on the wire), then /thank-you. The order is
// paid, the membership is DigiGold for a year, the receipt arrives. An email already registered gets exactly the
// same pages, nothing is created, and its owner is emailed. In the dashboard's Orders section an owner pays one
// order still awaiting payment and cancels another.

const JOINED =
  'Thanks for joining! Please verify your email address: we have sent you a link. It signs you in, on this device or another, and then you pay for your cards at PayFast.';

describe('a visitor buys the PVC special with a year of DigiGold', () => {
  let system: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** The device the verification link is opened on: no basket, no session until the link. */
  let other: BrowserContext;
  let otherPage: Page;
  const alerts: string[] = [];
  const person = {
    username: 'naledi',
    firstName: 'Naledi',
    lastName: 'Mthembu',
    email: 'naledi@example.co.za',
    password: 'a quiet harbour at dawn',
  };

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'orders', 'payments', 'notifications', 'gateway'],
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    acceptDialogs(page, alerts);
    other = await browser.newContext({ viewport: { width: 390, height: 844 } });
    otherPage = await other.newPage();
    acceptDialogs(otherPage, alerts);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('adds the special (the alert) and opens /registration with the special price, the total and the sign-up form', async () => {
    await page.goto(`${system.gatewayUrl}/specials/pvc-special`);
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await page.waitForURL(`${system.gatewayUrl}/registration`);
    assert.deepEqual(await takeDialogs(alerts), ['Your cards have been added to your basket.']);
    const main = page.getByRole('main');
    await main.getByText('Total: R899.00').waitFor();
    await main.getByText('PVC NFC Card Special').waitFor();
    for (const label of ['Username', 'First Name', 'Last Name', 'Email', 'Password'])
      assert.ok(await main.getByLabel(label).isVisible(), label);
    await page.screenshot({ path: screenshotPath('special-registration'), fullPage: true });
  });

  it('signs up, says so, and shows the verify-email page signed out; the link, opened on another device, signs in and pays R899.00 at PayFast; back on /thank-you', async () => {
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
    assert.deepEqual(await takeDialogs(alerts), [JOINED]);
    await page.getByText('Thank you for registering your DigiCard Business Card.').waitFor();
    assert.equal(
      (await context.cookies()).find((c) => c.name === SESSION_COOKIE_NAME),
      undefined,
      'no session before the email is confirmed',
    );
    await page.screenshot({ path: screenshotPath('special-registered-verify-email'), fullPage: true });
    // The special left this browser's basket: its order is on the server now.
    await page.goto(`${system.gatewayUrl}/registration`);
    await page.getByRole('main').getByText('No specials selected.').waitFor();

    const mail = await system.mail.waitFor((m) => m.to.includes(person.email) && m.subject === 'Verify your email address for DigiCard');
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    assert.ok(token, 'a verification link');
    await otherPage.goto(`${system.gatewayUrl}/verify-email?token=${token}`);
    await otherPage.getByText('Your email address is verified. You can now share your profile.').waitFor();
    assert.ok(
      (await other.cookies()).find((c) => c.name === SESSION_COOKIE_NAME),
      'the link signed this device in',
    );
    const unpaid = otherPage.getByRole('region', { name: 'Your order awaits payment' });
    await unpaid.getByText(/^Order DC-[2-9A-Z]{6}: PVC NFC Card Special$/).waitFor();
    await unpaid.getByText('R899.00').waitFor();
    await otherPage.screenshot({ path: screenshotPath('special-verified-pay-for-cards'), fullPage: true });
    await unpaid.getByRole('button', { name: 'Pay for your cards' }).click();
    await otherPage.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
    assert.deepEqual(await takeDialogs(alerts), ['You will now go to PayFast to pay for your cards.']);
    await otherPage.getByText('R 899.00').first().waitFor();
    await otherPage.screenshot({ path: screenshotPath('payfast-simulator-special'), fullPage: true });
    await otherPage.getByRole('button', { name: 'Pay' }).click();
    await otherPage.waitForURL(`${system.gatewayUrl}/thank-you`);
    await otherPage.getByRole('heading', { name: 'Thank you for your order.' }).waitFor();
  });

  it('marks the order paid, makes the membership DigiGold for a year, and sends the receipt', async () => {
    const cookie = (await other.cookies()).find((c) => c.name === SESSION_COOKIE_NAME);
    assert.ok(cookie, 'the verification link signed the device in');
    const client = new ApiClient(system.gatewayUrl);
    client.cookie = `${cookie.name}=${cookie.value}`;
    const order = await waitFor(
      'the order to be paid',
      async () => {
        const { body } = await client.request('/api/orders');
        return ['paid', 'proof-ready'].includes(body.orders?.[0]?.status) ? body.orders[0] : null;
      },
      20_000,
    );
    assert.equal(order.totalCents, 89_900);
    assert.deepEqual(
      order.lines.map((l: { itemId: string; includedGoldMonths: number }) => [l.itemId, l.includedGoldMonths]),
      [['pvc-special', 12]],
    );
    await waitFor('DigiGold on the profile', async () => (await client.request('/api/profile')).body?.membership === 'DigiGold', 20_000);
    const billing = (await client.request('/api/billing')).body;
    assert.equal(billing.membership, 'DigiGold');
    assert.equal(billing.subscription.status, 'active');
    const yearOut = Date.now() + 360 * 86_400_000;
    assert.ok(new Date(billing.subscription.paidUntil).getTime() > yearOut, `paid until ${billing.subscription.paidUntil}`);
    assert.ok(new Date(billing.subscription.nextBillingDate).getTime() > yearOut);
    const receipt = await system.mail.waitFor(
      (m) => m.to.includes(person.email) && m.subject.includes(order.reference) && m.subject.endsWith(': thank you'),
    );
    assert.match(receipt.text, /PVC NFC Card Special/);
    assert.match(receipt.text, /Total: R899\.00/);

    await otherPage.goto(`${system.gatewayUrl}/dashboard`);
    await otherPage.getByRole('tab', { name: 'Billing' }).click();
    await otherPage.getByRole('tabpanel', { name: 'Billing' }).getByText('Your membership: DigiGold').waitFor();
    await otherPage.screenshot({ path: screenshotPath('special-dashboard-billing'), fullPage: true });
  });

  it('an email already registered: the same alert and verify-email page, no session, nothing created; its owner is emailed', async () => {
    const existing = await registerOwner(system, {
      username: 'kagiso',
      firstName: 'Kagiso',
      lastName: 'Molefe',
      email: 'kagiso@example.co.za',
    });
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await visitor.newPage();
    const seen: string[] = [];
    acceptDialogs(phone, seen);
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
    assert.deepEqual((await takeDialogs(seen, 2)).slice(1), [JOINED], 'the alert a new email gets');
    assert.ok(!(await phone.getByText(/already exists/).isVisible()));
    assert.equal(
      (await visitor.cookies()).find((c) => c.name === SESSION_COOKIE_NAME),
      undefined,
      'no session, as for a new email',
    );
    await phone.screenshot({ path: screenshotPath('special-registration-email-taken'), fullPage: true });

    const warning = await system.mail.waitFor((m) => m.to.includes('kagiso@example.co.za') && /tried to register/.test(m.subject));
    assert.equal(warning.subject, '[DigiCard] Someone tried to register with your email address');
    assert.match(warning.text, /Hi Kagiso, someone tried to create a new DigiCard account with this email address/);
    assert.match(warning.text, /Reset Password/);
    assert.deepEqual((await existing.client.request('/api/orders')).body.orders, []);
    assert.deepEqual((await existing.client.request('/api/billing')).body.subscription, null);
    assert.deepEqual(await system.sql("SELECT 1 FROM identity.accounts WHERE username = 'kagiso-two'"), []);
    assert.deepEqual(await system.sql('SELECT 1 FROM payments.subscriptions WHERE account_id = $1', [existing.accountId]), []);
    await visitor.close();
  });

  it('in the dashboard’s Orders section an owner cancels one order awaiting payment and pays another at PayFast', async () => {
    const owner = await registerOwner(system, { username: 'thabo', firstName: 'Thabo', lastName: 'Nkosi', email: 'thabo@example.co.za' });
    // Two checkouts left at PayFast's page (as when the buyer closed the tab): both await payment.
    for (const id of ['bamboo-card', 'pvc-card'])
      assert.equal((await owner.client.request('/api/orders', { body: { items: [{ id, quantity: 1 }] } })).status, 201);
    const [pvc, bamboo] = (await owner.client.request('/api/orders')).body.orders;
    assert.deepEqual([pvc.lines[0].itemId, bamboo.lines[0].itemId], ['pvc-card', 'bamboo-card']);

    const device = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await device.addCookies([sessionCookie(owner.client.sessionId!)]);
    const tab = await device.newPage();
    const asked: string[] = [];
    acceptDialogs(tab, asked, ['Cancel order']);
    await tab.goto(`${system.gatewayUrl}/dashboard`);
    await tab.getByRole('tab', { name: 'Orders' }).click();
    const panel = tab.getByRole('tabpanel', { name: 'Orders' });
    const orderOf = (reference: string) =>
      panel.getByRole('listitem').filter({ has: tab.getByRole('heading', { name: `Order ${reference}` }) });
    await orderOf(bamboo.reference).getByText('Awaiting payment', { exact: true }).waitFor();
    await orderOf(pvc.reference).getByText('Awaiting payment', { exact: true }).waitFor();
    await tab.screenshot({ path: screenshotPath('orders-awaiting-payment'), fullPage: true });

    await orderOf(bamboo.reference).getByRole('button', { name: 'Cancel order' }).click();
    await orderOf(bamboo.reference).getByText('Cancelled', { exact: true }).waitFor();
    assert.deepEqual(await takeDialogs(asked), [`Cancel order ${bamboo.reference}? Nothing has been paid, so nothing is charged.`]);
    assert.equal(await orderOf(bamboo.reference).getByRole('button', { name: 'Pay with PayFast' }).count(), 0);
    const cancelledMail = await system.mail.waitFor(
      (m) => m.to.includes('thabo@example.co.za') && m.subject.includes(`order ${bamboo.reference}`) && /cancelled/.test(m.subject),
    );
    assert.match(cancelledMail.subject, /Your order is cancelled/);
    assert.match(cancelledMail.text, /Hi Thabo, nothing was paid for it, so nothing is charged\./);

    await orderOf(pvc.reference).getByRole('button', { name: 'Pay with PayFast' }).click();
    await tab.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
    assert.deepEqual(await takeDialogs(asked), ['You will now go to PayFast to pay for your cards.']);
    await tab
      .getByText(`R ${(pvc.totalCents / 100).toFixed(2)}`)
      .first()
      .waitFor();
    await tab.getByRole('button', { name: 'Pay' }).click();
    await tab.waitForURL(`${system.gatewayUrl}/thank-you`);
    const statuses = await waitFor(
      'the PVC order paid',
      async () => {
        const orders: Array<{ id: string; status: string }> = (await owner.client.request('/api/orders')).body.orders;
        const byId = new Map(orders.map((o) => [o.id, o.status]));
        return byId.get(pvc.id) !== 'awaiting-payment' ? byId : null;
      },
      20_000,
    );
    assert.ok(['paid', 'proof-ready'].includes(statuses.get(pvc.id)!), statuses.get(pvc.id));
    assert.equal(statuses.get(bamboo.id), 'cancelled');
    await device.close();
  });
});
