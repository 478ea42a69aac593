import nodemailer from 'nodemailer';
import type { ServiceContext } from '@digicard/server';
import { smtpOptions, type Config } from '../config.js';

/** The SMTP connection the email worker sends through (`SMTP_*` settings); closed at shutdown. */
export function openSmtpTransport(ctx: ServiceContext<Config>): ReturnType<typeof nodemailer.createTransport> {
  const transport = nodemailer.createTransport(smtpOptions(ctx.config));
  ctx.onShutdown(() => {
    transport.close();
    return Promise.resolve();
  });
  return transport;
}
