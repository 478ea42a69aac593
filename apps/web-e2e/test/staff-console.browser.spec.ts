import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  answerDialog,
  createStaffAccount,
  launchChromium,
  registerOwner,
  screenshotPath,
  TestSystem,
  waitFor,
  type TestOwner,
} from '@digicard/testing';

// Issue 10's staff console in Chromium: a staff member (made by the create-staff command) signs in, finds an
// account by name, makes it a partner and a team leader, gives it a vanity path (a refused one first), and sees each
// change in the audit list; takes the print role away from a print account (after a confirmation; its signed-in
// session loses the print console) and is offered no such button on their own account; sees a print proof that
// failed to render and renders it again. An owner opening /staff is told it is not theirs.

describe('the staff console in Chromium', () => {
  let system: TestSystem;
  let browser: Browser;
  let staff: TestOwner;
  let owner: TestOwner;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['identity', 'profiles', 'orders', 'payments', 'payfast-simulator', 'gateway'] });
    browser = await launchChromium();
    staff = await createStaffAccount(system, { email: 'thandi@digicard.test', role: 'staff', username: 'thandi-staff' });
    owner = await registerOwner(
      system,
      { username: 'lindiwe', firstName: 'Lindiwe', lastName: 'Dlamini', email: 'lindiwe.d@example.co.za' },
      { verify: false },
    );
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const url = (path: string) => `${system.gatewayUrl}${path}`;

  async function signIn(who: TestOwner): Promise<{ page: Page; scripts: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(url('/login'));
    const form = page.getByRole('main');
    await form.getByLabel('Email', { exact: true }).fill(who.email);
    await form.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('main').getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(url('/dashboard'));
    return { page, scripts };
  }

  it('finds an account by name and makes it a partner and a team leader, each change audited on the page', async () => {
    const { page, scripts } = await signIn(staff);
    assert.ok(!scripts.some((s) => /staff-console/.test(s)), `the console's chunk is not loaded before /staff: ${scripts.join(', ')}`);
    await page.goto(url('/staff'));
    await page.getByRole('heading', { name: 'Staff console' }).waitFor();
    await page.getByLabel('Email, username or name').fill('dlamini');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: '1 account found' }).waitFor();
    assert.ok(
      scripts.some((s) => /staff-console/.test(s)),
      `the console loads in its own chunk: ${scripts.join(', ')}`,
    );
    await page.getByRole('button', { name: 'Open lindiwe' }).click();
    await page.getByRole('heading', { name: 'Lindiwe Dlamini (lindiwe)' }).waitFor();
    assert.equal(await page.getByTestId('staff-partner').textContent(), 'no');
    assert.equal(await page.getByTestId('staff-role').textContent(), 'user');
    await page.screenshot({ path: screenshotPath('staff-console-found'), fullPage: true });

    await page.getByRole('button', { name: 'Make partner' }).click();
    await page.getByRole('status').filter({ hasText: 'Partner saved.' }).waitFor();
    assert.equal(await page.getByTestId('staff-partner').textContent(), 'yes');
    await page.getByRole('button', { name: 'Make team leader' }).click();
    await page.getByRole('status').filter({ hasText: 'Role saved.' }).waitFor();
    assert.equal(await page.getByTestId('staff-role').textContent(), 'teamLeader');
    await page.getByRole('button', { name: 'Make ordinary user' }).waitFor();

    // The changes are a list of their own, read again from its first page after each change.
    const rows = page.getByRole('table', { name: 'Changes by staff' }).getByRole('row');
    await rows.nth(2).waitFor();
    assert.equal(await rows.count(), 3, 'a header and two changes');
    const cells = async (i: number) => (await rows.nth(i).getByRole('cell').allTextContents()).slice(1);
    assert.deepEqual(await cells(1), ['thandi-staff', 'Role', 'user', 'teamLeader']);
    assert.deepEqual(await cells(2), ['thandi-staff', 'Partner', 'no', 'yes']);
    await page.screenshot({ path: screenshotPath('staff-console-partner-team-leader'), fullPage: true });

    const [row] = await system.sql<{ role: string }>("SELECT role FROM identity.accounts WHERE username = 'lindiwe'");
    assert.equal(row!.role, 'teamLeader');
    assert.equal((await system.sql("SELECT is_partner FROM profiles.profiles WHERE username = 'lindiwe'"))[0]!['is_partner'], true);
  });

  it('takes the print role away after a confirmation: the row, the account and its audit say user, its session loses print', async () => {
    const printer = await createStaffAccount(system, { email: 'ayanda@digicard.test', role: 'print', username: 'ayanda-print' });
    assert.equal((await printer.client.request('/api/print/orders')).status, 200);
    const { page } = await signIn(staff);
    await page.goto(url('/staff'));
    await page.getByLabel('Email, username or name').fill('ayanda');
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'ayanda-print' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /· print/);
    await page.getByRole('button', { name: 'Open ayanda-print' }).click();
    await page.getByRole('heading', { name: /\(ayanda-print\)/ }).waitFor();
    assert.equal(await page.getByTestId('staff-role').textContent(), 'print');
    assert.ok(!(await page.getByRole('button', { name: 'Make team leader' }).isVisible()));

    await page.getByRole('button', { name: 'Remove print access' }).click();
    await page.getByRole('alertdialog').waitFor();
    await page.screenshot({ path: screenshotPath('staff-console-remove-print-access'), fullPage: true });
    const asked = await answerDialog(page, /^Remove the print access of .*\(ayanda-print\)\?$/, 'Remove print access');
    assert.match(asked, /no longer open the print console/);
    await page.getByRole('status').filter({ hasText: 'Role saved.' }).waitFor();
    assert.equal(await page.getByTestId('staff-role').textContent(), 'user');
    assert.match((await row.textContent()) ?? '', /· user/);
    await page.getByRole('button', { name: 'Make team leader' }).waitFor();
    const audit = page.getByRole('table', { name: 'Changes by staff' }).getByRole('row');
    // The list is read again after the change: wait for its row (allTextContents does not wait; it read an empty list once).
    await audit.nth(1).filter({ hasText: 'thandi-staff' }).waitFor();
    assert.deepEqual((await audit.nth(1).getByRole('cell').allTextContents()).slice(1), ['thandi-staff', 'Role', 'print', 'user']);
    await page.screenshot({ path: screenshotPath('staff-console-print-access-removed'), fullPage: true });

    const [account] = await system.sql<{ role: string }>("SELECT role FROM identity.accounts WHERE username = 'ayanda-print'");
    assert.equal(account!.role, 'user');
    // The printer's session, signed in before, is ended by the revocation: the print console asks them to sign in.
    await waitFor('the printer’s session to end', async () => (await printer.client.request('/api/print/orders')).status === 401);

    // Their own staff role: no button, the reason instead.
    await page.getByLabel('Email, username or name').fill('thandi-staff');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Open thandi-staff' }).click();
    await page.getByRole('heading', { name: /\(thandi-staff\)/ }).waitFor();
    await page.getByText('You cannot take away your own staff role: ask another staff member.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Remove staff access' }).count(), 0);
  });

  it('shows a refused vanity path on its field, then saves a good one that leads to the profile', async () => {
    const { page } = await signIn(staff);
    await page.goto(url('/staff'));
    await page.getByLabel('Email, username or name').fill('lindiwe');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Open lindiwe' }).click();
    await page.getByLabel('Vanity paths').fill('dashboard');
    await page.getByRole('button', { name: 'Save vanity paths' }).click();
    await page.getByText('dashboard: That path is a page of the site. Please choose another.').waitFor();
    await page.screenshot({ path: screenshotPath('staff-console-vanity-refused'), fullPage: true });
    await page.getByLabel('Vanity paths').fill('lindiwe-promo, pinnacle-point-2');
    await page.getByRole('button', { name: 'Save vanity paths' }).click();
    await page.getByRole('status').filter({ hasText: 'Vanity paths saved.' }).waitFor();
    assert.equal(await page.getByLabel('Vanity paths').inputValue(), 'lindiwe-promo, pinnacle-point-2');
    const redirect = await fetch(url('/pinnacle-point-2'), { redirect: 'manual' });
    assert.equal(redirect.headers.get('location'), '/lindiwe');
  });

  it('lists a print proof that failed to render, with why, and renders it again', async () => {
    // A paid order whose buyer's profile is gone before the proof renders: every attempt fails ("no profile").
    const buyer = await registerOwner(
      system,
      { username: 'bongani', firstName: 'Bongani', lastName: 'Nkosi', email: 'bongani@example.co.za' },
      { verify: false },
    );
    const checkout = await buyer.client.request('/api/orders', { body: { items: [{ id: 'bamboo-card', colour: 'Bamboo', quantity: 1 }] } });
    assert.equal(checkout.status, 201);
    await system.sql('DELETE FROM profiles.profiles WHERE account_id = $1', [buyer.accountId]);
    const html = await (await fetch(checkout.body.redirectUrl)).text();
    const action = /\/eng\/process\/([\w-]+)/.exec(html.replace(/&#x2F;|&#47;/g, '/'))?.[1];
    assert.ok(action);
    await fetch(`${system.payfastUrl}/eng/process/${action}/pay`, { method: 'POST', redirect: 'manual' });
    const reference: string = checkout.body.order.reference;
    await waitFor(
      'the proof to fail',
      async () => {
        const rows = await system.sql<{ status: string }>(
          'SELECT p.status FROM orders.proofs p JOIN orders.orders o ON o.id = p.order_id WHERE o.reference = $1',
          [reference],
        );
        return rows[0]?.status === 'failed' ? true : null;
      },
      60_000,
    );

    const { page } = await signIn(staff);
    await page.goto(url('/staff'));
    const section = page.getByRole('region', { name: 'Failed print proofs' });
    const row = section.getByRole('row').filter({ hasText: reference });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /5 attempts: the buyer has no profile to print/);
    await page.screenshot({ path: screenshotPath('staff-console-failed-proofs'), fullPage: true });
    await row.getByRole('button', { name: `Render the proof of order ${reference} again` }).click();
    await section
      .getByRole('status')
      .filter({ hasText: `Order ${reference}: the proof is rendering again.` })
      .waitFor();
    const [proof] = await system.sql<{ status: string; attempts: number }>(
      'SELECT p.status, p.attempts FROM orders.proofs p JOIN orders.orders o ON o.id = p.order_id WHERE o.reference = $1',
      [reference],
    );
    assert.ok(proof!.status === 'rendering' || proof!.status === 'failed', `rendering again: ${proof!.status}`);
  });

  it('tells an owner who opens /staff that it is for staff only, and the API refuses them', async () => {
    const { page, scripts } = await signIn(owner);
    await page.goto(url('/staff'));
    await page.getByText('This page is for DigiCard staff only.').waitFor();
    assert.ok(!scripts.some((s) => /staff-console/.test(s)), 'an owner never loads the console chunk');
    const status = await page.evaluate(async () => (await fetch('/api/staff/accounts/00000000-0000-4000-8000-000000000000')).status);
    assert.equal(status, 403);
    await page.screenshot({ path: screenshotPath('staff-console-owner'), fullPage: true });
  });
});
