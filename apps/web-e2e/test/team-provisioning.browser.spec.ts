import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ProfileDefaults, SCIM_MEDIA_TYPE, ScimMessages, SsoMessages } from '@digicard/contracts';
import {
  answerDialog,
  createStaffAccount,
  launchChromium,
  registerOwner,
  screenshotPath,
  sessionCookie,
  setMembership,
  TestSystem,
  type TestOwner,
  waitFor,
} from '@digicard/testing';
import { OidcTestProvider } from '@digicard/testing/oidc-provider';

// Issue 27 in Chromium, as the people who use it see it. A DigiPlatinum team leader makes a SCIM token in the Teams
// section (shown once, copied, replaced, revoked), gives it to "the identity provider" (this test, over HTTP), sees
// the rep it creates in the list and each call in the activity list; then fills in company sign-in from a preset and
// requires it. A staff member opens the team in the staff console, reads its SSO and SCIM state and turns each off;
// the leader's section says so. The rules themselves are proved in the service lanes (apps/gateway/test/scim.* and
// sso.*, apps/teams/test/scim.*); the sign-in round trip in sso.browser.spec.ts.

const password = 'karoo solar leader 2026';

describe('a team leader connects the company’s identity provider; staff see it and turn it off', () => {
  let system: TestSystem;
  let idp: OidcTestProvider;
  let browser: Browser;
  let leaderContext: BrowserContext;
  let page: Page;
  let leader: TestOwner;
  let staff: TestOwner;
  let token = '';

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
    // A fresh sign-in carries the new role in the session.
    assert.equal((await leader.client.request('/api/session', { body: { email: leader.email, password } })).status, 200);
    // The business every rep's card shows.
    const saved = await leader.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...ProfileDefaults, businessName: 'Karoo Solar' } },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    staff = await createStaffAccount(system, { email: 'thandi@digicard.test', role: 'staff', username: 'thandi-staff' });

    browser = await launchChromium();
    leaderContext = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await leaderContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.gatewayUrl });
    await leaderContext.addCookies([sessionCookie(leader.client.sessionId!)]);
    page = await leaderContext.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await system?.stop();
  });

  /** What the company's identity provider sends: the bearer token, SCIM's media type, no cookies. */
  async function scim(bearer: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${system.gatewayUrl}/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, accept: SCIM_MEDIA_TYPE, ...(body ? { 'content-type': SCIM_MEDIA_TYPE } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  }

  /** The dashboard's Teams section, loaded afresh (what the leader sees when they come back to it). */
  async function teamsSection(): Promise<Locator> {
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Teams' }).click();
    return page.getByRole('tabpanel', { name: 'Teams' });
  }
  const scimPanel = (section: Locator) => section.getByRole('region', { name: 'Automatic provisioning (SCIM)' });
  const ssoPanel = (section: Locator) => section.getByRole('region', { name: 'Company sign-in (single sign-on)' });
  const activity = (panel: Locator) => panel.getByRole('group', { name: 'SCIM activity' });

  it('makes a SCIM token, shown once with the base URL and copied; a new token replaces it; the old one stops working', async () => {
    const panel = scimPanel(await teamsSection());
    await panel.getByText('No token yet: your identity provider cannot provision reps.').waitFor();
    assert.match((await panel.textContent()) ?? '', new RegExp(`tenant \\(base\\) URL ${system.gatewayUrl}/scim/v2 and a token made here`));
    await activity(panel).getByText('No calls from your identity provider yet.').waitFor();
    assert.equal(await panel.getByRole('button', { name: 'Revoke token' }).count(), 0, 'nothing to revoke yet');

    await panel.getByRole('button', { name: 'Make a SCIM token' }).click();
    await panel.getByRole('status').filter({ hasText: ScimMessages.tokenMade }).waitFor();
    const shown = panel.getByRole('group', { name: 'New SCIM token' });
    await shown.getByText('Copy the token now: it is not shown again.').waitFor();
    token = ((await shown.locator('code').textContent()) ?? '').trim();
    assert.match(token, /^dcscim_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Copy token' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token, 'the button copies the token');
    await panel.getByText(/^A token is set: made .+, last used never\.$/).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('team-scim-token-made'), fullPage: true });

    // A new token: asked first, since the provider's copy stops working at once.
    await panel.getByRole('button', { name: 'Make a new token' }).click();
    const question = await answerDialog(page, 'Make a new SCIM token?', 'Make a new token');
    assert.match(question, /The current token stops working at once/);
    await page.waitForFunction((old) => {
      const code = document.querySelector('[data-testid="scim-token"]');
      return !!code && code.textContent !== old;
    }, token);
    const replaced = ((await shown.locator('code').textContent()) ?? '').trim();
    assert.match(replaced, /^dcscim_/);
    assert.notEqual(replaced, token);
    assert.equal((await scim(token, 'GET', '/Users')).status, 401, 'the replaced token is refused');
    token = replaced;
    assert.equal((await scim(token, 'GET', '/Users?filter=userName%20eq%20%22nomsa%40karoo-solar.test%22')).status, 200);

    // Shown once: coming back to the section shows the token's dates, never the token.
    const again = scimPanel(await teamsSection());
    await again.getByText(/^A token is set: made .+, last used .+\.$/).waitFor();
    assert.equal(await again.getByRole('group', { name: 'New SCIM token' }).count(), 0);
    assert.ok(!(await page.content()).includes(token), 'the token is nowhere on the page');
  });

  it('the provider creates a rep with the token: the rep is in the Teams section, each call in the activity list', async () => {
    const created = await scim(token, 'POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'nomsa@karoo-solar.test',
      externalId: 'entra-0001',
      active: true,
      name: { givenName: 'Nomsa', familyName: 'Khumalo' },
      title: 'Solar Sales Consultant',
      emails: [{ primary: true, type: 'work', value: 'nomsa@karoo-solar.test' }],
      phoneNumbers: [{ type: 'work', value: '+27 82 555 0101', primary: true }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body['id'] as string;

    const section = await teamsSection();
    const rep = section.getByRole('list', { name: 'Sales reps' }).getByRole('listitem', { name: 'Nomsa Khumalo' });
    await rep.waitFor();
    assert.match((await rep.textContent()) ?? '', /nomsa@karoo-solar\.test/);
    assert.equal(await rep.getByText('Deactivated by your identity provider').count(), 0);
    // Made as "Add rep" makes one: their card is up with the leader's business and the job title the provider sent,
    // and the welcome email asks them to choose a password.
    const card = await browser.newPage();
    await waitFor('the rep’s card', async () => (await card.goto(`${system.gatewayUrl}/nomsa`))?.status() === 200);
    await card.getByText('Solar Sales Consultant').first().waitFor();
    await card.getByText('Karoo Solar').first().waitFor();
    await card.close();
    const welcome = await system.mail.waitFor(
      (m) => m.to.includes('nomsa@karoo-solar.test') && m.subject === 'Welcome to your team on DigiCard',
    );
    assert.match(welcome.text, /Ayanda Mthembu added you to their team/);

    // The provider deactivates the rep (a leaver): the list says so.
    const off = await scim(token, 'PATCH', `/Users/${id}`, { Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const later = await teamsSection();
    const deactivated = later.getByRole('list', { name: 'Sales reps' }).getByRole('listitem', { name: 'Nomsa Khumalo' });
    await deactivated.getByText('Deactivated by your identity provider').waitFor();

    const table = activity(scimPanel(later)).getByRole('table');
    await table.waitFor();
    const rows = await table.getByRole('row').allTextContents();
    // Newest first: the PATCH, the POST, the GETs of the first test.
    assert.match(rows[1] ?? '', new RegExp(`PATCH /scim/v2/Users/${id}200 deactivatednomsa@karoo-solar\\.test$`));
    assert.match(rows[2] ?? '', /POST \/scim\/v2\/Users201 creatednomsa@karoo-solar\.test$/);
    assert.match(rows[3] ?? '', /GET \/scim\/v2\/Users200 listednomsa@karoo-solar\.test$/);
    assert.ok(!rows.join(' ').includes(token), 'the activity list never shows the token');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
      'a long path scrolls in the list, not the page',
    );
    await deactivated.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('team-scim-rep-and-activity'), fullPage: true });
  });

  it('revokes the token after asking: the provider is refused, the section says there is none; a new one can be made', async () => {
    const panel = scimPanel(await teamsSection());
    await panel.getByRole('button', { name: 'Revoke token' }).click();
    const question = await answerDialog(page, 'Revoke the SCIM token?', 'Revoke');
    assert.match(question, /Reps already added stay/);
    await panel.getByRole('status').filter({ hasText: ScimMessages.tokenRevoked }).waitFor();
    await panel.getByText('No token yet: your identity provider cannot provision reps.').waitFor();
    assert.equal((await scim(token, 'GET', '/Users')).status, 401);
    // The rep it made stays.
    await page.getByRole('list', { name: 'Sales reps' }).getByRole('listitem', { name: 'Nomsa Khumalo' }).waitFor();

    // Set up again, for staff to see.
    await panel.getByRole('button', { name: 'Make a SCIM token' }).click();
    token = ((await panel.getByRole('group', { name: 'New SCIM token' }).locator('code').textContent()) ?? '').trim();
    assert.equal((await scim(token, 'GET', '/Users')).status, 200);
  });

  it('fills in company sign-in from a preset, saves it with SSO required; the secret is not shown again', async () => {
    const panel = ssoPanel(await teamsSection());
    await panel.getByText(`${system.gatewayUrl}/api/sso/callback`).waitFor();
    const issuer = panel.getByLabel('Issuer URL');
    const presets = panel.getByRole('group', { name: 'Presets' });
    await presets.getByRole('button', { name: 'Microsoft Entra ID' }).click();
    assert.equal(await issuer.inputValue(), 'https://login.microsoftonline.com/{tenant}/v2.0');
    await panel.getByText('For Microsoft Entra ID, replace {tenant} with your directory (tenant) ID.').waitFor();
    await presets.getByRole('button', { name: 'Google Workspace' }).click();
    assert.equal(await issuer.inputValue(), 'https://accounts.google.com');

    // Saved without a client ID: said on its field, nothing sent.
    await panel.getByRole('button', { name: 'Save company sign-in' }).click();
    await panel.getByText(SsoMessages.clientIdRequired).waitFor();

    // This machine's provider stands in for the company's.
    await issuer.fill(idp.issuer);
    await panel.getByLabel('Client ID').fill(idp.clientId);
    await panel.getByLabel('Client secret').fill(idp.clientSecret);
    await panel.getByLabel('Email domains').fill('karoo-solar.test');
    const require = panel.getByLabel('Require SSO for the team (reps can no longer sign in with a password; you still can)');
    assert.equal(await require.isChecked(), false);
    await require.check();
    await panel.getByRole('button', { name: 'Save company sign-in' }).click();
    await panel.getByRole('status').filter({ hasText: SsoMessages.saved }).waitFor();
    assert.equal(await panel.getByLabel('Client secret').inputValue(), '', 'the secret is not shown back');
    await panel.getByText('A secret is saved. Leave this empty to keep it, or enter a new one to replace it.').waitFor();
    await panel.getByText(/^Your team's sign-in link \(share it with your reps\): /).waitFor();

    // Come back: the settings as saved, SSO required, the secret still not shown.
    const again = ssoPanel(await teamsSection());
    await again.getByRole('button', { name: 'Remove company sign-in' }).waitFor();
    assert.equal(await again.getByLabel('Issuer URL').inputValue(), idp.issuer);
    assert.equal(await again.getByLabel('Email domains').inputValue(), 'karoo-solar.test');
    assert.equal(await again.getByLabel(/^Require SSO for the team/).isChecked(), true);
    assert.equal(await again.getByLabel('Client secret').inputValue(), '');
    await again.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('team-company-sign-in-saved'), fullPage: true });
  });

  it('staff read the team’s SSO and SCIM state in the console and turn each off; the leader’s section says so', async () => {
    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await staffContext.addCookies([sessionCookie(staff.client.sessionId!)]);
    const consolePage = await staffContext.newPage();
    await consolePage.goto(`${system.gatewayUrl}/staff`);
    await consolePage.getByLabel('Email, username or name').fill('karoo-lead');
    await consolePage.getByRole('button', { name: 'Search' }).click();
    await consolePage.getByRole('button', { name: 'Open karoo-lead' }).click();
    const state = consolePage.getByRole('region', { name: 'Team sign-in and provisioning' });
    await state.getByTestId('staff-sso').filter({ hasText: 'configured' }).waitFor();
    assert.equal(await state.getByTestId('staff-sso').textContent(), `configured (${idp.issuer}), required`);
    assert.match((await state.getByTestId('staff-scim').textContent()) ?? '', /^token made .+, last used .+$/);
    assert.doesNotMatch((await state.textContent()) ?? '', /dcscim_/, 'staff never see a token');
    await consolePage.screenshot({ path: screenshotPath('staff-team-sign-in-on'), fullPage: true });

    await state.getByRole('button', { name: 'Turn company sign-in off' }).click();
    assert.match(await answerDialog(consolePage, 'Turn company sign-in off?', 'Turn off'), /its reps sign in with their passwords again/);
    await state.getByTestId('staff-sso').filter({ hasText: /^off$/ }).waitFor();
    assert.match((await state.getByTestId('staff-scim').textContent()) ?? '', /^token made/, 'only company sign-in was turned off');
    await state.getByRole('button', { name: 'Turn SCIM off' }).click();
    assert.match(await answerDialog(consolePage, 'Turn SCIM provisioning off?', 'Turn off'), /can no longer provision reps/);
    await state.getByTestId('staff-scim').filter({ hasText: /^off$/ }).waitFor();
    assert.equal(await state.getByRole('button').count(), 0, 'nothing left to turn off');
    await consolePage.screenshot({ path: screenshotPath('staff-team-sign-in-off'), fullPage: true });
    await staffContext.close();

    assert.equal((await scim(token, 'GET', '/Users')).status, 401, 'the provider is refused');
    const section = await teamsSection();
    const scimNow = scimPanel(section);
    await scimNow.getByText('No token yet: your identity provider cannot provision reps.').waitFor();
    // The calls made stay on the record.
    await activity(scimNow).getByRole('table').getByText('201 created').waitFor();
    const ssoNow = ssoPanel(section);
    await ssoNow.getByRole('button', { name: 'Save company sign-in' }).waitFor();
    assert.equal(await ssoNow.getByRole('button', { name: 'Remove company sign-in' }).count(), 0, 'nothing to remove');
    assert.equal(await ssoNow.getByLabel('Issuer URL').inputValue(), '');
    assert.equal(await ssoNow.getByLabel(/^Require SSO for the team/).isChecked(), false);
    await ssoNow.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('team-sign-in-turned-off-by-staff'), fullPage: true });
  });
});
