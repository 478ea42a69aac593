import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext } from 'playwright-core';
import { CrmMessages } from '@digicard/contracts';
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

// A Gold owner connects a CRM (a local HTTP server) in the dashboard; a visitor's lead reaches it, signed; the log
// shows it. A failing CRM shows failed attempts. A Silver owner sees the upgrade message.

describe('CRM integration in the browser', () => {
  let system: TestSystem;
  let browser: Browser;
  let crm: Server;
  let crmUrl: string;
  let thandi: TestOwner;
  let musa: TestOwner;
  const received: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];

  const ownerContext = async (owner: TestOwner, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    return context;
  };

  beforeAll(async () => {
    crm = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/broken') res.writeHead(500, { 'content-type': 'text/plain' }).end('CRM is down');
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
    crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'],
      env: { notifications: { CRM_WEBHOOK_ALLOW_LOCAL: 'true', CRM_WEBHOOK_RETRY_DELAYS_MS: '300,300' } },
    });
    thandi = await registerOwner(system, { username: 'thandi', firstName: 'Thandi', lastName: 'Mahlangu', email: 'thandi@example.co.za' });
    musa = await registerOwner(system, { username: 'musa', firstName: 'Musa', lastName: 'Dube', email: 'musa@example.co.za' });
    await setMembership(system, 'thandi', 'DigiGold');
    await setMembership(system, 'musa', 'DigiSilver');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await new Promise<void>((resolve) => crm.close(() => resolve()));
  });

  it('a Gold owner connects a CRM; a visitor’s lead reaches it signed, and the log shows it', async () => {
    const context = await ownerContext(thandi);
    const page = await context.newPage();
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'CRM integration' }).click();
    const panel = page.getByRole('tabpanel', { name: 'CRM integration' });
    await panel.getByText('Nothing sent yet.').waitFor();

    // http to a public name is refused outside development... here local addresses are allowed, but not ftp.
    await panel.getByLabel('Webhook address').fill('ftp://crm.example.com/hook');
    await panel.getByRole('button', { name: 'Save webhook' }).click();
    await panel.getByText(CrmMessages.httpsOnly).waitFor();

    // Enter in the address saves it (not the profile).
    await panel.getByLabel('Webhook address').fill(`${crmUrl}/leads`);
    await panel.getByLabel('Webhook address').press('Enter');
    await panel.getByRole('status').filter({ hasText: 'Webhook saved.' }).waitFor();
    assert.equal(await panel.getByLabel('Send new leads to this address').isChecked(), true);
    await panel.getByRole('button', { name: 'Show secret' }).click();
    const secret = ((await panel.getByLabel('Your secret').textContent()) ?? '').trim();
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);

    await panel.getByRole('button', { name: 'Send test lead' }).click();
    await panel.getByText('Test lead sent. Its delivery shows below.').waitFor();
    const log = panel.getByRole('table');
    await log.getByRole('row').filter({ hasText: 'Test lead' }).filter({ hasText: 'Delivered' }).waitFor();

    // A visitor leaves a lead on Thandi's public page.
    const visitors = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const visitor = await visitors.newPage();
    await visitor.goto(`${system.gatewayUrl}/thandi`);
    await visitor.getByRole('button', { name: 'Let me get in contact with you.' }).click();
    const form = visitor.locator('form[data-lead-kind="lead"]');
    await form.getByLabel('First name').fill('Lwazi');
    await form.getByLabel('Email').fill('lwazi@example.co.za');
    await form.getByLabel('Message').fill('Please quote for 20 cards.');
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Send' }).click();
    await visitor.getByRole('status').filter({ hasText: 'Thank you! I will get in touch with you soon.', visible: true }).first().waitFor();
    await visitors.close();

    const hit = await waitFor('the CRM to receive the lead', () =>
      Promise.resolve(received.find((r) => r.path === '/leads' && r.headers['x-digicard-event'] === 'lead.captured') ?? null),
    );
    const header = String(hit.headers['x-digicard-signature']);
    const t = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    assert.ok(t, header);
    assert.equal(
      t[2],
      createHmac('sha256', secret).update(`${t[1]}.${hit.body}`).digest('hex'),
      'signed with the secret the dashboard shows',
    );
    const lead = JSON.parse(hit.body).data.lead;
    assert.deepEqual([lead.firstName, lead.email, lead.message], ['Lwazi', 'lwazi@example.co.za', 'Please quote for 20 cards.']);

    // The log (read again every few seconds) shows the lead delivered, with the CRM's answer.
    const row = log.getByRole('row').filter({ hasText: 'Lwazi' });
    await row.filter({ hasText: 'Delivered' }).waitFor({ timeout: 20_000 });
    assert.match((await row.textContent()) ?? '', /HTTP 200\s*1$/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath('crm-gold-delivered'), fullPage: true });
    await context.close();
  });

  it('a failing CRM: the attempts are retried and the log shows them failed, on a phone', async () => {
    const context = await ownerContext(thandi, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'CRM integration' }).click();
    const panel = page.getByRole('tabpanel', { name: 'CRM integration' });
    await panel.getByLabel('Webhook address').fill(`${crmUrl}/broken`);
    await panel.getByRole('button', { name: 'Save webhook' }).click();
    await panel.getByRole('status').filter({ hasText: 'Webhook saved.' }).waitFor();
    await panel.getByRole('button', { name: 'Send test lead' }).click();
    const failed = panel.getByRole('row').filter({ hasText: 'Failed' });
    await failed.waitFor({ timeout: 20_000 });
    const text = (await failed.textContent()) ?? '';
    assert.match(text, /Test lead/);
    assert.match(text, /HTTP 500/);
    assert.match(text, /HTTP 500\s*3$/, 'the last answer, and three attempts');
    assert.equal(received.filter((r) => r.path === '/broken').length, 3);
    await failed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('crm-gold-failed-phone'), fullPage: true });
    await panel.getByRole('region', { name: 'Delivery log' }).screenshot({ path: screenshotPath('crm-gold-log-phone') });
    await context.close();
  });

  it('a Silver owner sees the upgrade message, and no form', async () => {
    const context = await ownerContext(musa);
    const page = await context.newPage();
    await page.goto(`${system.gatewayUrl}/dashboard`);
    await page.getByRole('tab', { name: 'CRM integration' }).click();
    const panel = page.getByRole('tabpanel', { name: 'CRM integration' });
    await panel.getByText(CrmMessages.upgrade).waitFor();
    assert.equal(await panel.getByLabel('Webhook address').count(), 0);
    await page.screenshot({ path: screenshotPath('crm-silver-upgrade'), fullPage: true });
    await context.close();
  });
});
