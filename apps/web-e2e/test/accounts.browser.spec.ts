import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestSystem, launchChromium, screenshotPath, type Mail, titleOf } from '@digicard/testing';

const person = {
  username: 'naledi-k',
  firstName: 'Naledi',
  lastName: 'Khumalo',
  email: 'naledi@example.co.za',
  password: 'my own card 2026',
};
const newPassword = 'a fresh passphrase';

const linkIn = (mail: Mail, page: string): string => {
  const match = new RegExp(`https?://[^\\s]+/${page}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
  assert.ok(match, `no ${page} link in the email`);
  return match[0];
};

describe('an owner registers, verifies the email, signs in and out, and resets the password in Chromium', () => {
  let system: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'] });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const url = (path: string) => `${system.gatewayUrl}${path}`;
  const header = () => page.getByRole('banner');

  it('shows "Loading..." while the sign-in state loads, and sends a signed-out visitor from /dashboard to /login', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/session', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(url('/dashboard'));
    await page.getByText('Loading...').waitFor();
    release();
    await page.waitForURL(url('/login'));
    await page.unroute('**/api/session');
    await page.getByRole('heading', { name: 'Log In' }).waitFor();
  });

  it('registers and lands on the verify-email page, signed out until the emailed link is followed', async () => {
    await page.getByRole('link', { name: 'Register', exact: true }).click();
    await page.waitForURL(url('/register'));
    assert.equal(await titleOf(page, 'Register | DigiCard'), 'Register | DigiCard');
    const form = page.getByRole('main');
    await form.getByRole('button', { name: 'Register' }).click();
    await form.getByText('Please choose a username.').waitFor();
    await form.getByLabel('Username').fill('dashboard');
    await form.getByLabel('First Name').fill(person.firstName);
    await form.getByLabel('Last Name').fill(person.lastName);
    await form.getByLabel('Email').fill(person.email);
    await form.getByLabel('Password').fill('password1');
    await form.getByRole('button', { name: 'Register' }).click();
    await form.getByText('That username is reserved. Please choose another.').waitFor();
    await form.getByLabel('Username').fill(person.username);
    await form.getByRole('button', { name: 'Register' }).click();
    await form.getByText('This password is too common. Please choose another.').waitFor();
    await page.screenshot({ path: screenshotPath('register-errors'), fullPage: true });
    await form.getByLabel('Password').fill(person.password);
    await form.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(url('/verify-email'));
    await page.getByText('Thank you for registering your DigiCard Business Card.').waitFor();
    assert.ok(
      await page
        .getByText(
          'Please check your inbox and verify your email address. You will not be able to share your profile without verification.',
        )
        .isVisible(),
    );
    assert.equal(await page.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href'), '/dashboard');
    assert.ok(await header().getByRole('link', { name: 'Sign In' }).isVisible(), 'no session before the email is confirmed');
    assert.equal(
      (await context.cookies()).find((c) => c.name === '__Host-digicard_session'),
      undefined,
    );
    await page.screenshot({ path: screenshotPath('verify-email-notice'), fullPage: true });
  });

  it('registering an email that has an account shows the same page, signed out, and emails its owner instead', async () => {
    const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await other.newPage();
    await phone.goto(url('/register'));
    const form = phone.getByRole('main');
    await form.getByLabel('Username').fill('naledi-again');
    await form.getByLabel('First Name').fill('Someone');
    await form.getByLabel('Last Name').fill('Else');
    await form.getByLabel('Email').fill(person.email.toUpperCase());
    await form.getByLabel('Password').fill('a stranger’s passphrase');
    await form.getByRole('button', { name: 'Register' }).click();
    await phone.waitForURL(url('/verify-email'));
    await phone.getByText('Thank you for registering your DigiCard Business Card.').waitFor();
    assert.equal(await phone.getByText(/already exists/).count(), 0);
    assert.equal(
      (await other.cookies()).find((c) => c.name === '__Host-digicard_session'),
      undefined,
    );
    assert.deepEqual(await phone.getByRole('main').innerText(), await page.getByRole('main').innerText(), 'the same page as a new email');
    await phone.screenshot({ path: screenshotPath('register-email-taken'), fullPage: true });
    const mail = await system.mail.waitFor((m) => /tried to register/.test(m.subject));
    assert.deepEqual(
      mail.to.map((t) => t.toLowerCase()),
      [person.email.toLowerCase()],
    );
    assert.equal(mail.subject, '[DigiCard] Someone tried to register with your email address');
    await phone.goto(`http://127.0.0.1:${system.port('mail-http')}/messages/${mail.id}/html`);
    assert.equal(await phone.getByRole('link', { name: 'Sign in' }).first().getAttribute('href'), url('/login'));
    await phone.screenshot({ path: screenshotPath('register-email-taken-mail'), fullPage: true });
    assert.deepEqual(await system.sql("SELECT 1 FROM identity.accounts WHERE username = 'naledi-again'"), []);
    await other.close();
  });

  it('opens the verification email and follows its link', async () => {
    const mail = await system.mail.waitFor((m) => m.subject === 'Verify your email address for DigiCard');
    await page.goto(`http://127.0.0.1:${system.port('mail-http')}/messages/${mail.id}/html`);
    await page.screenshot({ path: screenshotPath('verify-email-mail'), fullPage: true });
    const href = await page.getByRole('link', { name: 'Verify my email' }).getAttribute('href');
    assert.equal(href, linkIn(mail, 'verify-email'));
    await page.getByRole('link', { name: 'Verify my email' }).click();
    await page.getByText('Your email address is verified. You can now share your profile.').waitFor();
    assert.equal(new URL(page.url()).search, '', 'the token is taken out of the address bar');
    await header().getByRole('button', { name: 'Sign Out' }).waitFor();
    await page.screenshot({ path: screenshotPath('verify-email-done'), fullPage: true });
  });

  it('goes to the dashboard, signs out to the home page, and cannot reach the dashboard signed out', async () => {
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL(url('/dashboard'));
    await page.getByText('Welcome, Naledi!').waitFor();
    assert.equal(await page.getByText('Please verify your email address.', { exact: false }).count(), 0, 'no banner once verified');
    await page.screenshot({ path: screenshotPath('dashboard'), fullPage: true });
    await page.evaluate(() => localStorage.setItem('userData', '{"fname":"Naledi"}'));
    await header().getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(url('/'));
    await header().getByRole('link', { name: 'Sign In' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('userData')), null, 'local profile data cleared');
    await page.goto(url('/dashboard'));
    await page.waitForURL(url('/login'));
  });

  it('signs in with the product’s messages, and /login sends a signed-in user to the dashboard', async () => {
    const main = page.getByRole('main');
    await main.getByLabel('Email').fill('nobody@example.co.za');
    await main.getByLabel('Password').fill(person.password);
    await main.getByRole('button', { name: 'Log In' }).click();
    await main.getByText('Incorrect email or password.').waitFor();
    await main.getByLabel('Email').fill(person.email);
    await main.getByLabel('Password').fill('not my password');
    await main.getByRole('button', { name: 'Log In' }).click();
    await main.getByText('Incorrect email or password.').waitFor();
    await page.screenshot({ path: screenshotPath('login-wrong-password'), fullPage: true });
    await main.getByLabel('Password').fill(person.password);
    await main.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(url('/dashboard'));
    await page.goto(url('/login'));
    await page.waitForURL(url('/dashboard'));
    await page.goto(url('/register'));
    await page.waitForURL(url('/dashboard'));
    await header().getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(url('/'));
  });

  it('resets the password from the login page through the emailed link', async () => {
    await page.goto(url('/login'));
    const main = page.getByRole('main');
    await main.getByRole('button', { name: 'Reset Password' }).click();
    await main.getByText('Please enter your email to reset your password.').waitFor();
    await main.getByLabel('Email').fill(person.email);
    await main.getByRole('button', { name: 'Reset Password' }).click();
    await main.getByText('Password reset link sent. Check your email.').waitFor();
    const mail = await system.mail.waitFor((m) => m.subject === 'Reset your DigiCard password');
    await page.goto(linkIn(mail, 'reset-password'));
    assert.equal(await titleOf(page, 'Choose a new password | DigiCard'), 'Choose a new password | DigiCard');
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.getByText('Please use at least 8 characters.').waitFor();
    await page.getByLabel('New password').fill(newPassword);
    await page.screenshot({ path: screenshotPath('reset-password'), fullPage: true });
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.waitForURL(url('/dashboard'));
    await header().getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(url('/'));

    await page.goto(url('/login'));
    await main.getByLabel('Email').fill(person.email);
    await main.getByLabel('Password').fill(newPassword);
    await main.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(url('/dashboard'));
  });

  it('works on a phone: the signed-in header and the dashboard fit 360 px', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const p = await phone.newPage();
    await p.goto(url('/login'));
    await p.getByRole('main').getByLabel('Email').fill(person.email);
    await p.getByRole('main').getByLabel('Password').fill(newPassword);
    await p.getByRole('main').getByRole('button', { name: 'Log In' }).click();
    await p.waitForURL(url('/dashboard'));
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
    await p.screenshot({ path: screenshotPath('dashboard-phone'), fullPage: true });
    await phone.close();
  });
});
