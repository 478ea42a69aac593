import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { ScimMessages, SsoMessages } from '@digicard/contracts';
import {
  answerDialog,
  launchChromium,
  registerOwner,
  screenshotPath,
  sessionCookie,
  setMembership,
  TestSystem,
  type TestOwner,
} from '@digicard/testing';
import { OidcTestProvider } from '@digicard/testing/oidc-provider';

// Why a browser test: company sign-in is two top-level navigations across origins (the login page to the provider,
// the provider back to the gateway's callback), with the SameSite=Lax cookie that binds the sign-in to the browser
// and the session cookie set on a redirect. The service lane (apps/gateway/test/sso.integration.spec.ts) proves the
// rules with a hand-made cookie jar; this proves a real browser makes the round trip from the login page's button.

const password = 'karoo solar leader 2026';

describe('"Sign in with your company account" in Chromium', () => {
  let system: TestSystem;
  let idp: OidcTestProvider;
  let browser: Browser;
  let leader: TestOwner;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'notifications', 'gateway'],
      // The provider runs on this machine.
      env: { gateway: { SSO_ALLOW_PRIVATE_ISSUERS: 'true' } },
    });
    idp = await OidcTestProvider.start(`${system.gatewayUrl}/api/sso/callback`);
    leader = await registerOwner(system, {
      username: 'karoo-lead',
      firstName: 'Ayanda',
      lastName: 'Mthembu',
      email: 'ayanda@karoo-solar.test',
      password,
    });
    await system.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE username = 'karoo-lead'`);
    await setMembership(system, 'karoo-lead', 'DigiPlatinum');
    assert.equal((await leader.client.request('/api/session', { body: { email: leader.email, password } })).status, 200);
    const saved = await leader.client.request('/api/team/sso', {
      method: 'PUT',
      body: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domains: ['karoo-solar.test'], required: true },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const rep = await leader.client.request('/api/team/reps', {
      body: {
        username: 'thandi',
        firstName: 'Thandi',
        lastName: 'Nkosi',
        email: 'thandi@karoo-solar.test',
        tel: '0821234567',
        password,
        leaderPassword: password,
      },
    });
    assert.equal(rep.status, 201, JSON.stringify(rep.body));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await system?.stop();
  });

  const url = (path: string) => `${system.gatewayUrl}${path}`;

  async function loginPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url('/login'));
    return page;
  }

  it('a rep types the work email, goes to the company’s sign-in and comes back signed in on the dashboard', async () => {
    idp.signInAs('idp-thandi', 'thandi@karoo-solar.test');
    const page = await loginPage();
    const form = page.getByRole('form', { name: 'Log In' });
    await form.getByLabel('Email').fill('thandi@karoo-solar.test');
    const toProvider = page.waitForRequest((request) => request.url().startsWith(`${idp.issuer}/auth`));
    await form.getByRole('button', { name: 'Sign in with your company account' }).click();
    const authorization = new URL((await toProvider).url());
    assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
    await page.waitForURL(url('/dashboard'));
    const session = (await (await page.request.get(url('/api/session'))).json()) as { user: { email: string; role: string } | null };
    assert.equal(session.user?.email, 'thandi@karoo-solar.test');
    assert.equal(session.user?.role, 'teamMember');
  });

  it('the same rep’s password is refused with the way in; a refusal at the callback shows its reason on the login page', async () => {
    const page = await loginPage();
    const form = page.getByRole('form', { name: 'Log In' });
    await form.getByLabel('Email').fill('thandi@karoo-solar.test');
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Log In' }).click();
    await page.getByText(SsoMessages.required).waitFor();

    // Someone whose address is of the team's domain but who is nobody's account here.
    idp.signInAs('idp-stranger', 'stranger@karoo-solar.test');
    await form.getByLabel('Email').fill('stranger@karoo-solar.test');
    await form.getByRole('button', { name: 'Sign in with your company account' }).click();
    await page.waitForURL(url('/login?sso_error=no-account'));
    await page.getByText(SsoMessages.errors['no-account']).waitFor();
  });

  // Last: it removes the company sign-in the tests above use.
  it('the leader makes, replaces and revokes a SCIM token and removes company sign-in, each asked first in the app’s dialog', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([sessionCookie(leader.client.sessionId!)]);
    const page = await context.newPage();
    await page.goto(url('/dashboard'));
    await page.getByRole('tab', { name: 'Teams' }).click();
    const scim = page.getByRole('group', { name: 'SCIM token' });
    await scim.getByText('No token yet: your identity provider cannot provision reps.').waitFor();

    await scim.getByRole('button', { name: 'Make a SCIM token' }).click();
    await scim.getByText(ScimMessages.tokenMade).waitFor();
    const first = await scim.getByTestId('scim-token').textContent();
    assert.ok(first && first.length > 20, 'the token is shown once');

    // Replacing it is asked first; "Cancel" keeps the token, the new one replaces it.
    await scim.getByRole('button', { name: 'Make a new token' }).click();
    await answerDialog(page, 'Make a new SCIM token?', 'Cancel');
    assert.equal(await scim.getByTestId('scim-token').textContent(), first);
    await scim.getByRole('button', { name: 'Make a new token' }).click();
    await answerDialog(page, 'Make a new SCIM token?', 'Make a new token');
    await page.waitForFunction((old) => document.querySelector('[data-testid="scim-token"]')?.textContent !== old, first);

    await scim.getByRole('button', { name: 'Revoke token' }).click();
    await answerDialog(page, 'Revoke the SCIM token?', 'Revoke');
    await scim.getByText(ScimMessages.tokenRevoked).waitFor();
    await scim.getByText('No token yet: your identity provider cannot provision reps.').waitFor();
    assert.equal(await scim.getByTestId('scim-token').count(), 0, 'the revoked token is no longer shown');

    const sso = page.getByRole('group', { name: 'Company sign-in' });
    await sso.getByRole('button', { name: 'Remove company sign-in' }).click();
    await answerDialog(page, 'Remove company sign-in?', 'Remove');
    await sso.getByText(SsoMessages.removed).waitFor();
    assert.equal(await sso.getByLabel('Issuer URL').inputValue(), '');
    assert.equal(await sso.getByRole('button', { name: 'Remove company sign-in' }).count(), 0);
    await page.screenshot({ path: screenshotPath('sso-scim-removed'), fullPage: true });
    await context.close();
  });
});
