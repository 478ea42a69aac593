import { MailCatcher } from './catcher.js';

const port = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    process.stderr.write(`${name} must be a port number, got "${raw}"\n`);
    process.exit(78);
  }
  return value;
};

const catcher = await new MailCatcher({
  host: process.env['HOST'] ?? '127.0.0.1',
  smtpPort: port('SMTP_PORT', 1025),
  httpPort: port('HTTP_PORT', 8025),
  // How many messages it keeps (the oldest go first); the chaos run counts more than the default 1,000.
  ...(process.env['KEEP_MESSAGES'] ? { keep: Math.max(1, Number(process.env['KEEP_MESSAGES']) || 1000) } : {}),
}).start();
process.stdout.write(
  `${JSON.stringify({ level: 'info', service: 'mail-catcher', smtpPort: catcher.smtpPort, httpPort: catcher.httpPort, msg: 'mail catcher started' })}\n`,
);
const stop = () => {
  void catcher.stop().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
