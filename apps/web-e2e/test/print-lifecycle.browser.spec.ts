import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  answerDialog,
  ApiClient,
  launchChromium,
  registerOwner,
  screenshotPath,
  TestSystem,
  type TestOwner,
  waitFor,
  sessionCookie,
} from '@digicard/testing';

// From a paid order to delivered: the owner buys a card (PayFast simulator), the proof is rendered (checked: page
// size with bleed, the QR code decodes to the card's URL), the owner asks for a change and then approves in the
// dashboard's Orders, the print team moves it through printing, NFC, shipping and delivery in /print, and the card's
// /c/{serial} opens the profile until the owner disables it. All on a 390 px phone.

describe('a card from payment to delivery', () => {
  let system: TestSystem;
  let browser: Browser;
  let owner: TestOwner;
  let printer: TestOwner;
  let ownerPage: Page;
  let printPage: Page;
  let orderId: string;
  let serial: string;
  const work = mkdtempSync(join(tmpdir(), 'print-e2e-'));

  async function contextFor(who: TestOwner): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([sessionCookie(who.client.sessionId!)]);
    return context;
  }

  /** The raw bytes of a GET as this account (files are not JSON). */
  async function bytes(who: TestOwner, path: string): Promise<{ status: number; type: string | null; body: Buffer }> {
    const res = await fetch(`${system.gatewayUrl}${path}`, { headers: { cookie: who.client.cookie! } });
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  }

  const detail = async () => (await owner.client.request('/api/order-details')).body.orders.find((o: { id: string }) => o.id === orderId);

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'orders', 'payments', 'notifications', 'gateway'],
    });
    owner = await registerOwner(system, { username: 'nomsa', firstName: 'Nomsa', lastName: 'Dube', email: 'nomsa@example.co.za' });
    const profile = (await owner.client.request('/api/profile')).body;
    const saved = await owner.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...profile.document, title: 'Head of Sales', businessName: 'Karoo Coffee Co.' } },
    });
    assert.equal(saved.status, 200);
    // The print account: made as the staff command will make one (role set in identity), then signed in.
    const registered = await registerOwner(
      system,
      { username: 'printroom', firstName: 'Print', lastName: 'Room', email: 'print@example.co.za' },
      { verify: false },
    );
    await system.sql("UPDATE identity.accounts SET role = 'print' WHERE id = $1", [registered.accountId]);
    const client = new ApiClient(system.gatewayUrl);
    assert.equal((await client.request('/api/session', { body: { email: registered.email, password: registered.password } })).status, 200);
    printer = { ...registered, client };
    browser = await launchChromium();
    ownerPage = await (await contextFor(owner)).newPage();
    printPage = await (await contextFor(printer)).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('pays for a PVC card at PayFast; the proof is rendered to print size with its QR code on the card URL', async () => {
    await ownerPage.goto(`${system.gatewayUrl}/accessories/pvc-card`);
    // The buyer chooses the colour: Black (the first) is chosen until they pick White.
    const colours = ownerPage.getByRole('group', { name: 'Colour' });
    assert.equal(await colours.getByRole('radio', { name: 'Black' }).isChecked(), true);
    await colours.getByRole('radio', { name: 'White' }).check();
    await ownerPage.getByRole('button', { name: 'ADD TO CART' }).click();
    await ownerPage.getByText('Added to your basket. (White)').waitFor();
    await ownerPage.screenshot({ path: screenshotPath('accessory-colour'), fullPage: true });
    await ownerPage.goto(`${system.gatewayUrl}/cart`);
    assert.equal(await ownerPage.getByRole('combobox', { name: 'Colour of PVC NFC Card' }).inputValue(), 'White');
    await ownerPage.screenshot({ path: screenshotPath('basket-colour'), fullPage: true });
    await ownerPage.getByRole('button', { name: 'Checkout with PayFast' }).click();
    await ownerPage.waitForURL((url) => url.href.startsWith(`${system.payfastUrl}/`));
    await ownerPage.getByRole('button', { name: 'Pay' }).click();
    await ownerPage.waitForURL(`${system.gatewayUrl}/thank-you`);

    orderId = (await owner.client.request('/api/orders')).body.orders[0].id;
    const ready = await waitFor('the proof', async () => ((await detail())?.status === 'proof-ready' ? detail() : null), 30_000);
    assert.equal(ready.cards.length, 1);
    assert.deepEqual([ready.lines[0].colour, ready.cards[0].material, ready.cards[0].colour], ['White', 'PVC', 'White']);
    serial = ready.cards[0].serial;
    assert.equal(ready.cards[0].url, `${system.gatewayUrl}/c/${serial}`);

    const pdf = await bytes(owner, `/api/orders/${orderId}/proof.pdf`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.type, 'application/pdf');
    const pdfPath = join(work, 'proof.pdf');
    writeFileSync(pdfPath, pdf.body);
    const info = execFileSync('pdfinfo', ['-box', pdfPath], { encoding: 'utf8' });
    assert.match(info, /Pages:\s+2/);
    assert.match(info, /Page size:\s+259\.65\d* x 170\.07\d* pts/, '91.6 x 60 mm: 85.6 x 54 mm and 3 mm bleed on each side');
    assert.match(info, /TrimBox:\s+8\.50\s+8\.50\s+251\.15\s+161\.57/);
    const text = execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' });
    for (const expected of ['Nomsa Dube', 'Head of Sales', 'Karoo Coffee Co.', serial])
      assert.ok(text.includes(expected), `the proof shows ${expected}`);
    execFileSync('pdftoppm', ['-r', '400', '-png', '-f', '2', '-l', '2', pdfPath, join(work, 'back')]);
    const back = readdirSync(work).find((f) => f.startsWith('back'))!;
    assert.equal(
      execFileSync('zbarimg', ['-q', '--raw', join(work, back)], { encoding: 'utf8' }).trim(),
      `${system.gatewayUrl}/c/${serial}`,
    );
    const png = await bytes(owner, `/api/orders/${orderId}/proof.png`);
    assert.equal(png.type, 'image/png');
    writeFileSync(screenshotPath('print-proof-preview', 'png'), png.body);
    const mail = await system.mail.waitFor((m) => m.to.includes('nomsa@example.co.za') && m.subject.includes('print proof is ready'));
    assert.match(mail.text, /approve it, or ask for changes/);
    // The receipt names the colour and says what happens next: the proof to approve under Orders.
    const receipt = await system.mail.waitFor((m) => m.to.includes('nomsa@example.co.za') && m.subject.endsWith(': thank you'));
    assert.match(receipt.text, /1 x PVC NFC Card in White at R369\.00/);
    assert.match(receipt.text, /open Orders in your dashboard to approve the proof/);
    assert.doesNotMatch(receipt.text, /get in touch/);
  });

  it('the owner asks for a change in Orders, the print team renders again, the owner approves', async () => {
    await ownerPage.goto(`${system.gatewayUrl}/dashboard`);
    await ownerPage.getByRole('tab', { name: 'Orders' }).click();
    const panel = ownerPage.getByRole('tabpanel', { name: 'Orders' });
    await panel.getByText('Proof ready for your approval', { exact: true }).waitFor();
    await panel.getByRole('img', { name: /Print proof of order/ }).waitFor();
    await ownerPage.screenshot({ path: screenshotPath('orders-proof-ready'), fullPage: true });
    await panel.getByRole('button', { name: 'Request changes' }).click();
    await panel.getByLabel('What should change?').fill('Please make the title "Head of Sales, Western Cape".');
    await panel.getByRole('button', { name: 'Send changes' }).click();
    await panel.getByText('Changes requested', { exact: true }).first().waitFor();

    await printPage.goto(`${system.gatewayUrl}/print`);
    await printPage.getByRole('heading', { name: 'Print console' }).waitFor();
    await printPage.getByText('1 x PVC NFC Card in White').first().waitFor();
    await printPage.getByRole('button', { name: 'Render proof again' }).click();
    await waitFor(
      'the new proof',
      async () => {
        const d = await detail();
        return d.status === 'proof-ready' && d.proof.status === 'ready' ? d : null;
      },
      30_000,
    );

    await ownerPage.reload();
    await ownerPage.getByRole('tab', { name: 'Orders' }).click();
    await panel.getByRole('button', { name: 'Approve proof' }).click();
    await panel.getByText('Approved: waiting to print', { exact: true }).waitFor();
    await panel.getByText('Status history').click();
    await panel.getByText('Please make the title').waitFor();
  });

  it('the print team prints, records the NFC UID, ships with tracking and marks it delivered in /print', async () => {
    await printPage.reload();
    const order = printPage
      .getByRole('listitem')
      .filter({ has: printPage.getByRole('heading', { name: /^Order DC-/ }) })
      .first();
    await order.getByRole('button', { name: 'Start printing' }).click();
    await order.getByText('Printing', { exact: true }).first().waitFor();
    await order.getByRole('button', { name: 'NFC encoded' }).click();
    await order.getByText(/Record the NFC UID of every card first/).waitFor();
    await order.getByLabel(`NFC UID of card ${serial}`).fill('04:a2:3b:1c:5d:80:00');
    await order.getByRole('button', { name: 'Save' }).click();
    await order.getByLabel(`NFC UID of card ${serial}`).waitFor();
    await waitFor('the UID', async () => (await detail()).cards[0].nfcUid === '04A23B1C5D8000');
    await order.getByRole('button', { name: 'NFC encoded' }).click();
    await order.getByLabel('Courier').fill('The Courier Guy');
    await order.getByLabel('Tracking number').fill('TCG-778812');
    await printPage.screenshot({ path: screenshotPath('print-console-shipping'), fullPage: true });
    await order.getByRole('button', { name: 'Mark shipped' }).click();
    await order.getByText('Courier: The Courier Guy · Tracking number: TCG-778812').waitFor();
    const slip = await bytes(printer, `/api/print/orders/${orderId}/packing-slip.pdf`);
    assert.equal(slip.status, 200);
    writeFileSync(join(work, 'slip.pdf'), slip.body);
    const slipText = execFileSync('pdftotext', [join(work, 'slip.pdf'), '-'], { encoding: 'utf8' });
    assert.ok(slipText.includes(serial) && slipText.includes('TCG-778812') && slipText.includes('Nomsa Dube'));
    assert.ok(slipText.includes('1 x PVC NFC Card, White') && slipText.includes('PVC White'), 'the slip names the colour');
    await order.getByRole('button', { name: 'Mark delivered' }).click();
    await printPage.getByRole('heading', { name: 'Delivered' }).waitFor();
    await printPage.screenshot({ path: screenshotPath('print-console-delivered'), fullPage: true });
    const shipped = await system.mail.waitFor((m) => m.to.includes('nomsa@example.co.za') && m.subject.includes('on their way'));
    assert.match(shipped.text, /Tracking number: TCG-778812/);
    await system.mail.waitFor((m) => m.to.includes('nomsa@example.co.za') && m.subject.includes('have been delivered'));
  });

  it('the owner sees it delivered with its history; the card opens the profile until the owner disables it', async () => {
    await ownerPage.reload();
    await ownerPage.getByRole('tab', { name: 'Orders' }).click();
    const panel = ownerPage.getByRole('tabpanel', { name: 'Orders' });
    await panel.getByText('Delivered', { exact: true }).waitFor();
    await panel.getByText('Courier: The Courier Guy · Tracking number: TCG-778812').waitFor();
    const history = (await detail()).history.map((h: { to: string; by: string }) => `${h.to}/${h.by}`);
    assert.deepEqual(history, [
      'paid/system',
      'proof-ready/system',
      'changes-requested/owner',
      'proof-ready/system',
      'approved/owner',
      'printing/print',
      'nfc-encoded/print',
      'shipped/print',
      'delivered/print',
    ]);

    const tap = await fetch(`${system.gatewayUrl}/c/${serial}`, { redirect: 'manual' });
    assert.equal(tap.status, 302);
    assert.equal(tap.headers.get('location'), `/nomsa?src=nfc&card=${serial}`);
    await panel.getByText('Cards (1)').click();
    await panel.getByRole('button', { name: `Disable card ${serial}` }).click();
    await answerDialog(ownerPage, `Disable card ${serial}? Tapping or scanning it will no longer open your profile.`, 'Disable card');
    await panel.getByRole('button', { name: `Enable card ${serial}` }).waitFor();
    await panel.getByText('Status history').click();
    await ownerPage.screenshot({ path: screenshotPath('orders-delivered'), fullPage: true });
    const disabled = await fetch(`${system.gatewayUrl}/c/${serial}`, { redirect: 'manual' });
    assert.equal(disabled.status, 410);
    assert.match(await disabled.text(), /This card has been disabled/);
  });

  it('shows /print to the print team only', async () => {
    await ownerPage.goto(`${system.gatewayUrl}/print`);
    await ownerPage.getByText('This page is for the print team only.').waitFor();
    assert.equal((await owner.client.request('/api/print/orders')).status, 403);
  });
});
