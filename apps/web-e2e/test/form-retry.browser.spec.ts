import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page, Route } from 'playwright-core';
import { TestSystem, launchChromium, registerOwner, screenshotPath } from '@digicard/testing';

/**
 * What the chaos run saw: the service stored a form after the gateway had already answered 503 (it finished after the
 * time-out), and the person's retry stored it a second time. Here the browser's first request reaches the server and
 * is stored, but the browser is shown a 503; the person presses the button again. The form sends the same
 * idempotency key both times, and the server answers the retry with the first result: one enquiry, one lead.
 */
describe('a form sent again after a 503 whose submission was stored is stored once', () => {
  let system: TestSystem;
  let browser: Browser;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'orders', 'notifications', 'gateway'] });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  /** The first request goes through to the server, but the browser gets a 503 instead of its answer. */
  async function loseFirstAnswer(page: Page, pattern: string): Promise<Array<{ idempotencyKey?: string }>> {
    const sent: Array<{ idempotencyKey?: string }> = [];
    let first = true;
    await page.route(pattern, async (route: Route) => {
      sent.push(JSON.parse(route.request().postData() ?? '{}') as { idempotencyKey?: string });
      if (!first) return route.continue();
      first = false;
      const stored = await route.fetch();
      assert.equal(stored.status(), 202);
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 503,
          code: 'SERVICE_UNAVAILABLE',
          message: 'Something went wrong on our side. Please try again.',
        }),
      });
    });
    return sent;
  }

  it('the footer form: the retry is answered with the stored enquiry', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${system.gatewayUrl}/`);
    const sent = await loseFirstAnswer(page, '**/api/enquiries/call-back');
    const form = page.getByRole('form', { name: 'Get things started' });
    await form.getByLabel('Name', { exact: true }).fill('Retry Mokoena');
    await form.getByLabel('Email', { exact: true }).fill('retry.mokoena@example.co.za');
    await form.getByLabel(/^Number/).fill('0821234567');
    await form.getByRole('button', { name: "Let's Talk" }).click();
    // The visitor is told it did not go through (the alert beside the button), and the form stays filled in.
    await form.getByRole('alert').waitFor({ timeout: 10_000 });
    assert.match((await form.getByRole('alert').textContent()) ?? '', /try again/i);
    await page.screenshot({ path: screenshotPath('form-retry-503'), clip: (await form.boundingBox())! });
    assert.equal(
      (await system.sql(`SELECT id FROM orders.enquiries WHERE email = 'retry.mokoena@example.co.za'`)).length,
      1,
      'stored although the browser saw 503',
    );

    await form.getByRole('button', { name: "Let's Talk" }).click();
    await page
      .getByText('Thank you for submitting your details. We will get in touch with you as soon as possible.')
      .waitFor({ timeout: 10_000 });
    assert.equal(sent.length, 2);
    assert.match(sent[0]!.idempotencyKey ?? '', /^[0-9a-f]{32}$/);
    assert.equal(sent[1]!.idempotencyKey, sent[0]!.idempotencyKey, 'the retry carries the same key');
    assert.equal(
      (await system.sql(`SELECT id FROM orders.enquiries WHERE email = 'retry.mokoena@example.co.za'`)).length,
      1,
      'stored once',
    );
    const mail = await system.mail.waitFor((m) => m.subject === '[DigiCard] Call-back request from Retry Mokoena');
    assert.ok(mail);
    assert.equal((await system.mail.list()).filter((m) => m.subject === '[DigiCard] Call-back request from Retry Mokoena').length, 1);
  });

  it('the lead form on a profile: the retry is answered with the stored lead', async () => {
    const owner = await registerOwner(system, {
      username: 'retry-owner',
      firstName: 'Naledi',
      lastName: 'Retry',
      email: 'retry-owner@example.co.za',
    });
    assert.ok(owner.accountId);
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })).newPage();
    await page.goto(`${system.gatewayUrl}/retry-owner`);
    const sent = await loseFirstAnswer(page, '**/leads');
    await page.getByRole('button', { name: 'Exchange Contact' }).click();
    const form = page.locator('form[data-lead-kind="exchange"]');
    await form.getByLabel('First name', { exact: false }).first().fill('Sipho');
    await form.getByLabel('Email', { exact: false }).first().fill('sipho.retry@example.co.za');
    await form.getByRole('checkbox', { name: /I agree/ }).check();
    await form.getByRole('button', { name: 'Send' }).click();
    await form.getByText('Something went wrong on our side. Please try again.').waitFor({ timeout: 10_000 });
    await form.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Thank you! I will get in touch with you soon.', visible: true })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: screenshotPath('lead-form-retry-sent'), fullPage: true });
    assert.equal(sent.length, 2);
    assert.match(sent[0]!.idempotencyKey ?? '', /^[0-9a-f]{32}$/);
    assert.equal(sent[1]!.idempotencyKey, sent[0]!.idempotencyKey);
    assert.equal((await system.sql(`SELECT id FROM profiles.leads WHERE email = 'sipho.retry@example.co.za'`)).length, 1);
  });
});
