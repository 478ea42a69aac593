import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, registerOwner, screenshotPath, TestSystem, type Mail } from '@digicard/testing';

// Login CSRF through links (issue 28 item 11): a browser signed in as one owner opens a verification or reset link
// of another account. The page asks before anything happens ("You are signed in as …. This link is for another
// account." and "Sign out and continue as b***@e***.za?"); "No, stay signed in" keeps the session and leaves the link
// unused, "Sign out and continue" signs out and lets the link do what it does for a signed-out browser. The signed-in
// owner's own link asks nothing. The gateway's rule itself is tested in apps/gateway/test/link-sign-in.integration.spec.ts.

const ayanda = {
  username: 'ayanda',
  firstName: 'Ayanda',
  lastName: 'Dlamini',
  email: 'ayanda@example.co.za',
  password: 'a harbour walk at noon',
};
const bongi = {
  username: 'bongi',
  firstName: 'Bongi',
  lastName: 'Mthembu',
  email: 'bongi@example.co.za',
  password: 'a long road to durban',
};

const linkIn = (mail: Mail, page: string): string => {
  const match = new RegExp(`https?://[^\\s]+/${page}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
  assert.ok(match, `no ${page} link in the email`);
  return match[0];
};

describe('a link of another account asks before it switches accounts', () => {
  let system: TestSystem;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'] });
    await registerOwner(system, ayanda);
    await registerOwner(system, bongi, { verify: false });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const url = (path: string) => `${system.gatewayUrl}${path}`;
  const signedInAs = async (): Promise<string | null> =>
    page.evaluate(async () => ((await (await fetch('/api/session')).json()) as { user: { email: string } | null }).user?.email ?? null);
  const question = (maskedEmail: string) => ({
    situation: page.getByText(`You are signed in as ${ayanda.email}. This link is for another account.`),
    ask: page.getByText(`Sign out and continue as ${maskedEmail}?`),
  });

  async function logIn(who: { email: string; password: string }) {
    await page.goto(url('/login'));
    const main = page.getByRole('main');
    await main.getByLabel('Email').fill(who.email);
    await main.getByLabel('Password').fill(who.password);
    await main.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(url('/dashboard'));
  }

  it('signed in as Ayanda, Bongi’s verification link asks; "No, stay signed in" keeps Ayanda and leaves the link unused', async () => {
    await logIn(ayanda);
    const mail = await system.mail.waitFor((m) => m.to.includes(bongi.email) && m.subject === 'Verify your email address for DigiCard');
    await page.goto(linkIn(mail, 'verify-email'));
    const { situation, ask } = question('b***@e***.za');
    await situation.waitFor();
    await ask.waitFor();
    assert.equal(await page.getByText('Verifying your email...').count(), 0, 'nothing is verified before the answer');
    await page.getByRole('button', { name: 'Sign out and continue' }).waitFor();
    await page.screenshot({ path: screenshotPath('link-switch-verify-question'), fullPage: true });

    await page.getByRole('link', { name: 'No, stay signed in' }).click();
    await page.waitForURL(url('/dashboard'));
    assert.equal(await signedInAs(), ayanda.email);
    assert.deepEqual(await system.sql('SELECT is_verified FROM identity.accounts WHERE username = $1', ['bongi']), [
      { is_verified: false },
    ]);
  });

  it('"Sign out and continue" signs Ayanda out, then the same link verifies Bongi and signs Bongi in', async () => {
    const mail = await system.mail.waitFor((m) => m.to.includes(bongi.email) && m.subject === 'Verify your email address for DigiCard');
    await page.goto(linkIn(mail, 'verify-email'));
    await question('b***@e***.za').situation.waitFor();
    await page.getByRole('button', { name: 'Sign out and continue' }).click();
    await page.getByText('Your email address is verified. You can now share your profile.').waitFor();
    assert.equal(await signedInAs(), bongi.email);
    await page.screenshot({ path: screenshotPath('link-switch-verify-continued'), fullPage: true });
  });

  it('signed in as Bongi, Ayanda’s reset link asks before the password form; after the sign-out the form sets it', async () => {
    const requested = await system.client().request('/api/password-reset/request', { body: { email: ayanda.email } });
    assert.equal(requested.status, 202);
    const mail = await system.mail.waitFor((m) => m.to.includes(ayanda.email) && m.subject === 'Reset your DigiCard password');
    await page.goto(linkIn(mail, 'reset-password'));
    await page.getByText(`You are signed in as ${bongi.email}. This link is for another account.`).waitFor();
    await page.getByText('Sign out and continue as a***@e***.za?').waitFor();
    assert.equal(await page.getByLabel('New password').count(), 0, 'no password form before the answer');
    await page.screenshot({ path: screenshotPath('link-switch-reset-question'), fullPage: true });

    await page.getByRole('button', { name: 'Sign out and continue' }).click();
    await page.getByLabel('New password').fill('a new harbour walk');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.waitForURL(url('/dashboard'));
    assert.equal(await signedInAs(), ayanda.email);
  });

  it('asks nothing for the signed-in account’s own link: the reset form is there at once', async () => {
    await system.client().request('/api/password-reset/request', { body: { email: ayanda.email } });
    const mails = await system.mail.waitForCount((m) => m.to.includes(ayanda.email) && m.subject === 'Reset your DigiCard password', 2);
    await page.goto(linkIn(mails.at(-1)!, 'reset-password'));
    await page.getByLabel('New password').waitFor();
    assert.equal(await page.getByText('This link is for another account.', { exact: false }).count(), 0);
    assert.equal(await signedInAs(), ayanda.email);
  });
});
