// Sending email: what a connection per email costs against a pool of open connections, in the same run. The email
// worker's SMTP options (apps/notifications `smtpOptions`) send COUNT emails (1,000 by default) to our mail catcher,
// `EMAIL_CONCURRENCY` (5) at a time as the worker's jobs run, once with a connection per email (nodemailer's
// default) and once pooled (one connection per job slot, 100 emails each), alternating ROUNDS (3) times. Prints the
// wall time an email takes per slot and the sender's CPU an email (process.cpuUsage), the median of the rounds.
// Run: `npx nx run-many -t build && node tools/bench/smtp-pool.mjs` (COUNT, ROUNDS). No TLS here (the catcher speaks
// plain SMTP): in production each new connection also pays a TLS handshake, which the pool saves too.
import nodemailer from 'nodemailer';
import { MailCatcher } from '../mail-catcher/dist/src/catcher.js';
import { smtpOptions } from '../../apps/notifications/dist/src/config.js';

const COUNT = Number(process.env.COUNT ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = 5;

const catcher = await new MailCatcher({ keep: 100 }).start();
/** @type {Parameters<typeof smtpOptions>[0]} */
const config = {
  SMTP_URL: `smtp://127.0.0.1:${catcher.smtpPort}`,
  SMTP_REQUIRE_TLS: false,
  NODE_ENV: 'test',
  EMAIL_SEND_LEASE_MS: 60_000,
  EMAIL_CONCURRENCY: CONCURRENCY,
};

async function run(pooled) {
  const { pool: _pool, maxConnections: _max, maxMessages: _messages, ...perEmail } = smtpOptions(config);
  const transport = nodemailer.createTransport(pooled ? smtpOptions(config) : perEmail);
  const body = 'Someone used your DigiCard profile. '.repeat(20);
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const slot = async () => {
    while (next < COUNT) {
      const n = next++;
      await transport.sendMail({
        from: 'DigiCard <no-reply@digicard.test>',
        to: `bench${n}@example.test`,
        subject: `Lead ${n}`,
        text: body,
        html: `<p>${body}</p>`,
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, slot));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  transport.close();
  return { perSlotMs: (wallMs * CONCURRENCY) / COUNT, cpuMs: (used.user + used.system) / 1000 / COUNT, perSecond: COUNT / (wallMs / 1000) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = { perEmail: [], pooled: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  results.perEmail.push(await run(false));
  results.pooled.push(await run(true));
}
await catcher.stop();
for (const [name, runs] of Object.entries(results)) {
  process.stdout.write(
    `${name === 'pooled' ? 'pooled (5 connections, 100 emails each)' : 'a connection per email'}: ` +
      `${median(runs.map((r) => r.perSecond)).toFixed(0)} emails/s, ${median(runs.map((r) => r.perSlotMs)).toFixed(1)} ms an email per slot, ` +
      `${median(runs.map((r) => r.cpuMs)).toFixed(2)} ms of the sender's CPU an email (${runs.length} rounds of ${COUNT})\n`,
  );
}
