import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TestSystem, registerOwner, waitFor, type TestOwner } from '@digicard/testing';

// Issue 12 through the gateway, every app a real process: the owner's names and email (Settings, Account), Exchange
// Contact's vCard by email, and the POPIA export gathered from every service. Each route's failure cases: 400, 401,
// 403 (CSRF), 429, and someone else's data.

const mailTo = (address: string) => (m: { to: string[] }) => m.to.some((t) => t.toLowerCase() === address.toLowerCase());

describe('account details, Exchange Contact and the data export', () => {
  let system: TestSystem;
  let naledi: TestOwner;
  let pieter: TestOwner;

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'gateway'],
      env: { gateway: { RATE_LIMIT_LOGIN_ACCOUNT: '4/900', ENQUIRY_RATE_LIMIT: '4/600' } },
    });
    naledi = await registerOwner(system, { username: 'naledi', firstName: 'Naledi', lastName: 'Mokoena', email: 'naledi@example.co.za' });
    pieter = await registerOwner(system, { username: 'pieter', firstName: 'Pieter', lastName: 'Botha', email: 'pieter@example.co.za' });
  }, 180_000);
  afterAll(() => system?.stop());

  it('changes the owner’s names; the public page shows them at once', async () => {
    assert.equal(
      (await system.client().request('/api/accounts/me/name', { method: 'PUT', body: { firstName: 'A', lastName: 'B' } })).status,
      401,
    );
    const blank = await naledi.client.request('/api/accounts/me/name', { method: 'PUT', body: { firstName: '', lastName: ' ' } });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body.fieldErrors, { firstName: ['Please enter your first name.'], lastName: ['Please enter your last name.'] });
    const noCsrf = await naledi.client.request('/api/accounts/me/name', {
      method: 'PUT',
      body: { firstName: 'X', lastName: 'Y' },
      csrf: false,
    });
    assert.equal(noCsrf.status, 403);

    // The page is cached first, so the test shows that the change drops it.
    assert.match(await (await fetch(`${system.gatewayUrl}/naledi`)).text(), /Naledi Mokoena/);
    const renamed = await naledi.client.request('/api/accounts/me/name', {
      method: 'PUT',
      body: { firstName: 'Naledi', lastName: 'Dlamini-Mokoena' },
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.lastName, 'Dlamini-Mokoena');
    assert.equal((await naledi.client.request('/api/session')).body.user.lastName, 'Dlamini-Mokoena');
    await waitFor(
      'the public page with the new name',
      async () => /Naledi Dlamini-Mokoena/.test(await (await fetch(`${system.gatewayUrl}/naledi`)).text()),
      10_000,
      100,
    );
    const vcard = await (await fetch(`${system.gatewayUrl}/api/profiles/naledi/vcard`)).text();
    assert.match(vcard, /FN:Naledi Dlamini-Mokoena/);
    // Pieter is as he was.
    assert.equal((await pieter.client.request('/api/session')).body.user.lastName, 'Botha');
  });

  it('changes the email only when the link sent to the new address is used; the old address gets the notice', async () => {
    assert.equal(
      (await system.client().request('/api/accounts/me/email', { body: { email: 'x@example.co.za', password: 'x' } })).status,
      401,
    );
    const bad = await pieter.client.request('/api/accounts/me/email', { body: { email: 'not an email', password: '' } });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fieldErrors.email && bad.body.fieldErrors.password, JSON.stringify(bad.body.fieldErrors));
    const wrong = await pieter.client.request('/api/accounts/me/email', {
      body: { email: 'pieter.new@example.co.za', password: 'not my password' },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.message, 'Incorrect password. Please try again.');
    assert.equal(
      (
        await pieter.client.request('/api/accounts/me/email', {
          body: { email: 'pieter.new@example.co.za', password: pieter.password },
          csrf: false,
        })
      ).status,
      403,
    );

    const asked = await pieter.client.request('/api/accounts/me/email', {
      body: { email: 'pieter.new@example.co.za', password: pieter.password },
    });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    assert.match(asked.body.message, /check the inbox of your new email address/);
    // A taken address gets the very same answer.
    const taken = await pieter.client.request('/api/accounts/me/email', {
      body: { email: 'naledi@example.co.za', password: pieter.password },
    });
    assert.equal(taken.status, 202);
    assert.deepEqual(taken.body, asked.body);
    await system.mail.waitFor((m) => mailTo('naledi@example.co.za')(m) && /Someone tried to use your email address/.test(m.subject));

    const confirm = await system.mail.waitFor(
      (m) => mailTo('pieter.new@example.co.za')(m) && /Confirm your new email address/.test(m.subject),
    );
    const token = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec(confirm.text)?.[1];
    assert.ok(token);
    // Still the old email until the link is used.
    assert.equal((await pieter.client.request('/api/session')).body.user.email, 'pieter@example.co.za');

    const badToken = await system.client().request('/api/email-change', { body: { token: 'short' } });
    assert.equal(badToken.status, 400);
    const unknown = await system.client().request('/api/email-change', { body: { token: 'A'.repeat(22) } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'LINK_INVALID');

    // The link works in any browser, signed in or not.
    const used = await system.client().request('/api/email-change', { body: { token } });
    assert.equal(used.status, 200, JSON.stringify(used.body));
    assert.equal(used.body.message, 'Your email address is changed. Please use the new one to log in.');
    assert.equal((await system.client().request('/api/email-change', { body: { token } })).status, 400, 'single use');
    assert.equal((await pieter.client.request('/api/session')).body.user.email, 'pieter.new@example.co.za');

    const notice = await system.mail.waitFor((m) => mailTo('pieter@example.co.za')(m) && /Your email address was changed/.test(m.subject));
    assert.match(notice.text, /is now pieter\.new@example\.co\.za/);
    assert.doesNotMatch(notice.text, /token=/);

    const oldLogin = await system.client().request('/api/session', { body: { email: 'pieter@example.co.za', password: pieter.password } });
    assert.equal(oldLogin.status, 401);
    const newLogin = await system
      .client()
      .request('/api/session', { body: { email: 'pieter.new@example.co.za', password: pieter.password } });
    assert.equal(newLogin.status, 200);
    // The page's contact card carries the new address.
    await waitFor(
      'the vCard with the new email',
      async () =>
        /EMAIL;TYPE=INTERNET,WORK:pieter\.new@example\.co\.za/.test(
          await (await fetch(`${system.gatewayUrl}/api/profiles/pieter/vcard`)).text(),
        ),
      10_000,
      100,
    );
  });

  it('counts the confirming password with sign-in’s per-account limit (429)', async () => {
    const zola = await registerOwner(system, { username: 'zola', firstName: 'Zola', lastName: 'Budd', email: 'zola@example.co.za' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await zola.client.request('/api/accounts/me/email', { body: { email: 'zola.new@example.co.za', password: 'guess-number-' + i } }))
          .status,
      );
    assert.deepEqual(statuses.slice(0, 4), [401, 401, 401, 401]);
    assert.equal(statuses[4], 429);
  });

  it('emails a visitor the owner’s vCard from Exchange Contact when asked, with the attachment', async () => {
    const visitor = system.client();
    const bad = await visitor.request('/api/profiles/naledi/leads', {
      body: { kind: 'exchange', firstName: '', email: 'nope', consent: true, sendCard: 'yes' },
    });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fieldErrors.sendCard && bad.body.fieldErrors.email, JSON.stringify(bad.body.fieldErrors));
    const sent = await visitor.request('/api/profiles/naledi/leads', {
      body: {
        kind: 'exchange',
        firstName: 'Sipho',
        lastName: 'Nkosi',
        phone: '082 123 4567',
        email: 'sipho@example.co.za',
        consent: true,
        sendCard: true,
      },
    });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const mail = await system.mail.waitFor((m) => mailTo('sipho@example.co.za')(m));
    assert.equal(mail.subject, "[DigiCard] Naledi Dlamini-Mokoena's contact card");
    assert.equal(mail.attachments.length, 1);
    const [card] = mail.attachments;
    assert.equal(card!.filename, 'Naledi Dlamini-Mokoena.vcf');
    assert.equal(card!.contentType, 'text/vcard');
    // The same card Save to Contact serves (its REV aside, which is the profile's last change either way).
    const served = await (await fetch(`${system.gatewayUrl}/api/profiles/naledi/vcard`)).text();
    assert.equal(Buffer.from(card!.contentBase64, 'base64').toString('utf8'), served);
  });

  it('exports everything held about the signed-in person, and nothing about anyone else', async () => {
    assert.equal((await fetch(`${system.gatewayUrl}/api/profile/export`)).status, 401);
    // An enquiry under Naledi's address (in capitals: addresses match whatever their case) and one under Pieter's.
    const site = system.client();
    assert.equal(
      (
        await site.request('/api/enquiries/message', {
          body: { name: 'Naledi', email: 'NALEDI@example.co.za', message: 'Cards for my team, please.' },
        })
      ).status,
      202,
    );
    assert.equal(
      (
        await site.request('/api/enquiries/message', {
          body: { name: 'Pieter', email: 'pieter.new@example.co.za', message: 'Pieter’s own question.' },
        })
      ).status,
      202,
    );

    const res = await fetch(`${system.gatewayUrl}/api/profile/export`, { headers: { cookie: naledi.client.cookie! } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="my-digicard-data.json"/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const data = JSON.parse(await res.text()) as Record<string, any>;
    assert.equal(data.account.id, naledi.accountId);
    assert.equal(data.account.lastName, 'Dlamini-Mokoena');
    assert.equal(data.profile.username, 'naledi');
    assert.ok(Array.isArray(data.images));
    assert.deepEqual(
      data.leads.map((l: { email: string }) => l.email),
      ['sipho@example.co.za'],
    );
    assert.ok(data.analytics);
    assert.deepEqual(data.orders, []);
    assert.deepEqual(
      data.enquiries.map((e: { message: string }) => e.message),
      ['Cards for my team, please.'],
    );
    assert.deepEqual(data.payments, []);
    assert.deepEqual(data.subscriptions, []);
    assert.deepEqual(data.team, { membership: null, leaderOf: null });
    assert.ok(data.mailLog.some((m: { template: string }) => m.template === 'verify-email'));
    assert.ok(data.mailLog.some((m: { template: string }) => m.template === 'email-change-attempted'));
    assert.ok(data.mailLog.every((m: { to: string }) => m.to === 'naledi@example.co.za'));
    const text = JSON.stringify(data);
    for (const other of ['pieter', 'Pieter', pieter.accountId, 'argon2']) assert.ok(!text.includes(other), `${other} in Naledi's export`);

    // Pieter's export has his enquiry, under his new address, and not Naledi's.
    const his = JSON.parse(
      await (await fetch(`${system.gatewayUrl}/api/profile/export`, { headers: { cookie: pieter.client.cookie! } })).text(),
    ) as Record<string, any>;
    assert.deepEqual(
      his.enquiries.map((e: { message: string }) => e.message),
      ['Pieter’s own question.'],
    );
    assert.ok(!JSON.stringify(his).includes('naledi'));
  });

  it('limits Exchange Contact like the other public forms (429)', async () => {
    const visitor = system.client();
    const statuses: number[] = [];
    // The limit (4 per 600 s here) counts in fixed windows: five in a row can straddle two (seen once on a loaded
    // machine, all five 202). Up to nine are sent: at most two windows, so one holds five.
    for (let i = 0; i < 9 && statuses.at(-1) !== 429; i++) {
      statuses.push(
        (
          await visitor.request('/api/profiles/pieter/leads', {
            body: { kind: 'exchange', firstName: 'Spam', email: `spam${i}@example.co.za`, consent: true, sendCard: true },
          })
        ).status,
      );
    }
    assert.equal(statuses.at(-1), 429, statuses.join(','));
    // Accepted until the limit (the file's earlier Exchange Contacts from this address count too).
    assert.ok(
      statuses.slice(0, -1).every((s) => s === 202),
      statuses.join(','),
    );
  });
});
