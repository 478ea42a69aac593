import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { SALES_INBOX, TestSystem, launchChromium, screenshotPath, titleOf } from '@digicard/testing';

const year = new Date().getFullYear();

describe('a visitor sends both enquiry forms in Chromium, and the sales inbox gets the emails', () => {
  let system: TestSystem;
  let browser: Browser;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'gateway'],
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const desktop = async (): Promise<Page> => (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();

  it('shows the home page with its header, content and footer', async () => {
    const page = await desktop();
    const response = await page.goto(`${system.gatewayUrl}/`);
    assert.equal(response?.status(), 200);
    assert.equal(await titleOf(page, 'Digital Business Cards | DigiCard'), 'Digital Business Cards | DigiCard');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [name, href] of [
      ['Packages', '/pricing'],
      ['Accessories', '/accessories'],
      ['Contact', '/contact'],
    ]) {
      assert.equal(await nav.getByRole('link', { name, exact: true }).getAttribute('href'), href);
    }
    assert.equal(await page.getByRole('link', { name: 'Sign In' }).getAttribute('href'), '/login');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Get Your Digital Profile' }).first().waitFor();
    for (const tier of ['DigiShare', 'DigiSilver', 'DigiGold', 'DigiPlatinum']) {
      assert.ok(await page.getByRole('heading', { name: tier }).isVisible(), tier);
    }
    await page.getByText('R49.00 per month').waitFor();
    await page.getByText('R69.00 per month').waitFor();
    await page.getByText(`© ${year} DigiCard. All Rights Reserved.`).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Terms and Conditions' }).getAttribute('href'), '/terms-and-conditions');
    await page.screenshot({ path: screenshotPath('home-desktop'), fullPage: true });
  });

  it('footer form: shows each mistake beside its field, then sends and thanks the visitor', async () => {
    const page = await desktop();
    await page.goto(`${system.gatewayUrl}/`);
    const form = page.getByRole('form', { name: 'Get things started' });
    // The page arrives rendered by the gateway; its first press loads the app, which then handles that press.
    await form.getByRole('button', { name: "Let's Talk" }).click();
    for (const text of ['Please enter your name.', 'Please enter your email address.', 'Please enter your phone number.']) {
      await form.getByText(text).waitFor({ timeout: 10_000 });
    }
    await form.getByLabel('Name', { exact: true }).fill('Sipho Nkosi');
    await form.getByLabel('Email', { exact: true }).fill('sipho@example');
    await form.getByLabel(/^Number/).fill('082 123');
    await form.getByRole('button', { name: "Let's Talk" }).click();
    await form.getByText('Please enter a valid email address, e.g. thabo@example.co.za.').waitFor();
    await form.getByText('Please enter a 10-digit phone number, e.g. 0821234567.').waitFor();
    assert.equal(await form.getByLabel(/^Number/).getAttribute('aria-invalid'), 'true');
    await page.screenshot({ path: screenshotPath('footer-form-errors'), fullPage: false, clip: (await form.boundingBox())! });
    assert.equal(Number((await system.sql<{ n: string }>('SELECT count(*) AS n FROM orders.enquiries'))[0]!.n), 0);

    await form.getByLabel('Email', { exact: true }).fill('sipho@example.co.za');
    await form.getByLabel(/^Number/).fill('0821234567');
    await form.getByRole('button', { name: "Let's Talk" }).click();
    const thanks = page.getByText('Thank you for submitting your details. We will get in touch with you as soon as possible.');
    await thanks.waitFor({ timeout: 10_000 });
    assert.equal(await form.count(), 0, 'the form is replaced by the thank-you text');

    const mail = await system.mail.waitFor((m) => m.subject === '[DigiCard] Call-back request from Sipho Nkosi');
    assert.deepEqual(mail.to, [SALES_INBOX]);
    assert.match(mail.text, /Email: sipho@example\.co\.za/);
    assert.match(mail.text, /Number: 0821234567/);
    // Read it as a person would, on the mail catcher's page.
    await page.goto(`http://127.0.0.1:${system.port('mail-http')}/`);
    await page.getByRole('link', { name: '[DigiCard] Call-back request from Sipho Nkosi' }).click();
    await page.getByText('0821234567').waitFor();
    await page.screenshot({ path: screenshotPath('footer-form-email'), fullPage: true });
  });

  it('contact page: the header link leads there; the form sends a message that reaches the sales inbox', async () => {
    const page = await desktop();
    await page.goto(`${system.gatewayUrl}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact', exact: true }).click();
    await page.waitForURL(`${system.gatewayUrl}/contact`);
    assert.equal(await titleOf(page, 'Contact | DigiCard'), 'Contact | DigiCard');
    const form = page.getByRole('form', { name: 'Let us contact you' });
    assert.equal(await page.getByRole('link', { name: 'Chat to us on WhatsApp' }).getAttribute('href'), 'https://wa.me/27821234567');
    assert.equal(await page.getByRole('link', { name: SALES_INBOX }).getAttribute('href'), `mailto:${SALES_INBOX}`);

    await form.getByRole('button', { name: 'Send' }).click();
    await form.getByText('Please enter a message.').waitFor({ timeout: 10_000 }); // the first press loads the app
    await form.getByLabel('Name', { exact: true }).fill('Naledi Khumalo');
    await form.getByLabel('Email', { exact: true }).fill('naledi@example.co.za');
    await form.getByLabel('Message', { exact: true }).fill('Please quote 25 stainless steel cards with our logo.');
    await page.screenshot({ path: screenshotPath('contact-filled'), fullPage: true });
    await form.getByRole('button', { name: 'Send' }).click();
    await page
      .getByText('Thank you for getting in touch with us. We will respond to your message as soon as we can.')
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: screenshotPath('contact-sent'), fullPage: true });

    const mail = await system.mail.waitFor((m) => m.subject === '[DigiCard] New message from Naledi Khumalo');
    assert.equal(mail.replyTo, 'naledi@example.co.za');
    assert.match(mail.text, /Please quote 25 stainless steel cards with our logo\./);
  });

  it('DigiPlatinum: the quote form on /pricing reaches the sales inbox with the team’s details', async () => {
    const page = await desktop();
    await page.goto(`${system.gatewayUrl}/pricing#quote`);
    const form = page.getByRole('form', { name: 'DigiPlatinum for teams: request a quote' });
    await form.getByRole('button', { name: 'Request a quote' }).click();
    await form.getByText('Please enter your company’s name.').waitFor({ timeout: 10_000 }); // the first press loads the app
    await form.getByLabel('Name', { exact: true }).fill('Ayanda Khumalo');
    await form.getByLabel('Company').fill('Acme Logistics');
    await form.getByLabel('How many people would use DigiCard?').fill('1');
    await form.getByLabel('Email').fill('ayanda@acme.co.za');
    await form.getByLabel(/^Number/).fill('0115551234');
    await form.getByRole('button', { name: 'Request a quote' }).click();
    await form.getByText('DigiPlatinum is for teams of two or more.').waitFor();
    await form.getByLabel('How many people would use DigiCard?').fill('40');
    await form.getByRole('button', { name: 'Request a quote' }).click();
    await page.getByText('Thank you. Our sales team will send you a DigiPlatinum quote').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: screenshotPath('pricing-quote-sent'), fullPage: true });
    const mail = await system.mail.waitFor((m) => m.subject === '[DigiCard] DigiPlatinum quote request from Acme Logistics');
    assert.equal(mail.to[0], SALES_INBOX);
    assert.match(mail.text, /40 people/);
    assert.match(mail.text, /0115551234/);
  });

  it('unknown pages show the not-found page with a 404', async () => {
    const page = await desktop();
    const response = await page.goto(`${system.gatewayUrl}/no/such/page`);
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { name: 'Oops!!! Page not found.' }).waitFor();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL(`${system.gatewayUrl}/`);
  });

  it('works on a 360 px phone: the Menu toggle opens the links, and the footer form shows its errors', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${system.gatewayUrl}/`);
    const toggle = page.getByRole('button', { name: 'Menu' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    const packages = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Packages' });
    assert.equal(await packages.isVisible(), false);
    await page.screenshot({ path: screenshotPath('home-phone') });
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await packages.waitFor();
    await page.screenshot({ path: screenshotPath('home-phone-menu') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'nothing is wider than the phone');

    const form = page.getByRole('form', { name: 'Get things started' });
    await form.getByLabel('Name', { exact: true }).fill('Zanele');
    await form.getByLabel('Email', { exact: true }).fill('zanele@example.co.za');
    await form.getByLabel(/^Number/).fill('12345');
    await form.getByRole('button', { name: "Let's Talk" }).click();
    await form.getByText('Please enter a 10-digit phone number, e.g. 0821234567.').waitFor();
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('footer-form-phone-error') });
    await context.close();
  });
});
