import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import nodemailer from 'nodemailer';
import { MailCatcher, type CaughtMessage } from '../src/catcher.js';

describe('mail catcher', () => {
  const catcher = new MailCatcher({ smtpPort: 0, httpPort: 0 });
  beforeAll(() => catcher.start());
  afterAll(() => catcher.stop());

  it('receives a message over SMTP and lists it as JSON and on its page', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.smtpPort, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: 'DigiCard <no-reply@digicard.test>',
      to: 'sales@digicard.test',
      replyTo: 'thabo@example.co.za',
      subject: 'Hello <there>',
      text: 'plain body',
      html: '<p>html body</p>',
    });
    const res = await fetch(`http://127.0.0.1:${catcher.httpPort}/api/messages?to=sales@digicard.test`);
    const list = (await res.json()) as CaughtMessage[];
    assert.equal(list.length, 1);
    assert.equal(list[0]!.subject, 'Hello <there>');
    assert.equal(list[0]!.replyTo, 'thabo@example.co.za');
    assert.equal(list[0]!.text.trim(), 'plain body');
    assert.match(list[0]!.html ?? '', /html body/);
    const page = await (await fetch(`http://127.0.0.1:${catcher.httpPort}/`)).text();
    assert.match(page, /Hello &lt;there&gt;/);
    const other = (await (await fetch(`http://127.0.0.1:${catcher.httpPort}/api/messages?to=nobody@x.test`)).json()) as unknown[];
    assert.equal(other.length, 0);
  });

  it('answers 404 for an unknown message and clears on DELETE', async () => {
    assert.equal((await fetch(`http://127.0.0.1:${catcher.httpPort}/api/messages/nope`)).status, 404);
    await fetch(`http://127.0.0.1:${catcher.httpPort}/api/messages`, { method: 'DELETE' });
    assert.equal(catcher.messages.length, 0);
  });
});
