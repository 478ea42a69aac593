import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ProfileDefaults } from '@digicard/contracts';
import {
  acceptDialogs,
  launchChromium,
  registerOwner,
  screenshotPath,
  setMembership,
  TestSystem,
  type Mail,
  type TestOwner,
  waitFor,
  sessionCookie,
} from '@digicard/testing';

const dir = mkdtempSync(join(tmpdir(), 'teams-'));
const LEADER_PASSWORD = 'karoo solar leader 2026';

const linkIn = (mail: Mail, page: string): string => {
  const match = new RegExp(`https?://[^\\s]+/${page}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
  assert.ok(match, `no ${page} link in the email`);
  return match[0];
};

describe('a team leader adds reps (one by CSV), a rep signs in from the welcome email, the business is inherited live', () => {
  let system: TestSystem;
  let browser: Browser;
  let leaderContext: BrowserContext;
  let leaderPage: Page;
  let leader: TestOwner;
  const alerts: string[] = [];

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'notifications', 'gateway'] });
    leader = await registerOwner(system, {
      username: 'karoo-solar',
      firstName: 'Ayanda',
      lastName: 'Mthembu',
      email: 'ayanda@karoo-solar.co.za',
      password: LEADER_PASSWORD,
    });
    // Staff (or a DigiPlatinum subscription) make a team leader: here the role is set in identity's data directly.
    await system.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE username = 'karoo-solar'`);
    await setMembership(system, 'karoo-solar', 'DigiPlatinum');
    // A fresh sign-in carries the new role in the session.
    const signIn = await leader.client.request('/api/session', { body: { email: leader.email, password: LEADER_PASSWORD } });
    assert.equal(signIn.status, 200);
    assert.equal(signIn.body.user.role, 'teamLeader');
    const saved = await leader.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...ProfileDefaults, businessName: 'Karoo Solar', buttonBackgroundColor: '#0b5d1e' } },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));

    browser = await launchChromium();
    leaderContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await leaderContext.addCookies([sessionCookie(leader.client.sessionId!)]);
    leaderPage = await leaderContext.newPage();
    acceptDialogs(leaderPage, alerts, ['Delete rep']);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const teamsPanel = async (page: Page) => {
    await page.getByRole('tab', { name: 'Teams' }).click();
    return page.getByRole('tabpanel', { name: 'Teams' });
  };
  const waitForAlert = async (text: string) => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !alerts.includes(text)) await leaderPage.waitForTimeout(100);
    assert.ok(alerts.includes(text), `alert "${text}" in ${JSON.stringify(alerts)}`);
  };

  it('the leader adds a rep from the form on a 390 px phone, confirming with their own password, and stays signed in', async () => {
    await leaderPage.goto(`${system.gatewayUrl}/dashboard`);
    const panel = await teamsPanel(leaderPage);
    // The list and the leader view each say it (the view once its numbers have loaded): the list's words exactly.
    await panel.getByText('No sales reps yet. Add your first one below.').waitFor();
    const form = panel.getByRole('form', { name: 'Add a sales rep' });
    await form.getByLabel('Username').fill('sipho-rep');
    await form.getByRole('button', { name: 'Add rep' }).click();
    await form.getByText('Please fill in all fields.').waitFor();
    await form.getByLabel('First name').fill('Sipho');
    await form.getByLabel('Last name').fill('Dlamini');
    await form.getByLabel('Email').fill('sipho@karoo-solar.co.za');
    await form.getByLabel('Phone').fill('0821234567');
    await form.getByRole('button', { name: 'Add rep' }).click();
    await form.getByText('Password required to confirm.').waitFor();
    await form.getByLabel('Your password, to confirm').fill('not my password');
    await form.getByRole('button', { name: 'Add rep' }).click();
    await form.getByText('Incorrect password. Please try again.').waitFor();
    await form.getByLabel('Your password, to confirm').fill(LEADER_PASSWORD);
    await form.getByRole('button', { name: 'Add rep' }).click();
    await panel.getByText('Sales rep added successfully!').waitFor();
    await panel.getByRole('list', { name: 'Sales reps' }).getByRole('listitem', { name: 'Sipho Dlamini' }).waitFor();
    // No horizontal scrolling on the phone.
    assert.ok(
      await leaderPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
      'the Teams section fits 390 px',
    );
    await leaderPage.screenshot({ path: screenshotPath('teams-added-rep-390'), fullPage: true });
    // The leader is still signed in as themselves.
    const session = await leader.client.request('/api/session');
    assert.equal(session.body.user.username, 'karoo-solar');
  });

  it('adds a second rep from a CSV: a preview with per-row errors, nothing half-created, then all rows', async () => {
    const panel = await teamsPanel(leaderPage);
    const bad = join(dir, 'bad.csv');
    writeFileSync(
      bad,
      'username,first name,last name,email,phone\nlerato-rep,Lerato,Mahlangu,lerato@karoo-solar.co.za,0831112222\nsipho-rep,Sipho,Again,sipho2@karoo-solar.co.za,0831113333\n',
    );
    await panel.getByLabel('CSV file of reps').setInputFiles(bad);
    await panel.getByRole('table', { name: 'Reps in the file' }).waitFor();
    await panel.locator('#import-leader-password').fill(LEADER_PASSWORD);
    await panel.getByRole('button', { name: 'Check the rows' }).click();
    await panel.getByText('Some rows need fixing').waitFor();
    await panel
      .getByRole('row', { name: /sipho-rep/ })
      .getByText('That username is taken')
      .waitFor();
    assert.ok(
      await leaderPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
      'the CSV preview fits 390 px',
    );
    await leaderPage.screenshot({ path: screenshotPath('teams-csv-row-errors-390'), fullPage: true });
    assert.equal((await system.sql(`SELECT 1 FROM identity.accounts WHERE username = 'lerato-rep'`)).length, 0, 'nothing was created');

    const good = join(dir, 'good.csv');
    writeFileSync(good, 'username,first name,last name,email,phone\nlerato-rep,Lerato,Mahlangu,lerato@karoo-solar.co.za,0831112222\n');
    await panel.getByLabel('CSV file of reps').setInputFiles(good);
    await panel.getByRole('button', { name: 'Check the rows' }).click();
    await panel
      .getByRole('row', { name: /lerato-rep/ })
      .getByText('OK')
      .waitFor();
    await panel.getByRole('button', { name: 'Add all 1 reps' }).click();
    await panel.getByText('Sales rep added successfully!').waitFor();
    await panel.getByRole('list', { name: 'Sales reps' }).getByRole('listitem', { name: 'Lerato Mahlangu' }).waitFor();
  });

  it('the leader edits one rep at a time', async () => {
    const panel = await teamsPanel(leaderPage);
    await panel.getByRole('button', { name: 'Edit lerato-rep' }).click();
    const form = panel.getByRole('form', { name: 'Edit lerato-rep' });
    await form.getByLabel('Phone').fill('0834445555');
    await form.getByRole('button', { name: 'Save rep' }).click();
    await panel.getByText('Rep updated!').waitFor();
    await panel
      .getByRole('list', { name: 'Sales reps' })
      .getByRole('listitem', { name: 'Lerato Mahlangu' })
      .getByText('0834445555')
      .waitFor();
  });

  let repPage: Page;

  it('a rep signs in with the emailed link, edits personal fields and sees the business fields locked', async () => {
    const mail = await system.mail.waitFor(
      (m) => m.to.includes('sipho@karoo-solar.co.za') && m.subject === 'Welcome to your team on DigiCard',
    );
    assert.match(mail.text, /Ayanda Mthembu added you to their team/);
    const repContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    repPage = await repContext.newPage();
    const repAlerts: string[] = [];
    acceptDialogs(repPage, repAlerts);
    await repPage.goto(linkIn(mail, 'reset-password'));
    await repPage.getByLabel('New password').fill('karoo sun seller 9');
    await repPage.getByRole('button', { name: 'Save password' }).click();
    await repPage.waitForURL(`${system.gatewayUrl}/dashboard`);
    assert.equal(await repPage.getByRole('tab', { name: 'Teams' }).count(), 0, 'no Teams section for a rep');

    const contact = repPage.getByRole('tabpanel', { name: 'Contact Information' });
    await contact.getByLabel('Title').fill('Solar sales consultant');
    await contact.getByLabel('About me').fill('Ask me about panels for your farm.');
    await repPage.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor('the save alert', () => Promise.resolve(repAlerts.includes('Profile is updated')));

    await repPage.getByRole('tab', { name: 'Business Information' }).click();
    const business = repPage.getByRole('tabpanel', { name: 'Business Information' });
    await business.getByText('Managed by Karoo Solar').waitFor();
    assert.equal(await business.getByLabel('Business name').inputValue(), 'Karoo Solar');
    assert.ok(await business.getByLabel('Business name').isDisabled(), 'business name is locked');
    await repPage.screenshot({ path: screenshotPath('teams-rep-business-locked-390'), fullPage: true });
    await repPage.getByRole('tab', { name: 'Design' }).click();
    await repPage.getByRole('tabpanel', { name: 'Design' }).getByText('Managed by Karoo Solar').waitFor();

    const page = await system.client().request('/sipho-rep');
    assert.equal(page.status, 200);
    assert.match(String(page.body), /Solar sales consultant/);
    assert.match(String(page.body), /Karoo Solar/);
  });

  it("the leader changes the logo and both reps' public pages show it at once (not after the page cache's 60 s)", async () => {
    // The pages are in the gateway's cache before the change.
    for (const username of ['sipho-rep', 'lerato-rep']) assert.equal((await system.client().request(`/${username}`)).status, 200);
    await leaderPage.getByRole('tab', { name: 'Business Information' }).click();
    const logo = join(dir, 'logo.png');
    writeFileSync(
      logo,
      await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 11, g: 93, b: 30 } } })
        .png()
        .toBuffer(),
    );
    await leaderPage.getByRole('tabpanel', { name: 'Business Information' }).getByLabel('Business logo').setInputFiles(logo);
    await waitForAlert('Business logo uploaded and saved successfully!');
    const { body } = await leader.client.request('/api/profile');
    const logoUrl = body.document.businessLogo as string;
    assert.match(logoUrl, /^\/media\//);
    // Within 15 s each, well inside the page cache's 60 s: only the change's events can have dropped the cached pages
    // (how soon a Save shows is measured by tools/bench/public-page.mjs; this lane runs beside the system lane).
    for (const username of ['sipho-rep', 'lerato-rep']) {
      await waitFor(
        `${username}'s page to show the new logo`,
        async () => String((await system.client().request(`/${username}`)).body).includes(logoUrl),
        15_000,
        50,
      );
    }
    const visitor = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })).newPage();
    await visitor.goto(`${system.gatewayUrl}/lerato-rep`);
    await visitor.locator(`img[src="${logoUrl}"]`).first().waitFor();
    await visitor.screenshot({ path: screenshotPath('teams-rep-public-page-logo-390'), fullPage: true });
    await repPage.goto(`${system.gatewayUrl}/sipho-rep`);
    await repPage.locator(`img[src="${logoUrl}"]`).first().waitFor();
  });

  it("the leader view: each rep's views, saves and leads after visits to their pages, the team's totals, as a table too", async () => {
    // What was counted so far (the visitor above opened lerato-rep's page once); counts arrive within about a second.
    const counted = () =>
      system.sql<{ username: string; metric: string; n: number }>(
        `SELECT p.username, d.metric, sum(d.count)::int AS n FROM profiles.analytics_daily d JOIN profiles.profiles p USING (account_id)
         WHERE p.username IN ('sipho-rep', 'lerato-rep') GROUP BY 1, 2`,
      );
    await waitFor("the earlier visit to lerato-rep's page", async () =>
      (await counted()).some((r) => r.username === 'lerato-rep' && r.metric === 'view'),
    );
    const before = await counted();
    const base = (username: string, metric: string) => before.find((r) => r.username === username && r.metric === metric)?.n ?? 0;

    // Visitors: sipho-rep's page from the QR code twice (one saves the contact), lerato-rep's page by link once.
    const visitors = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, acceptDownloads: true });
    const visitor = await visitors.newPage();
    await visitor.goto(`${system.gatewayUrl}/sipho-rep?src=qr`);
    await visitor.goto(`${system.gatewayUrl}/sipho-rep?src=qr`);
    const download = visitor.waitForEvent('download');
    await visitor.getByRole('link', { name: 'Save to Contact' }).first().click();
    await (await download).cancel();
    await visitor.goto(`${system.gatewayUrl}/lerato-rep`);
    await visitors.close();
    const lead = await system.client().request('/api/profiles/sipho-rep/leads', {
      body: { kind: 'lead', firstName: 'Naledi', email: 'naledi@example.co.za', consent: true, message: 'Panels for a farm, please' },
    });
    assert.equal(lead.status, 202, JSON.stringify(lead.body));
    const expected = {
      sipho: { views: base('sipho-rep', 'view') + 2, saves: base('sipho-rep', 'save') + 1 },
      lerato: { views: base('lerato-rep', 'view') + 1 },
    };
    await waitFor('the visits counted', async () => {
      const now = await counted();
      const n = (u: string, m: string) => now.find((r) => r.username === u && r.metric === m)?.n ?? 0;
      return (
        n('sipho-rep', 'view') === expected.sipho.views &&
        n('sipho-rep', 'save') === expected.sipho.saves &&
        n('lerato-rep', 'view') === expected.lerato.views
      );
    });

    const panel = await teamsPanel(leaderPage);
    const view = panel.getByRole('region', { name: 'Your team’s numbers' });
    const stat = (name: string, label: string) =>
      view
        .getByRole('listitem', { name })
        .locator('.tm-rep-stat__numbers > div')
        .filter({ has: leaderPage.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
        .locator('dd')
        .textContent();
    await view.getByRole('listitem', { name: 'Sipho Dlamini' }).waitFor();
    assert.deepEqual(
      [await stat('Sipho Dlamini', 'Views'), await stat('Sipho Dlamini', 'Saved to contacts'), await stat('Sipho Dlamini', 'Leads')],
      [String(expected.sipho.views), String(expected.sipho.saves), '1'],
    );
    assert.deepEqual(
      [await stat('Lerato Mahlangu', 'Views'), await stat('Lerato Mahlangu', 'Leads')],
      [String(expected.lerato.views), '0'],
    );
    const totals = view.locator('dl[aria-label="Team totals"]');
    assert.match((await totals.textContent()) ?? '', new RegExp(`Team views${expected.sipho.views + expected.lerato.views}`));
    // The accessible fallback: the same numbers as a table, with the team's totals.
    await view.getByText('Show the numbers as a table').click();
    const table = view.getByRole('table');
    assert.match(
      (await table.getByRole('row', { name: /sipho-rep/ }).textContent()) ?? '',
      new RegExp(`sipho-rep\\)${expected.sipho.views}${expected.sipho.saves}1`),
    );
    assert.match(
      (await table.getByRole('row', { name: /Team total/ }).textContent()) ?? '',
      new RegExp(`^Team total${expected.sipho.views + expected.lerato.views}`),
    );
    const csv = await leaderPage.evaluate(async () => (await fetch('/api/team/analytics.csv')).text());
    assert.match(csv, new RegExp(`sipho-rep,Sipho Dlamini,${expected.sipho.views},\\d+,${expected.sipho.saves},\\d+,1`));
    assert.ok(
      await leaderPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
      'the leader view fits 390 px',
    );
    await view.scrollIntoViewIfNeeded();
    await leaderPage.screenshot({ path: screenshotPath('teams-leader-view-390'), fullPage: true });
  });

  it('the leader deletes a rep after confirming: the rep is signed out, the page goes', async () => {
    const panel = await teamsPanel(leaderPage);
    await panel.getByRole('button', { name: 'Delete lerato-rep' }).click();
    await waitForAlert(
      alerts.find((a) => a.startsWith('Delete Lerato Mahlangu')) ??
        'Delete Lerato Mahlangu (lerato-rep) from your team? They will no longer be able to sign in; their leads stay with your team.',
    );
    await panel.getByText('Sales rep deleted.').waitFor();
    await waitFor(
      'the rep to leave the list',
      async () => (await panel.getByRole('list', { name: 'Sales reps' }).getByRole('listitem', { name: 'Lerato Mahlangu' }).count()) === 0,
    );
    // Every part of the section agrees once the numbers have loaded again: the deleted rep is not in them either
    // (they come from profiles, which hears of the removal a moment later; teams' list decides who is shown).
    const view = panel.getByRole('region', { name: 'Your team’s numbers' });
    await view.getByRole('listitem', { name: 'Sipho Dlamini' }).waitFor();
    assert.equal(await view.getByRole('listitem', { name: 'Lerato Mahlangu' }).count(), 0, 'the deleted rep is not in the numbers');
    assert.doesNotMatch((await view.textContent()) ?? '', /lerato-rep|Lerato/);
    await leaderPage.screenshot({ path: screenshotPath('teams-rep-deleted-390'), fullPage: true });
    await waitFor("the rep's page to go", async () => (await system.client().request('/lerato-rep')).status === 404, 5000);
    const signIn = await system
      .client()
      .request('/api/session', { body: { email: 'lerato@karoo-solar.co.za', password: 'whatever-it-was' } });
    assert.equal(signIn.status, 401);
    const team = await leader.client.request('/api/team/reps');
    assert.deepEqual(
      team.body.reps.map((r: { username: string }) => r.username),
      ['sipho-rep'],
    );
  });
});
