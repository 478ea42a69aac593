import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { TestSystem, launchChromium, registerOwner, screenshotPath, waitFor, type TestOwner, sessionCookie } from '@digicard/testing';

// A signed-in owner buys two PVC cards: the basket, PayFast (our simulator, signed ITN on the wire), the thank-you
// page, the order paid in the dashboard, and the receipt in the mailbox.

describe('an owner buys two NFC cards', () => {
  let system: TestSystem;
  let browser: Browser;
  let page: Page;
  let owner: TestOwner;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'orders', 'payments', 'notifications', 'gateway'],
    });
    owner = await registerOwner(system, { username: 'amahle', firstName: 'Amahle', lastName: 'Zulu', email: 'amahle@example.co.za' });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('puts two PVC cards in the basket and pays R738.00 at PayFast', async () => {
    await page.goto(`${system.gatewayUrl}/accessories/pvc-card`);
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await page.goto(`${system.gatewayUrl}/cart`);
    await page.getByRole('button', { name: 'Increase quantity of PVC NFC Card' }).click();
    await page.getByText('Total: R738.00').waitFor();
    await page.getByRole('button', { name: 'Checkout with PayFast' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
    await page.getByText('R 738.00').first().waitFor();
    await page.screenshot({ path: screenshotPath('payfast-simulator-order'), fullPage: true });
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${system.gatewayUrl}/thank-you`);
    await page.getByRole('heading', { name: 'Thank you for your order.' }).waitFor();
    await page.screenshot({ path: screenshotPath('thank-you'), fullPage: true });
  });

  it('empties the basket, marks the order paid and emails the receipt', async () => {
    await page.goto(`${system.gatewayUrl}/cart`);
    await page.getByText('No Accessories selected.').waitFor();
    const order = await waitFor(
      'the order to be paid',
      async () => {
        const { body } = await owner.client.request('/api/orders');
        // Paid, then (once the print proof is rendered, a second or so later) proof ready.
        return ['paid', 'proof-ready'].includes(body.orders?.[0]?.status) ? body.orders[0] : null;
      },
      20_000,
    );
    assert.equal(order.totalCents, 73_800);
    assert.deepEqual(
      order.lines.map((l: { itemId: string; quantity: number }) => [l.itemId, l.quantity]),
      [['pvc-card', 2]],
    );
    const receipt = await system.mail.waitFor(
      (m) => m.to.includes('amahle@example.co.za') && m.subject.includes(order.reference) && m.subject.endsWith(': thank you'),
    );
    assert.match(receipt.text, /2 x PVC NFC Card in Black at R369\.00: R738\.00/);
    assert.match(receipt.text, /Total: R738\.00/);
    assert.match(receipt.text, /approve the proof, or ask for changes/);
    assert.doesNotMatch(receipt.text, /get in touch/);
  });

  it('shows the paid order in the dashboard’s Accessories Cart, and nobody else sees it', async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Accessories Cart' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Accessories Cart' });
    const row = panel.getByRole('listitem').filter({ hasText: 'R738.00' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /Status(Paid: we will send you the print proof|Proof ready: see Orders)/);
    await page.screenshot({ path: screenshotPath('dashboard-orders'), fullPage: true });
    const other = await registerOwner(system, {
      username: 'thabiso',
      firstName: 'Thabiso',
      lastName: 'Mokoena',
      email: 'thabiso@example.co.za',
    });
    const { body } = await owner.client.request('/api/orders');
    assert.equal((await other.client.request(`/api/orders/${body.orders[0].id}`)).status, 404);
    assert.deepEqual((await other.client.request('/api/orders')).body.orders, []);
    assert.equal((await other.client.request(`/api/orders/${body.orders[0].id}/payment`, { method: 'POST' })).status, 404);
  });
});
