import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CardMessages } from '@digicard/contracts';
import {
  TestSystem,
  launchChromium,
  registerOwner,
  screenshotPath,
  setMembership,
  waitFor,
  type TestOwner,
  sessionCookie,
} from '@digicard/testing';

// A team leader buys a card (PayFast simulator), then hands it to one of their reps in the dashboard's Orders
// without reprinting: the card's /c/{serial} then opens the rep's page. On a 390 px phone.

const PASSWORD = 'karoo solar leader 2026';

describe("a team's card handed to a rep", () => {
  let system: TestSystem;
  let browser: Browser;
  let leader: TestOwner;
  let page: Page;
  let serial: string;

  async function contextFor(who: TestOwner): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.addCookies([sessionCookie(who.client.sessionId!)]);
    return context;
  }

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'gateway'],
    });
    leader = await registerOwner(system, {
      username: 'karoo-lead',
      firstName: 'Ayanda',
      lastName: 'Mthembu',
      email: 'ayanda@karoo-solar.co.za',
      password: PASSWORD,
    });
    // Staff (or a DigiPlatinum subscription) make a team leader: the role in identity, the tier in profiles.
    await system.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE username = 'karoo-lead'`);
    await setMembership(system, 'karoo-lead', 'DigiPlatinum');
    assert.equal(
      (await leader.client.request('/api/session', { body: { email: leader.email, password: PASSWORD } })).body.user.role,
      'teamLeader',
    );
    const added = await leader.client.request('/api/team/reps', {
      body: {
        username: 'sipho-rep',
        firstName: 'Sipho',
        lastName: 'Dlamini',
        email: 'sipho@karoo-solar.co.za',
        tel: '0821234567',
        password: 'karoo sun seller 9',
        leaderPassword: PASSWORD,
      },
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    browser = await launchChromium();
    page = await (await contextFor(leader)).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('the leader pays for a card; /c/{serial} opens the leader’s own page', async () => {
    await page.goto(`${system.gatewayUrl}/accessories/pvc-card`);
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await page.goto(`${system.gatewayUrl}/cart`);
    await page.getByRole('button', { name: 'Checkout with PayFast' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${system.gatewayUrl}/thank-you`);
    const order = await waitFor(
      'the card',
      async () => {
        const orders = (await leader.client.request('/api/order-details')).body.orders as Array<{ cards: Array<{ serial: string }> }>;
        return orders[0]?.cards.length ? orders[0] : null;
      },
      30_000,
    );
    serial = order.cards[0]!.serial;
    const res = await fetch(`${system.gatewayUrl}/c/${serial}`, { redirect: 'manual' });
    assert.match(res.headers.get('location') ?? '', /^\/karoo-lead\b/);
  });

  it('hands the card to the rep in Orders: the card URL lands on the rep’s page, without reprinting', async () => {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Orders' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Orders' });
    await panel.getByText(/^Cards \(1\)$/).click();
    await panel.getByText('Opens the page of: You (karoo-lead)').waitFor();
    await panel.getByLabel(`Give card ${serial} to`).selectOption({ label: 'Sipho Dlamini (sipho-rep)' });
    await panel.getByRole('button', { name: 'Reassign card' }).click();
    await panel.getByText(CardMessages.assigned).waitFor();
    await panel.getByText('Opens the page of: Sipho Dlamini (sipho-rep)').waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'the Orders section fits 390 px');
    await page.screenshot({ path: screenshotPath('card-reassigned-390'), fullPage: true });

    // Someone taps the card: the rep's page opens (the view counted as the card's).
    await page.goto(`${system.gatewayUrl}/c/${serial}`);
    await page.waitForURL((url) => url.pathname === '/sipho-rep');
    await page.getByRole('heading', { name: 'Sipho Dlamini' }).waitFor();
    // The order is the same one (no reprint), and the move is in the card's history.
    const orders = (await leader.client.request('/api/order-details')).body.orders as Array<{
      cards: Array<{ serial: string; assignedTo: string | null }>;
    }>;
    assert.equal(orders.length, 1);
    assert.equal(orders[0]!.cards[0]!.serial, serial);
    const history = await system.sql<{ by_account_id: string }>('SELECT by_account_id FROM orders.card_assignments WHERE serial = $1', [
      serial,
    ]);
    assert.deepEqual(
      history.map((h) => h.by_account_id),
      [leader.accountId],
    );
  });

  it('refuses a card of another owner and someone outside the team', async () => {
    const stranger = await registerOwner(system, {
      username: 'stranger',
      firstName: 'Pieter',
      lastName: 'Botha',
      email: 'pieter@example.co.za',
    });
    // A DigiShare owner is refused the route (403); a leader with no claim on the card gets 404 for it.
    assert.equal(
      (await stranger.client.request(`/api/cards/${serial}/assignee`, { method: 'PUT', body: { accountId: stranger.accountId } })).status,
      403,
    );
    await system.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1`, [stranger.accountId]);
    await setMembership(system, 'stranger', 'DigiPlatinum');
    assert.equal(
      (await stranger.client.request('/api/session', { body: { email: stranger.email, password: stranger.password } })).status,
      200,
    );
    assert.equal(
      (await stranger.client.request(`/api/cards/${serial}/assignee`, { method: 'PUT', body: { accountId: stranger.accountId } })).status,
      404,
    );
    const outside = await leader.client.request(`/api/cards/${serial}/assignee`, {
      method: 'PUT',
      body: { accountId: stranger.accountId },
    });
    assert.deepEqual([outside.status, outside.body.fieldErrors?.accountId], [400, [CardMessages.notInTeam]]);
    const res = await fetch(`${system.gatewayUrl}/c/${serial}`, { redirect: 'manual' });
    assert.match(res.headers.get('location') ?? '', /^\/sipho-rep\b/);
  });
});
