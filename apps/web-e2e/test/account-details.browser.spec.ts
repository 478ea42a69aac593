import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestSystem, launchChromium, registerOwner, screenshotPath, type TestOwner, sessionCookie } from '@digicard/testing';

// Issue 12 in a browser: the owner changes their name (the public page shows it) and their email (the link arrives
// at the new address, the old one is told, sign-in then takes the new email), and a visitor's Exchange Contact brings
// them the owner's vCard by email.

describe('account details and Exchange Contact', () => {
  let system: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let owner: TestOwner;
  const url = (path: string) => `${system.gatewayUrl}${path}`;
  const mailPage = (id: string) => `http://127.0.0.1:${system.port('mail-http')}/messages/${id}/html`;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'gateway'],
    });
    owner = await registerOwner(system, { username: 'naledi', firstName: 'Naledi', lastName: 'Khumalo', email: 'naledi@example.co.za' });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([sessionCookie(owner.client.sessionId!)]);
    page = await context.newPage();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const settings = async () => {
    await page.getByRole('tab', { name: 'Settings' }).click();
    return page.getByRole('tabpanel', { name: 'Settings' });
  };

  it('changes the name under Settings, Account; the public page shows it', async () => {
    await page.goto(url('/dashboard'));
    await page.getByText('Welcome, Naledi!').waitFor();
    const panel = await settings();
    await panel.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    const names = panel.getByRole('group', { name: 'Your name' });
    assert.equal(await names.getByLabel('First Name').inputValue(), 'Naledi');
    assert.equal(await names.getByLabel('Last Name').inputValue(), 'Khumalo');
    await names.getByLabel('Last Name').fill('');
    await names.getByRole('button', { name: 'Save my name' }).click();
    await names.getByText('Please enter your last name.').waitFor();
    await names.getByLabel('Last Name').fill('Khumalo-Dube');
    await names.getByRole('button', { name: 'Save my name' }).click();
    await names.getByText('Your name is saved.').waitFor();
    // The live preview beside the editor shows it too.
    await page.getByRole('region', { name: 'Live preview' }).getByRole('heading', { name: 'Naledi Khumalo-Dube' }).waitFor();
    await page.screenshot({ path: screenshotPath('account-name-saved'), fullPage: true });

    const visitor = await browser.newPage();
    await visitor.goto(url('/naledi'));
    await visitor.getByRole('heading', { name: 'Naledi Khumalo-Dube' }).waitFor();
    await visitor.close();
  });

  it('changes the email: the link goes to the new address, the old one is told, and sign-in takes the new email', async () => {
    const panel = await settings();
    const email = panel.getByRole('group', { name: 'Your email' });
    await email.getByText('Your email is naledi@example.co.za.', { exact: false }).waitFor();
    await email.getByLabel('New Email').fill('naledi.new@example.co.za');
    await email.getByLabel('Password').fill('not my password');
    await email.getByRole('button', { name: 'Change my email' }).click();
    await email.getByText('Incorrect password. Please try again.').waitFor();
    await email.getByLabel('Password').fill(owner.password);
    await email.getByRole('button', { name: 'Change my email' }).click();
    await email
      .getByText('Please check the inbox of your new email address and follow the link to confirm it.', { exact: false })
      .waitFor();
    await panel.screenshot({ path: screenshotPath('account-email-requested') });

    const confirm = await system.mail.waitFor(
      (m) => m.to.includes('naledi.new@example.co.za') && m.subject === 'Confirm your new email address for DigiCard',
    );
    // A fresh browser, signed out: the link works wherever the mail is read.
    const reader = await browser.newContext({ viewport: { width: 420, height: 860 } });
    const phone = await reader.newPage();
    await phone.goto(mailPage(confirm.id));
    await phone.screenshot({ path: screenshotPath('account-email-confirm-mail'), fullPage: true });
    await phone.getByRole('link', { name: 'Confirm my new email' }).click();
    await phone.getByRole('heading', { name: 'Confirm your new email' }).waitFor();
    assert.equal(new URL(phone.url()).search, '', 'the token is taken out of the address bar');
    await phone.getByRole('button', { name: 'Confirm my new email' }).click();
    await phone.getByText('Your email address is changed. Please use the new one to log in.').waitFor();
    await phone.screenshot({ path: screenshotPath('account-email-confirmed'), fullPage: true });

    const notice = await system.mail.waitFor(
      (m) => m.to.includes('naledi@example.co.za') && m.subject === '[DigiCard] Your email address was changed',
    );
    assert.match(notice.text, /is now naledi\.new@example\.co\.za/);
    assert.doesNotMatch(notice.text, /token=/);
    await phone.goto(mailPage(notice.id));
    await phone.screenshot({ path: screenshotPath('account-email-changed-notice'), fullPage: true });

    // Sign in on the phone with the old email (refused), then the new one.
    await phone.goto(url('/login'));
    const main = phone.getByRole('main');
    await main.getByLabel('Email').fill('naledi@example.co.za');
    await main.getByLabel('Password').fill(owner.password);
    await main.getByRole('button', { name: 'Log In' }).click();
    await main.getByText('Incorrect email or password.').waitFor();
    await main.getByLabel('Email').fill('naledi.new@example.co.za');
    await main.getByRole('button', { name: 'Log In' }).click();
    await phone.waitForURL(url('/dashboard'));
    await phone.getByText('Welcome, Naledi!').waitFor();
    await reader.close();

    // The owner's own dashboard shows the new email after a reload.
    await page.reload();
    const again = await settings();
    await again.getByRole('group', { name: 'Your email' }).getByText('Your email is naledi.new@example.co.za.', { exact: false }).waitFor();
    await again.screenshot({ path: screenshotPath('account-section') });
  });

  it('sends a visitor who asks for it the owner’s vCard by email from Exchange Contact', async () => {
    const visitorContext = await browser.newContext({ viewport: { width: 420, height: 860 } });
    const visitor = await visitorContext.newPage();
    await visitor.goto(url('/naledi'));
    await visitor.getByRole('button', { name: 'Exchange Contact' }).click();
    const form = visitor.getByRole('form', { name: 'Exchange Contact' });
    await form.getByLabel('First name').fill('Sipho');
    await form.getByLabel('Last name').fill('Nkosi');
    await form.getByLabel('Phone').fill('082 123 4567');
    await form.getByLabel('Email').fill('sipho@example.co.za');
    const sendCard = form.getByLabel("Send me Naledi's contact card");
    assert.equal(await sendCard.isChecked(), true, 'asked for unless unticked');
    await form.getByLabel('I agree that Naledi may contact me about this.').check();
    await visitor.screenshot({ path: screenshotPath('exchange-contact-form'), fullPage: true });
    await form.getByRole('button', { name: 'Send' }).click();
    await visitor.getByText('Thank you! I will get in touch with you soon.').waitFor();

    const mail = await system.mail.waitFor((m) => m.to.includes('sipho@example.co.za'));
    assert.equal(mail.subject, "[DigiCard] Naledi Khumalo-Dube's contact card");
    assert.equal(mail.attachments.length, 1);
    const [card] = mail.attachments;
    assert.equal(card!.filename, 'Naledi Khumalo-Dube.vcf');
    assert.equal(card!.contentType, 'text/vcard');
    const vcf = Buffer.from(card!.contentBase64, 'base64').toString('utf8');
    assert.match(vcf, /^BEGIN:VCARD\r\nVERSION:3\.0\r\nN:Khumalo-Dube;Naledi;;;\r\nFN:Naledi Khumalo-Dube\r\n/);
    assert.match(vcf, /EMAIL;TYPE=INTERNET,WORK:naledi\.new@example\.co\.za\r\n/);
    await visitor.goto(mailPage(mail.id));
    await visitor.getByText('Naledi Khumalo-Dube.vcf').waitFor();
    await visitor.screenshot({ path: screenshotPath('exchange-contact-mail'), fullPage: true });
    await visitorContext.close();
  });
});
