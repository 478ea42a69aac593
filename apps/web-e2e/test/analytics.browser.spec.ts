import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext } from 'playwright-core';
import { ProfileDefaults } from '@digicard/contracts';
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

describe('analytics and sharing in the browser', () => {
  let system: TestSystem;
  let browser: Browser;
  let lindiwe: TestOwner;
  let bongani: TestOwner;

  const ownerContext = async (owner: TestOwner, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    return context;
  };

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'],
      env: { gateway: { ANALYTICS_FLUSH_MS: '200' } },
    });
    lindiwe = await registerOwner(system, {
      username: 'lindiwe',
      firstName: 'Lindiwe',
      lastName: 'Sithole',
      email: 'lindiwe@example.co.za',
    });
    bongani = await registerOwner(system, { username: 'bongani', firstName: 'Bongani', lastName: 'Zulu', email: 'bongani@example.co.za' });
    await setMembership(system, 'lindiwe', 'DigiPlatinum');
    await setMembership(system, 'bongani', 'DigiSilver');
    const saved = await lindiwe.client.request('/api/profile', {
      method: 'PUT',
      body: {
        document: {
          ...ProfileDefaults,
          title: 'Estate Agent',
          socialLinks: [{ platform: 'linkedin', url: 'https://www.linkedin.com/in/lindiwe' }],
        },
      },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('a Platinum owner sees views from QR, link and WhatsApp by source, and a click on a social link', async () => {
    const visitors = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await visitors.route('https://www.linkedin.com/**', (route) => route.fulfill({ status: 200, body: 'LinkedIn' }));
    const visitor = await visitors.newPage();
    for (const path of ['/lindiwe?src=qr', '/lindiwe?src=qr', '/lindiwe', '/lindiwe?src=wa']) {
      await visitor.goto(`${system.gatewayUrl}${path}`);
      await visitor.getByRole('heading', { name: 'Lindiwe Sithole' }).waitFor();
    }
    const popup = visitor.waitForEvent('popup');
    await visitor.getByRole('link', { name: 'LinkedIn' }).click();
    await (await popup).close();
    await visitors.close();

    await waitFor('the views and the click in profiles', async () => {
      const rows = await system.sql<{ n: number }>(
        "SELECT coalesce(sum(count), 0)::int AS n FROM profiles.analytics_daily WHERE metric IN ('view', 'click')",
      );
      return rows[0]!.n === 5;
    });

    const context = await ownerContext(lindiwe);
    const page = await context.newPage();
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Analytics' });
    const totals = panel.locator('.an-total');
    await totals.first().waitFor();
    assert.equal(await totals.filter({ hasText: 'Views' }).first().locator('dd').textContent(), '4');
    assert.equal(await totals.filter({ hasText: 'Clicks' }).locator('dd').textContent(), '1');
    const bySource = panel.getByRole('region', { name: 'Views by source' });
    const row = (label: string) => bySource.getByRole('listitem').filter({ hasText: label }).locator('.an-bars__value').textContent();
    assert.deepEqual([await row('QR code'), await row('Link'), await row('WhatsApp')], ['2', '1', '1']);
    assert.equal(
      await panel.getByRole('region', { name: 'Clicks per button and link' }).getByRole('listitem').first().textContent(),
      'Social link: linkedin1',
    );
    const chart = panel.getByRole('img', { name: /Views per day from .*: 4 in all/ });
    await chart.waitFor();
    await panel.getByText('Show the numbers as a table').click();
    const table = panel.getByRole('table');
    const todayRow = table.getByRole('row').last();
    assert.match((await todayRow.textContent()) ?? '', /^.+?4\s*1\s*2\s*0\s*1\s*0/);
    const csv = await page.evaluate(async () => (await fetch('/api/analytics.csv')).text());
    assert.match(csv, /Total,4,1,2,0,1,0,/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath('analytics-platinum'), fullPage: true });
    await context.close();
  });

  it('a Silver owner shares on WhatsApp from the dashboard and the page, and the link carries its source; no analytics beyond the totals', async () => {
    const context = await ownerContext(bongani);
    const page = await context.newPage();
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'QR Code' }).click();
    const qr = page.getByRole('tabpanel', { name: 'QR Code' });
    const share = qr.getByRole('link', { name: /Share on WhatsApp/ });
    const href = (await share.getAttribute('href')) ?? '';
    assert.ok(href.startsWith('https://wa.me/?text='));
    assert.ok(decodeURIComponent(href.slice('https://wa.me/?text='.length)).endsWith(`${system.gatewayUrl}/bongani?src=wa`));
    const mail = (await qr.getByRole('link', { name: 'Share by email' }).getAttribute('href')) ?? '';
    assert.ok(decodeURIComponent(mail).includes(`${system.gatewayUrl}/bongani?src=email`));
    await page.screenshot({ path: screenshotPath('share-silver-dashboard'), fullPage: true });

    await page.getByRole('tab', { name: 'Analytics' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Analytics' });
    await panel.getByText('Upgrade to DigiPlatinum to unlock analytics!').waitFor();
    assert.equal(await panel.getByRole('img').count(), 0, 'no chart below DigiPlatinum');
    await context.close();

    // A visitor on the public page: the WhatsApp share opens wa.me with the tagged link, and its click is counted.
    const visitors = await browser.newContext({ viewport: { width: 390, height: 844 } });
    let opened = '';
    await visitors.route('https://wa.me/**', (route) => {
      opened = route.request().url();
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>WhatsApp</title>' });
    });
    const visitor = await visitors.newPage();
    await visitor.goto(`${system.gatewayUrl}/bongani`);
    const popup = visitor.waitForEvent('popup');
    await visitor.getByRole('link', { name: /Share on WhatsApp/ }).click();
    await (await popup).waitForLoadState();
    assert.ok(decodeURIComponent(new URL(opened).searchParams.get('text') ?? '').endsWith(`${system.gatewayUrl}/bongani?src=wa`));
    await visitor.screenshot({ path: screenshotPath('share-silver-public-page'), fullPage: true });
    // The friend who gets the message opens the tagged link: a WhatsApp view.
    await visitor.goto(`${system.gatewayUrl}/bongani?src=wa`);
    await waitFor('the share click and the WhatsApp view', async () => {
      const rows = await system.sql<{ metric: string; key: string }>(
        "SELECT d.metric, d.key FROM profiles.analytics_daily d JOIN profiles.profiles p USING (account_id) WHERE p.username = 'bongani' AND ((d.metric = 'click' AND d.key = 'share:wa') OR (d.metric = 'view' AND d.key = 'wa'))",
      );
      return rows.length === 2;
    });
    await visitors.close();
  });
  it('a visitor who asks for their own profile gets the welcome email, and its link opens sign-up with their details', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const visitor = await context.newPage();
    await visitor.goto(`${system.gatewayUrl}/lindiwe`);
    await visitor.getByRole('button', { name: 'Get your own Profile' }).click();
    const form = visitor.locator('form[data-lead-kind="own-profile"]');
    await form.getByLabel('First name').fill('Ayanda');
    await form.getByLabel('Last name').fill('Mthembu');
    await form.getByLabel('Email').fill('ayanda@example.co.za');
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Send' }).click();
    await visitor.getByText('Thank you! Please check your email and follow the easy steps.').waitFor();

    const mail = await system.mail.waitFor((m) => m.to.includes('ayanda@example.co.za'));
    assert.equal(mail.subject, 'Your own DigiCard profile');
    assert.match(mail.text, /Hi Ayanda, you asked Lindiwe about a digital business card of your own/);
    const link = /Create my profile: (\S+)/.exec(mail.text)?.[1];
    assert.ok(link && link.startsWith(`${system.gatewayUrl}/register?`), mail.text);
    assert.ok(mail.html?.includes('Create my profile'));
    await visitor.goto(link);
    const signUp = visitor.locator('form.account-form');
    assert.equal(await signUp.getByLabel('First Name').inputValue(), 'Ayanda');
    assert.equal(await signUp.getByLabel('Last Name').inputValue(), 'Mthembu');
    assert.equal(await signUp.getByLabel('Email').inputValue(), 'ayanda@example.co.za');
    await visitor.screenshot({ path: screenshotPath('visitor-welcome-sign-up'), fullPage: true });
    // The lead keeps the consent the form showed, and when.
    const [lead] = await system.sql<{ consent_text: string; consent_at: Date | null }>(
      "SELECT consent_text, consent_at FROM profiles.leads WHERE email = 'ayanda@example.co.za'",
    );
    assert.equal(lead?.consent_text, 'I agree that Lindiwe may contact me about this.');
    assert.ok(lead?.consent_at);
    await context.close();
  });
});
