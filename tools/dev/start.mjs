// `npm start`: install what is missing, make sure the servers run, build, migrate (each service migrates at its
// start), and run every app. Ctrl-C stops them all.
import { spawn } from 'node:child_process';
import { ROOT, canConnect, ensureInstalled, ensureServers, fail, freePort, log, run, startBusServer } from './lib.mjs';

ensureInstalled();
// NATS as in compose and Kubernetes: npm start runs its own nats-server with one user per app (nats/auth.conf),
// unless NATS_URL names a server (then every app connects with that URL) or nats-server is not installed.
const busPort = Number(process.env.NATS_PORT ?? '4223');
let bus = null;
if (!process.env.NATS_URL) {
  if (await canConnect('127.0.0.1', busPort)) fail(`Port ${busPort} (NATS) is already in use: stop what uses it, or set NATS_PORT.`);
  bus = await startBusServer(busPort);
  if (bus) {
    process.env.NATS_URL = bus.url;
    log(`NATS on ${bus.url} with one user per app (${bus.users.filter((u) => u !== 'provisioner').join(', ')}) and the stream provisioner`);
  }
}
if (!bus) log('NATS: every app connects with one URL, without the per-app users (NATS_URL is set, or nats-server is not installed)');
// Sets DATABASE_URL, REDIS_URL and NATS_URL to wherever each server was found or started.
const servers = await ensureServers('start');
const natsFor = (app) => (bus ? bus.urlFor(app) : servers.nats);
const env = {
  DATABASE_URL: servers.postgres,
  REDIS_URL: servers.redis,
  NATS_URL: servers.nats,
  PORT: process.env.PORT ?? '8080',
  MAIL_HTTP_PORT: process.env.MAIL_HTTP_PORT ?? '8025',
  MAIL_SMTP_PORT: process.env.MAIL_SMTP_PORT ?? '1025',
  PAYFAST_SIMULATOR_PORT: process.env.PAYFAST_SIMULATOR_PORT ?? '8030',
};
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;

for (const [name, port, variable] of [
  ['gateway', env.PORT, 'PORT'],
  ['mail catcher page', env.MAIL_HTTP_PORT, 'MAIL_HTTP_PORT'],
  ['mail catcher SMTP', env.MAIL_SMTP_PORT, 'MAIL_SMTP_PORT'],
  ['PayFast simulator', env.PAYFAST_SIMULATOR_PORT, 'PAYFAST_SIMULATOR_PORT'],
]) {
  if (await canConnect('127.0.0.1', Number(port))) fail(`Port ${port} (${name}) is already in use: stop what uses it, or set ${variable}.`);
}

// Payments go to the local PayFast simulator unless PAYFAST_* point at PayFast's sandbox or live site (README).
const simulatorUrl = `http://localhost:${env.PAYFAST_SIMULATOR_PORT}`;
const merchant = { id: '10000100', key: '46f0cd694581a', passphrase: 'digicard-development-passphrase' };
const payfast = {
  PAYFAST_PROCESS_URL: process.env.PAYFAST_PROCESS_URL ?? `${simulatorUrl}/eng/process`,
  PAYFAST_VALIDATE_URL: process.env.PAYFAST_VALIDATE_URL ?? `http://127.0.0.1:${env.PAYFAST_SIMULATOR_PORT}/eng/query/validate`,
  PAYFAST_API_URL: process.env.PAYFAST_API_URL ?? `http://127.0.0.1:${env.PAYFAST_SIMULATOR_PORT}`,
  PAYFAST_MERCHANT_ID: process.env.PAYFAST_MERCHANT_ID ?? merchant.id,
  PAYFAST_MERCHANT_KEY: process.env.PAYFAST_MERCHANT_KEY ?? merchant.key,
  PAYFAST_PASSPHRASE: process.env.PAYFAST_PASSPHRASE ?? merchant.passphrase,
  PAYFAST_SOURCE_RANGES: process.env.PAYFAST_SOURCE_RANGES ?? '127.0.0.1/32',
  PAYFAST_SANDBOX: process.env.PAYFAST_SANDBOX ?? 'false',
};

log('building every project (nx run-many -t build)...');
run('npx', ['nx', 'run-many', '-t', 'build', '--parallel=2', '--output-style=static']);
const { ensureDatabaseExists, ensureServiceRoles, serviceDatabaseUrl } = await import('../../libs/db/dist/src/index.js');
await ensureDatabaseExists(env.DATABASE_URL).catch((error) =>
  fail(`Could not create the database in ${env.DATABASE_URL}: ${error.message}`),
);
// One role per service with rights on its own schema only, as in compose and Kubernetes (local trust
// authentication: no passwords). DATABASE_URL is the admin's; each service gets its own role's URL.
await ensureServiceRoles(env.DATABASE_URL).catch((error) =>
  fail(`Could not create the services' database roles in ${env.DATABASE_URL}: ${error.message}`),
);

// Every JetStream stream, declared by the stream provisioner as the NATS user `provisioner` (as compose's and
// Kubernetes' `nats-streams` do): the apps may look at their streams, never declare them.
run(process.execPath, ['libs/messaging/dist/src/streams-main.js'], {
  env: { PATH: process.env.PATH ?? '', NATS_URL: bus ? bus.urlFor('provisioner') : servers.nats },
});

const common = { NODE_ENV: 'development', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', HOST: '127.0.0.1' };
const service = (name, extra = {}) => ({
  ...common,
  NATS_URL: natsFor(name),
  DATABASE_URL: serviceDatabaseUrl(env.DATABASE_URL, name),
  ...extra,
});
/** @type {[name: string, entry: string, env: Record<string, string | undefined>][]} */
const apps = [
  [
    'mail-catcher',
    'tools/mail-catcher/dist/src/main.js',
    { HOST: '127.0.0.1', SMTP_PORT: env.MAIL_SMTP_PORT, HTTP_PORT: env.MAIL_HTTP_PORT },
  ],
  ['identity', 'apps/identity/dist/src/main.js', service('identity')],
  ['profiles', 'apps/profiles/dist/src/main.js', service('profiles')],
  ['teams', 'apps/teams/dist/src/main.js', service('teams')],
  ['orders', 'apps/orders/dist/src/main.js', service('orders', { REDIS_URL: env.REDIS_URL, PUBLIC_URL: publicUrl })],
  [
    'payfast',
    'tools/payfast-simulator/dist/src/main.js',
    {
      HOST: '127.0.0.1',
      PORT: env.PAYFAST_SIMULATOR_PORT,
      MERCHANT_ID: merchant.id,
      MERCHANT_KEY: merchant.key,
      PASSPHRASE: merchant.passphrase,
      PUBLIC_URL: simulatorUrl,
    },
  ],
  ['payments', 'apps/payments/dist/src/main.js', service('payments', { ...payfast, PUBLIC_URL: publicUrl })],
  [
    'notifications',
    'apps/notifications/dist/src/main.js',
    service('notifications', {
      REDIS_URL: env.REDIS_URL,
      SMTP_URL: `smtp://127.0.0.1:${env.MAIL_SMTP_PORT}`,
      MAIL_FROM: process.env.MAIL_FROM ?? 'DigiCard <no-reply@digicard.local>',
      SALES_INBOX: process.env.SALES_INBOX ?? 'sales@digicard.local',
      PUBLIC_URL: publicUrl,
    }),
  ],
  [
    'gateway',
    'apps/gateway/dist/src/main.js',
    {
      ...common,
      NATS_URL: natsFor('gateway'),
      PORT: env.PORT,
      REDIS_URL: env.REDIS_URL,
      PUBLIC_URL: publicUrl,
      SALES_EMAIL: process.env.SALES_EMAIL ?? 'sales@digicard.local',
      // PayFast's notifications are refused (403) from outside these: the simulator's address, as payments has it.
      PAYFAST_SOURCE_RANGES: payfast.PAYFAST_SOURCE_RANGES,
    },
  ],
];

const colours = [31, 32, 33, 34, 35, 36, 91, 92];
const children = [];
let stopping = false;

function pretty(name, colour, line) {
  let text = line;
  try {
    const entry = JSON.parse(line);
    const { level, msg, time, service, context, ...rest } = entry;
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    text = `${level === 'info' ? '' : `${String(level).toUpperCase()} `}${msg ?? ''}${extra}`;
  } catch {
    /* not JSON */
  }
  process.stdout.write(`\x1b[${colour}m${name.padEnd(13)}\x1b[0m ${text}\n`);
}

// Each service's internal health port (not for people) is any free one, so that a second copy of the system (npm
// start beside npm test's own, on other PORTs) does not collide on the defaults.
for (const [index, [name, entry, appEnv]] of apps.entries()) {
  const healthPort = name === 'mail-catcher' || name === 'payfast' ? {} : { HEALTH_PORT: String(await freePort()) };
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, ...healthPort, ...appEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const colour = colours[index % colours.length];
  let buffer = '';
  const onData = (chunk) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) if (line.trim()) pretty(name, colour, line);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  child.on('exit', (code) => {
    if (!stopping) {
      log(`${name} exited with code ${code}; stopping everything.`);
      void stopAll(1);
    }
  });
  children.push(child);
}

async function waitHealthy(url, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

async function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping...');
  await Promise.all(
    children.map(
      (child) =>
        /** @type {Promise<void>} */ (
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          })
        ),
    ),
  );
  await bus?.stop();
  await servers.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

if (await waitHealthy(`http://127.0.0.1:${env.PORT}/api/health`)) {
  process.stdout.write(`
\x1b[1m  DigiCard is running.\x1b[0m
    Open the site:      ${publicUrl}
    Mail (caught):      http://localhost:${env.MAIL_HTTP_PORT}   (JSON: /api/messages)
    PayFast simulator:  ${simulatorUrl}/_sim/payments   (payments are made on its page)
    System health:      ${publicUrl}/api/health
  Press Ctrl-C to stop.

`);
} else if (!stopping) {
  log(`the system did not report healthy within a minute: see the log above and ${publicUrl}/api/health`);
}
