import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '@digicard/config';
import { ConfigSchema, smtpOptions } from '../src/config.js';

const base = {
  NATS_URL: 'nats://127.0.0.1:4222',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  REDIS_URL: 'redis://127.0.0.1:6379',
  SMTP_URL: 'smtp://127.0.0.1:1025',
  MAIL_FROM: 'DigiCard <no-reply@digicard.co.za>',
  SALES_INBOX: 'sales@digicard.co.za',
  PUBLIC_URL: 'https://digicard.co.za',
};

describe('SMTP: STARTTLS required outside development and tests', () => {
  it('requires TLS in production unless told otherwise, and not in development or tests', () => {
    assert.equal(smtpOptions(loadConfig('notifications', ConfigSchema, { ...base, NODE_ENV: 'production' })).requireTLS, true);
    assert.equal(smtpOptions(loadConfig('notifications', ConfigSchema, { ...base, NODE_ENV: 'development' })).requireTLS, false);
    assert.equal(smtpOptions(loadConfig('notifications', ConfigSchema, { ...base, NODE_ENV: 'test' })).requireTLS, false);
    assert.equal(
      smtpOptions(loadConfig('notifications', ConfigSchema, { ...base, NODE_ENV: 'production', SMTP_REQUIRE_TLS: 'false' })).requireTLS,
      false,
    );
    assert.equal(
      smtpOptions(loadConfig('notifications', ConfigSchema, { ...base, NODE_ENV: 'development', SMTP_REQUIRE_TLS: 'true' })).requireTLS,
      true,
    );
    assert.throws(() => loadConfig('notifications', ConfigSchema, { ...base, SMTP_REQUIRE_TLS: 'yes' }), /SMTP_REQUIRE_TLS/);
  });

  describe('against a real SMTP server that offers no STARTTLS', () => {
    let server: SMTPServer;
    let port = 0;
    const received: string[] = [];
    beforeAll(async () => {
      server = new SMTPServer({
        disabledCommands: ['STARTTLS', 'AUTH'],
        onData(stream, session, done) {
          stream.resume();
          stream.on('end', () => {
            received.push(session.envelope.rcptTo.map((r) => r.address).join(','));
            done();
          });
        },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(resolve)));

    const send = (env: Record<string, string>) =>
      nodemailer
        .createTransport(smtpOptions(loadConfig('notifications', ConfigSchema, { ...base, SMTP_URL: `smtp://127.0.0.1:${port}`, ...env })))
        .sendMail({ from: base.MAIL_FROM, to: 'thabo@example.co.za', subject: 'Reset your password', text: 'a link with a token' });

    it('refuses to send in clear text in production', async () => {
      await assert.rejects(send({ NODE_ENV: 'production' }), /STARTTLS|TLS/i);
      assert.equal(received.length, 0);
    });

    it('sends to the plain mail catcher in development', async () => {
      await send({ NODE_ENV: 'development' });
      assert.deepEqual(received, ['thabo@example.co.za']);
    });
  });
});
