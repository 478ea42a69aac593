import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, Rpc } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import { InProcessService, builtServiceDefinition } from '@digicard/service-testing';
import type { ServiceBaseConfig } from '@digicard/server';
import { waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { notificationsService } from '../src/service.js';
import { startMailInbox, type CaughtMail, type MailInbox } from './mail-inbox.js';

// Issue 12's emails with the real identity and profiles services (from their builds, in this process too, on the same
// NATS server as this in-process notifications service) and a real SMTP server on the wire: the link to a new address and the notice to the
// old one, the owner of a taken address told, Exchange Contact's vCard, and the mail log in the data export.

const others: Array<InProcessService<ServiceBaseConfig>> = [];
let service: InProcessService<Config>;
let smtp: MailInbox;
const inbox: CaughtMail[] = [];
const prefix = `u-${randomBytes(4).toString('hex')}`;
const PASSWORD = 'kudu-braai-2026';

const mailsTo = (address: string) => inbox.filter((m) => m.to.toLowerCase().includes(address.toLowerCase()));
const waitForMail = (address: string, subject: string) =>
  waitFor(`an email to ${address}: ${subject}`, () => Promise.resolve(mailsTo(address).find((m) => m.subject.includes(subject)) ?? null));

/** A verified account (its profile shared, as a new profile is public) through identity's own subjects. */
async function account(username: string, firstName: string, lastName: string): Promise<string> {
  const registered = await service.call(Rpc.register, {
    username,
    firstName,
    lastName,
    email: `${username}@example.test`,
    password: PASSWORD,
  });
  if (!registered.ok || !registered.value.accountId) throw new Error(`${username}: not registered`);
  const accountId = registered.value.accountId;
  const { token, tokenHash } = newEmailToken();
  await service.call(Rpc.issueVerificationToken, { accountId, tokenHash });
  const verified = await service.call(Rpc.verifyEmail, { token });
  if (!verified.ok) throw new Error(`${username}: not verified`);
  // Profiles learns of the account and its verification from identity's events: wait until the page is shared.
  await waitFor(`${username}'s page`, async () =>
    (await service.call(Rpc.getPublicProfile, { username, source: null })).ok ? true : null,
  );
  return accountId;
}

beforeAll(async () => {
  smtp = await startMailInbox(prefix, inbox);
  service = await InProcessService.start(notificationsService(), smtp.env);
  for (const name of ['identity', 'profiles'] as const) {
    others.push(await InProcessService.start(await builtServiceDefinition(name), { NATS_URL: service.natsUrl }));
  }
}, 120_000);

afterAll(async () => {
  for (const other of others.reverse()) await other.stop();
  await service?.stop();
  await smtp?.close();
});

describe('email change', () => {
  it('sends the link to the new address only; using it changes the email and the old address gets a notice without any link', async () => {
    const accountId = await account('themba', 'Themba', 'Zulu');
    expect(await service.call(Rpc.requestEmailChange, { email: 'themba.new@example.test', password: PASSWORD }, { accountId })).toEqual({
      ok: true,
      value: { requested: true },
    });

    const confirm = await waitForMail('themba.new@example.test', 'Confirm your new email address');
    expect(confirm.text).toContain('Hi Themba, you asked to use this address');
    const link = /http:\/\/localhost:8080\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(confirm.text);
    expect(link).not.toBeNull();
    // Nothing went to the old address yet, and the email is still the old one.
    expect(mailsTo('themba@example.test').filter((m) => !m.subject.includes('Verify'))).toEqual([]);
    expect(await service.call(Rpc.getAccount, {}, { accountId })).toMatchObject({ ok: true, value: { email: 'themba@example.test' } });

    expect(await service.call(Rpc.confirmEmailChange, { token: link![1]! })).toMatchObject({
      ok: true,
      value: { email: 'themba.new@example.test' },
    });
    const notice = await waitForMail('themba@example.test', 'Your email address was changed');
    expect(notice.text).toContain('is now themba.new@example.test');
    expect(notice.text).not.toContain('token=');
    expect(notice.html).not.toContain('token=');
    // Used once: the same link again is refused, and no second notice follows.
    expect(await service.call(Rpc.confirmEmailChange, { token: link![1]! })).toMatchObject({
      ok: false,
      status: 400,
      code: 'LINK_INVALID',
    });
    expect(await service.call(Rpc.authenticate, { email: 'themba.new@example.test', password: PASSWORD })).toMatchObject({ ok: true });
    expect(await service.call(Rpc.authenticate, { email: 'themba@example.test', password: PASSWORD })).toMatchObject({
      ok: false,
      status: 401,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo('themba@example.test').filter((m) => m.subject.includes('changed'))).toHaveLength(1);
    expect(mailsTo('themba.new@example.test')).toHaveLength(1);
  });

  it('sends no link to a taken address: its owner is told instead, and the asker’s answer is the same', async () => {
    const asker = await account('ayanda', 'Ayanda', 'Khoza');
    await account('zinhle', 'Zinhle', 'Mahlangu');
    expect(await service.call(Rpc.requestEmailChange, { email: 'zinhle@example.test', password: PASSWORD }, { accountId: asker })).toEqual({
      ok: true,
      value: { requested: true },
    });
    const told = await waitForMail('zinhle@example.test', 'Someone tried to use your email address');
    expect(told.text).toContain('Hi Zinhle');
    expect(told.text).not.toContain('token=');
    expect(mailsTo('zinhle@example.test').filter((m) => m.subject.includes('Confirm'))).toEqual([]);
  });
});

describe('Exchange Contact', () => {
  it('emails the visitor the owner’s vCard as {name}.vcf when asked, once per lead; without the box ticked, no card', async () => {
    await account('nokuthula', 'Nokuthula', 'Shabalala');
    const sent = await service.call(Rpc.submitLead, {
      username: 'nokuthula',
      submission: {
        kind: 'exchange',
        firstName: 'Sipho',
        lastName: 'Nkosi',
        email: 'sipho.visitor@example.test',
        phone: '082 123 4567',
        consent: true,
        sendCard: true,
      },
    });
    expect(sent).toMatchObject({ ok: true });
    const card = await waitForMail('sipho.visitor@example.test', 'Nokuthula Shabalala');
    expect(card.subject).toBe("[DigiCard] Nokuthula Shabalala's contact card");
    expect(card.text).toContain('Hi Sipho, thank you for exchanging contact details with Nokuthula Shabalala');
    expect(card.attachments).toHaveLength(1);
    const [vcf] = card.attachments;
    expect(vcf!.filename).toBe('Nokuthula Shabalala.vcf');
    expect(vcf!.contentType).toBe('text/vcard');
    expect(vcf!.content).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\nN:Shabalala;Nokuthula;;;\r\nFN:Nokuthula Shabalala\r\n/);
    expect(vcf!.content).toContain('EMAIL;TYPE=INTERNET,WORK:nokuthula@example.test\r\n');
    expect(vcf!.content).toContain('URL:http://localhost:8080/nokuthula\r\n');
    expect(vcf!.content).toMatch(/END:VCARD\r\n$/);
    // The owner still hears of the exchange.
    await waitForMail('nokuthula@example.test', 'Sipho Nkosi shared their contact details');

    await service.call(Rpc.submitLead, {
      username: 'nokuthula',
      submission: {
        kind: 'exchange',
        firstName: 'Lwazi',
        lastName: 'Dlamini',
        email: 'lwazi.visitor@example.test',
        consent: true,
        sendCard: false,
      },
    });
    await waitForMail('nokuthula@example.test', 'Lwazi Dlamini shared their contact details');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo('lwazi.visitor@example.test')).toEqual([]);
    expect(mailsTo('sipho.visitor@example.test')).toHaveLength(1);
  });

  it('sends the card once however often the event is delivered (job id from the event id)', async () => {
    const accountId = await account('refilwe', 'Refilwe', 'Moloi');
    const data = {
      leadId: '6f1c2a40-3d5e-4c1b-9a7e-2b8d4f6a0c11',
      accountId,
      ownerEmail: 'refilwe@example.test',
      ownerFirstName: 'Refilwe',
      kind: 'exchange' as const,
      firstName: 'Karabo',
      lastName: 'Mokoena',
      email: 'karabo.visitor@example.test',
      phone: '',
      message: '',
      createdAt: new Date().toISOString(),
      sendCard: true,
      ownerUsername: 'refilwe',
    };
    const eventId = await service.publish(Events.leadCaptured, data);
    await service.handled(Events.leadCaptured, eventId);
    await service.publish(Events.leadCaptured, data, eventId);
    await waitForMail('karabo.visitor@example.test', "Refilwe Moloi's contact card");
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(mailsTo('karabo.visitor@example.test')).toHaveLength(1);
  });
});

describe('mail log in the data export', () => {
  it('answers the mail sent to the signed-in account’s own address only; a visitor gets 401', async () => {
    const accountId = await account('busisiwe', 'Busisiwe', 'Ndlovu');
    // A mail to her address that surely goes (the verification email may not: the test verified her first).
    const asker = await account('mandla', 'Mandla', 'Sibiya');
    await service.call(Rpc.requestEmailChange, { email: 'busisiwe@example.test', password: PASSWORD }, { accountId: asker });
    await waitForMail('busisiwe@example.test', 'Someone tried to use your email address');
    await waitFor('the mail log row', async () =>
      (
        await service.sql(
          "SELECT 1 FROM notifications.mail_log WHERE template = 'email-change-attempted' AND recipient = 'busisiwe@example.test'",
        )
      ).length
        ? true
        : null,
    );
    const exported = await service.exportOf(Rpc.exportMailData, { accountId });
    if (!exported.ok) throw new Error(exported.message);
    const log = (exported.value as { mailLog: Array<{ to: string; template: string }> }).mailLog;
    expect(log.map((m) => m.template)).toContain('email-change-attempted');
    expect(log.map((m) => m.template).every((t) => t === 'email-change-attempted' || t === 'verify-email')).toBe(true);
    expect(log.every((m) => m.to === 'busisiwe@example.test')).toBe(true);
    // Other people's mail (the accounts above) never appears.
    expect(JSON.stringify(exported.value)).not.toMatch(/themba|zinhle|sipho|nokuthula|mandla/);
    expect(await service.exportOf(Rpc.exportMailData, null)).toMatchObject({ ok: false, status: 401 });
  });
});

describe('mail log of an address nobody proved', () => {
  it('is not in the export until the account verifies the address (registering someone else’s email shows nothing), and goes with the account', async () => {
    const registered = await service.call(Rpc.register, {
      username: 'lindiwe',
      firstName: 'Lindiwe',
      lastName: 'Khumalo',
      email: 'lindiwe@example.test',
      password: PASSWORD,
    });
    if (!registered.ok || !registered.value.accountId) throw new Error('lindiwe: not registered');
    const accountId = registered.value.accountId;
    // The verification email goes to the address at registration: it is in the mail log under it.
    await waitFor('the verification mail in the log', async () =>
      (await service.sql("SELECT 1 FROM notifications.mail_log WHERE recipient = 'lindiwe@example.test'")).length ? true : null,
    );
    const before = await service.exportOf(Rpc.exportMailData, { accountId });
    expect(before).toEqual({ ok: true, value: { mailLog: [] } });

    const { token, tokenHash } = newEmailToken();
    await service.call(Rpc.issueVerificationToken, { accountId, tokenHash });
    expect((await service.call(Rpc.verifyEmail, { token })).ok).toBe(true);
    const after = await service.exportOf(Rpc.exportMailData, { accountId });
    if (!after.ok) throw new Error(after.message);
    expect((after.value as { mailLog: Array<{ to: string }> }).mailLog.map((m) => m.to)).toContain('lindiwe@example.test');

    // Deleting the account deletes the mail log under its verified address, nobody else's.
    const othersBefore = (await service.sql("SELECT 1 FROM notifications.mail_log WHERE recipient <> 'lindiwe@example.test'")).length;
    expect(othersBefore).toBeGreaterThan(0);
    expect(await service.call(Rpc.deleteAccount, { password: PASSWORD }, { accountId })).toEqual({ ok: true, value: { deleted: true } });
    await waitFor('the mail log under the deleted address gone', async () =>
      (await service.sql("SELECT 1 FROM notifications.mail_log WHERE lower(recipient) = 'lindiwe@example.test'")).length === 0
        ? true
        : null,
    );
    expect((await service.sql("SELECT 1 FROM notifications.mail_log WHERE recipient <> 'lindiwe@example.test'")).length).toBe(othersBefore);
  });

  it('is not in a rep’s export while the address is only the leader’s word, nor deleted with it; the welcome link proves it', async () => {
    const leaderId = await account('palesa-lead', 'Palesa', 'Mokoena');
    await others[0]!.sql("UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1", [leaderId]);
    const repPassword = 'leader-chose-this-2026';
    const made = await service.call(
      Rpc.createRepAccounts,
      {
        leaderPassword: PASSWORD,
        dryRun: false,
        reps: [
          { username: 'kagiso-rep', firstName: 'Kagiso', lastName: 'Molefe', email: 'kagiso@company.test', password: repPassword },
          { username: 'dineo-rep', firstName: 'Dineo', lastName: 'Molefe', email: 'dineo@company.test', password: repPassword },
        ],
      },
      { accountId: leaderId, role: 'teamLeader' },
    );
    if (!made.ok) throw new Error(made.message);
    const [kagiso, dineo] = made.value.accounts.map((a) => a.accountId);
    if (!kagiso || !dineo) throw new Error('reps not made');
    // Each rep's welcome email goes to the address the leader typed, and is in the mail log under it.
    for (const [accountId, username] of [
      [kagiso, 'kagiso-rep'],
      [dineo, 'dineo-rep'],
    ] as const) {
      await service.publish(Events.teamMemberAdded, {
        leaderAccountId: leaderId,
        memberAccountId: accountId,
        username,
        tel: '0821234567',
        addedAt: new Date().toISOString(),
      });
    }
    const welcome = await waitForMail('kagiso@company.test', 'Welcome to your team');
    await waitForMail('dineo@company.test', 'Welcome to your team');

    // Signed in with the password the leader chose: nothing sent to the address is in the rep's export.
    for (const accountId of [kagiso, dineo]) {
      expect(await service.exportOf(Rpc.exportMailData, { accountId, role: 'teamMember' })).toEqual({ ok: true, value: { mailLog: [] } });
    }

    // Kagiso follows the welcome link: the address is proved, and the mail sent to it is his to see.
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(welcome.text)?.[1];
    if (!token) throw new Error('no link in the welcome email');
    expect((await service.call(Rpc.resetPassword, { token, password: 'kudu-winter-choice-2026' })).ok).toBe(true);
    const proved = await service.exportOf(Rpc.exportMailData, { accountId: kagiso, role: 'teamMember' });
    if (!proved.ok) throw new Error(proved.message);
    expect((proved.value as { mailLog: Array<{ to: string; subject: string }> }).mailLog).toEqual([
      expect.objectContaining({ to: 'kagiso@company.test', subject: 'Welcome to your team on DigiCard' }),
    ]);

    // Deleting both: the proved address's mail log goes, the one only the leader vouched for stays.
    const logged = async (address: string) =>
      (await service.sql('SELECT 1 FROM notifications.mail_log WHERE lower(recipient) = $1', [address])).length;
    expect(await service.call(Rpc.deleteAccount, { password: repPassword }, { accountId: dineo, role: 'teamMember' })).toEqual({
      ok: true,
      value: { deleted: true },
    });
    expect(
      await service.call(Rpc.deleteAccount, { password: 'kudu-winter-choice-2026' }, { accountId: kagiso, role: 'teamMember' }),
    ).toEqual({ ok: true, value: { deleted: true } });
    await waitFor('the mail log under Kagiso’s proved address gone', async () =>
      (await logged('kagiso@company.test')) === 0 ? true : null,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await logged('dineo@company.test')).toBeGreaterThan(0);
  });
});
