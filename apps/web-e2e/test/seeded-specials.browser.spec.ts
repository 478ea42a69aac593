import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import {
  acceptDialogs,
  takeDialogs,
  launchChromium,
  registerOwner,
  screenshotPath,
  TestSystem,
  waitFor,
  sessionCookie,
} from '@digicard/testing';

// Every seeded special is bought from its ADD TO CART to the PayFast simulator's payment (issue 25 item 2: the Bamboo
// special, which includes no DigiGold, used to be refused as "not a special" while the page promised a year of
// DigiGold). Each page says exactly what the special includes, and the payment grants exactly that.

/** The seeded specials (apps/orders/drizzle/0002_seed-catalogue.sql) and what each promises and grants. */
const SEEDED_SPECIALS = [
  {
    id: 'pvc-special',
    name: 'PVC NFC Card Special',
    price: 'R899.00',
    atPayFast: 'R 899.00',
    cents: 89_900,
    includes: 'Includes 12 months of DigiGold.',
    membership: 'DigiGold',
  },
  {
    id: 'bamboo-special',
    name: 'Bamboo NFC Card Special',
    price: 'R1,099.00',
    atPayFast: 'R 1 099.00',
    cents: 109_900,
    includes: 'The card only: no DigiGold membership is included.',
    membership: 'DigiShare',
  },
  {
    id: 'ssteel-special',
    name: 'Stainless Steel NFC Card Special',
    price: 'R1,199.00',
    atPayFast: 'R 1 199.00',
    cents: 119_900,
    includes: 'Includes 12 months of DigiGold.',
    membership: 'DigiGold',
  },
] as const;

const LEAD = {
  DigiGold: 'Your cards, with 12 months of DigiGold included. After the year, DigiGold is R69.00 a month until you cancel.',
  DigiShare: 'Your cards at their special price. No DigiGold membership is included: you stay on your current package.',
} as const;

describe('every seeded special can be bought, from ADD TO CART to payment at PayFast', () => {
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

  it('the shop serves exactly these specials, and the pricing page says what each includes', async () => {
    const { items } = (await system.client().request('/api/catalogue')).body as {
      items: Array<{ id: string; kind: string; includedGoldMonths: number }>;
    };
    assert.deepEqual(
      items.filter((i) => i.kind === 'special').map((i) => [i.id, i.includedGoldMonths]),
      SEEDED_SPECIALS.map((s) => [s.id, s.membership === 'DigiGold' ? 12 : 0]),
    );
    // The pricing page's tile of each says what it includes, as its own page does.
    const visitor = await browser.newPage();
    await visitor.goto(`${system.gatewayUrl}/pricing`);
    for (const special of SEEDED_SPECIALS) {
      const tile = visitor.getByRole('listitem').filter({ has: visitor.getByRole('link', { name: special.name, exact: true }) });
      assert.ok(await tile.getByText(special.includes, { exact: true }).isVisible(), `${special.name}: ${special.includes}`);
    }
    await visitor.close();
  });

  it.each(SEEDED_SPECIALS)(
    '$name: its page and /registration say what it includes; paid at PayFast, it grants exactly that',
    async (special) => {
      const username = special.id.replace('-special', '-buyer');
      const owner = await registerOwner(system, { username, firstName: 'Lindiwe', lastName: 'Zulu', email: `${username}@example.co.za` });
      const device = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await device.addCookies([sessionCookie(owner.client.sessionId!)]);
      const page = await device.newPage();
      const alerts: string[] = [];
      acceptDialogs(page, alerts);

      await page.goto(`${system.gatewayUrl}/specials/${special.id}`);
      await page.getByRole('main').getByText(special.includes, { exact: true }).waitFor();
      await page.getByRole('button', { name: 'ADD TO CART' }).click();
      await page.waitForURL(`${system.gatewayUrl}/registration`);
      const main = page.getByRole('main');
      await main.getByText(`Total: ${special.price}`).waitFor();
      const lines = main.getByRole('list', { name: 'Your specials' });
      assert.match(await lines.innerText(), new RegExp(`^${special.name}`));
      assert.ok(await lines.getByText(special.includes, { exact: true }).isVisible(), special.includes);
      assert.ok(await main.getByText(LEAD[special.membership], { exact: true }).isVisible(), LEAD[special.membership]);
      if (special.membership === 'DigiShare')
        assert.equal(await main.getByText(/12 months of DigiGold/).count(), 0, 'no DigiGold year promised');
      await page.screenshot({ path: screenshotPath(`special-${special.id}-registration`), fullPage: true });

      await main.getByRole('button', { name: 'Pay with PayFast' }).click();
      await page.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
      assert.deepEqual(await takeDialogs(alerts, 2), [
        'Your cards have been added to your basket.',
        'You will now go to PayFast to pay for your cards.',
      ]);
      await page.getByText(special.atPayFast).first().waitFor();
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(`${system.gatewayUrl}/thank-you`);
      await page.getByRole('heading', { name: 'Thank you for your order.' }).waitFor();

      const order = await waitFor(
        `the ${special.id} order to be paid`,
        async () => {
          const { body } = await owner.client.request('/api/orders');
          return ['paid', 'proof-ready'].includes(body.orders?.[0]?.status) ? body.orders[0] : null;
        },
        20_000,
      );
      assert.equal(order.totalCents, special.cents);
      assert.deepEqual(
        order.lines.map((l: { itemId: string; kind: string }) => [l.itemId, l.kind]),
        [[special.id, 'special']],
      );
      if (special.membership === 'DigiGold') {
        await waitFor(
          'DigiGold on the profile',
          async () => (await owner.client.request('/api/profile')).body?.membership === 'DigiGold',
          20_000,
        );
        const billing = (await owner.client.request('/api/billing')).body;
        assert.equal(billing.subscription.status, 'active');
        assert.ok(
          new Date(billing.subscription.nextBillingDate).getTime() > Date.now() + 360 * 86_400_000,
          billing.subscription.nextBillingDate,
        );
      } else {
        const billing = (await owner.client.request('/api/billing')).body;
        assert.equal(billing.membership, 'DigiShare');
        assert.equal(billing.subscription, null);
        assert.equal((await owner.client.request('/api/profile')).body.membership, 'DigiShare');
      }
      await device.close();
    },
  );
});
