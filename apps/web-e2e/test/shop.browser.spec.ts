import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  acceptDialogs,
  takeDialogs,
  launchChromium,
  registerOwner,
  screenshotPath,
  TestSystem,
  titleOf,
  sessionCookie,
} from '@digicard/testing';

const viewports = [
  { name: 'phone', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
] as const;

describe('the marketing site and the shop, on a phone and a desktop', () => {
  let system: TestSystem;
  let browser: Browser;

  beforeAll(async () => {
    // Payments serves the membership plans the pricing page shows (the gateway renders it with them).
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'orders', 'payments', 'gateway'] });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const url = (path: string) => `${system.gatewayUrl}${path}`;
  const noOverflow = async (page: Page, what: string) => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, `${what} is wider than the screen`);
  };

  for (const device of viewports) {
    it(`${device.name}: every page answers with its title, description and texts`, async () => {
      const context: BrowserContext = await browser.newContext({
        viewport: device.viewport,
        isMobile: device.isMobile,
        hasTouch: device.hasTouch,
      });
      const page = await context.newPage();
      const visit = async (path: string, title: string, texts: string[], status = 200) => {
        const response = await page.goto(url(path));
        assert.equal(response?.status(), status, path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForFunction((t) => document.title === t, title, { timeout: 10_000 }).catch(() => undefined);
        assert.equal(await titleOf(page, title), title, path);
        const description = await page.locator('meta[name="description"]').getAttribute('content');
        assert.ok(description && description.length > 20, `${path} has a description`);
        for (const text of texts) await page.getByText(text, { exact: false }).first().waitFor({ timeout: 10_000 });
        await noOverflow(page, path);
        await page.screenshot({ path: screenshotPath(`shop-${device.name}${path.replaceAll('/', '-') || '-home'}`), fullPage: true });
      };
      await visit('/pricing', 'Packages | DigiCard', [
        'Special price: R899.00',
        'Normal price: R1,197.00',
        'Special price: R1,099.00',
        'Special price: R1,199.00',
        'R49.00 per month',
        'R69.00 per month',
        'Price on request',
        '* Normal price. Prices exclude the monthly membership fees.',
      ]);
      assert.equal(await page.getByRole('link', { name: 'Get Your Digital Profile' }).first().getAttribute('href'), '/register');
      await visit('/accessories', 'Accessories | DigiCard', [
        'What is an NFC business card?',
        'Our card collection',
        'How it works',
        'R369.00',
        'R459.00',
        'R569.00',
        'Approve your print proof',
      ]);
      assert.equal(await page.getByRole('link', { name: 'Shop Now' }).count(), 3);
      await visit('/accessories/bamboo-card', 'Bamboo NFC Card | DigiCard', [
        'R459.00',
        '85.6 x 54 x 0.76 mm',
        '5.8 g',
        '-25 to 70 °C',
        '-55 to 125 °C',
        'Up to 10 years',
        'Up to 10 cm',
        'Laser engraving',
      ]);
      assert.equal(
        await page.getByRole('link', { name: 'REGISTER TODAY' }).getAttribute('href'),
        '/register',
        'signed out: register, not add to cart',
      );
      assert.equal(await page.getByRole('button', { name: 'ADD TO CART' }).count(), 0);
      await visit('/specials/ssteel-special', 'Stainless Steel NFC Card Special | DigiCard', [
        'R1,199.00',
        'R1,517.00',
        'Includes 12 months of DigiGold.',
        'The price does not include the monthly membership fees.',
        'Laser engraving',
      ]);
      await visit('/terms-and-conditions', 'Terms and Conditions | DigiCard', [
        'Effective 1 January 2024',
        'ZAR 200.00',
        'South Africa',
        'rand',
      ]);
      await visit('/tedx_george', 'TEDxGeorge | DigiCard', ['George', 'Join the community']);
      assert.equal(await page.getByRole('link', { name: /^(Facebook|Instagram|LinkedIn|X) / }).count(), 4);
      assert.equal(await page.locator('main img').count(), 3);
      await visit('/cart', 'Basket | DigiCard', ['Your basket', 'No Accessories selected.']);
      await visit('/thank-you', 'Thank you | DigiCard', [
        'Thank you for your order.',
        'Happy networking with your Digital Business Profile!',
      ]);
      await visit('/cancel', 'Payment cancelled | DigiCard', ['Your payment was cancelled.', 'Back to your basket']);
      await visit('/specials/gold-special', 'Card not found | DigiCard', ['Card not found'], 404);
      await visit('/accessories/pvc-special', 'Card not found | DigiCard', ['Card not found'], 404);
      for (const img of await page.locator('img').all()) assert.notEqual(await img.getAttribute('alt'), null);
      await context.close();
    });
  }

  it('special: the gallery thumbnails change the main image; ADD TO CART alerts and opens the special offer’s sign-up', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(url('/specials/ssteel-special'));
    const main = page.locator('main');
    const big = main.getByRole('img').first();
    const before = await big.getAttribute('src');
    await main.getByRole('button', { name: 'Show image 2 of 4' }).click();
    // The page arrives rendered by the gateway; its first press loads the app, which then handles that press.
    await main.getByRole('button', { name: 'Show image 2 of 4', pressed: true }).waitFor();
    assert.notEqual(await big.getAttribute('src'), before);
    const alerts: string[] = [];
    acceptDialogs(page, alerts);
    await main.getByRole('button', { name: 'ADD TO CART' }).click();
    await page.waitForURL(url('/registration'));
    assert.deepEqual(await takeDialogs(alerts), ['Your cards have been added to your basket.']);
    await page.getByText('Total: R1,199.00').waitFor();
  });

  it('basket: adding twice makes quantity 2, decreasing floors at 1, removing empties it, totals add up; it survives a reload and bad data', async () => {
    const owner = await registerOwner(system, { username: 'sipho', firstName: 'Sipho', lastName: 'Nkosi', email: 'sipho@example.co.za' });
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    const page = await context.newPage();
    await page.goto(url('/accessories/pvc-card'));
    const add = page.getByRole('button', { name: 'ADD TO CART' });
    await add.click();
    await page.getByText('Added to your basket.').waitFor();
    await add.click();
    await page.goto(url('/accessories/bamboo-card'));
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await page.getByRole('link', { name: /Basket \(3\)/ }).waitFor();
    await page.goto(url('/cart'));
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'));
    assert.deepEqual(
      stored.map((i: any) => [i.id, i.colour, i.quantity]),
      [
        ['pvc-card', 'Black', 2],
        ['bamboo-card', 'Bamboo', 1],
      ],
    );
    await page.getByText('Total: R1,197.00').waitFor();
    await page.screenshot({ path: screenshotPath('cart-phone'), fullPage: true });
    const decrease = page.getByRole('button', { name: 'Decrease quantity of PVC NFC Card' });
    await decrease.click();
    await page.getByText('Total: R828.00').waitFor();
    assert.equal(await decrease.isDisabled(), true, 'never below 1');
    await page.getByRole('button', { name: 'Increase quantity of Bamboo NFC Card' }).click();
    await page.getByText('Total: R1,287.00').waitFor();
    await page.reload();
    await page.getByText('Total: R1,287.00').waitFor();
    await page.getByRole('button', { name: 'Remove PVC NFC Card' }).click();
    await page.getByText('Total: R918.00').waitFor();
    await page.getByRole('button', { name: 'Remove Bamboo NFC Card' }).click();
    await page.getByText('No Accessories selected.').waitFor();

    await page.evaluate(() =>
      localStorage.setItem(
        'cart',
        '[{"id":"pvc-card","name":"PVC NFC Card","price":36900,"specialPrice":null,"quantity":1},{"id":"x","price":"free"},"junk"',
      ),
    );
    await page.reload();
    await page.getByText('No Accessories selected.').waitFor();
    await page.evaluate(() =>
      localStorage.setItem(
        'cart',
        '[{"id":"pvc-card","name":"PVC NFC Card","price":36900,"specialPrice":null,"quantity":1},{"id":"x","price":"free"},"junk"]',
      ),
    );
    await page.reload();
    await page.getByText('Total: R369.00').waitFor();
    assert.equal((await page.getByRole('listitem').filter({ hasText: 'PVC NFC Card' }).count()) >= 1, true);
    // A basket kept from before colours were chosen: its line gets the card's first colour, shown, stored and changeable.
    const colour = page.getByRole('combobox', { name: 'Colour of PVC NFC Card' });
    assert.equal(await colour.inputValue(), 'Black');
    assert.deepEqual(
      await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]').map((i: { colour?: string }) => i.colour)),
      ['Black'],
    );
    await colour.selectOption('White');
    await page.getByRole('status').filter({ hasText: 'PVC NFC Card: colour White.' }).waitFor({ state: 'attached' });
    assert.deepEqual(
      await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]').map((i: { colour?: string }) => i.colour)),
      ['White'],
    );
    await context.close();
  });
});
