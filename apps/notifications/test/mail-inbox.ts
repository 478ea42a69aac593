import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { DEFAULTS } from '@digicard/testing';

/** An email as the SMTP server on the wire received it. */
export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: Array<{ filename: string; contentType: string; content: string }>;
}

/** A real SMTP server on a free local port that keeps every email it receives, for the notifications tests. */
export interface MailInbox {
  /** The environment the notifications service needs around it: this server, its own queue prefix in Redis. */
  readonly env: Record<string, string>;
  /** Stops the server and deletes the queue's keys under the prefix. */
  close(): Promise<void>;
}

/** Emails go into `mails` as they arrive; `prefix` is the test file's own Redis prefix for the queue. */
export async function startMailInbox(prefix: string, mails: CaughtMail[]): Promise<MailInbox> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push({
            to: mail.to && !Array.isArray(mail.to) ? mail.to.text : '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? '',
              contentType: a.contentType,
              content: a.content.toString('utf8'),
            })),
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    env: {
      REDIS_URL: DEFAULTS.redisUrl,
      QUEUE_PREFIX: prefix,
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      MAIL_FROM: 'DigiCard <no-reply@digicard.test>',
      SALES_INBOX: 'sales@digicard.test',
      PUBLIC_URL: 'http://localhost:8080',
    },
    async close() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      const redis = new Redis(DEFAULTS.redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
}
