import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { ApiClient, DEFAULTS, freePort, waitFor } from '@digicard/testing';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * `npm start` as a person runs it (the README's first command), on spare ports and a database of its own: it must
 * bring every part up, say where to go, serve the site, send the verification email to its mail catcher, and stop
 * cleanly on Ctrl-C. A service whose configuration start.mjs forgets makes it exit, and this test fail.
 */
describe('npm start', () => {
  const database = `digicard_start_${process.pid}_${Date.now()}`;
  const adminUrl = DEFAULTS.databaseUrl;
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();
  let child: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;
  const ports = { PORT: 0, MAIL_HTTP_PORT: 0, MAIL_SMTP_PORT: 0, PAYFAST_SIMULATOR_PORT: 0, NATS_PORT: 0 };

  beforeAll(async () => {
    for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
    child = spawn(process.execPath, ['tools/dev/start.mjs'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        DATABASE_URL: databaseUrl,
        REDIS_URL: DEFAULTS.redisUrl,
        NATS_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }, 30_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).finally(() => admin.end());
    // npm start's NATS kept its JetStream store for this port.
    rmSync(join(ROOT, '.data', `nats-${ports.NATS_PORT}`), { recursive: true, force: true });
  }, 60_000);

  it('says where to go once every part is healthy', async () => {
    // An app that exits makes npm start stop everything: that ends the wait at once, with the log.
    const stopped = exited.then((code) => {
      throw new Error(`npm start exited with ${code}:\n${output.slice(-4000)}`);
    });
    stopped.catch(() => undefined); // the Ctrl-C at the end exits too: that is not this wait's failure
    await Promise.race([
      waitFor('npm start to say the system is running', () => Promise.resolve(output.includes('DigiCard is running.')), 240_000, 500),
      stopped,
    ]);
    assert.match(output, new RegExp(`Open the site: +http://localhost:${ports.PORT}`));
    assert.match(output, new RegExp(`Mail \\(caught\\): +http://localhost:${ports.MAIL_HTTP_PORT}`));
    const health = await fetch(`http://127.0.0.1:${ports.PORT}/api/health`);
    assert.equal(health.status, 200, await health.clone().text());
  }, 250_000);

  it('serves the site, and a registration sends its verification email to the mail catcher', async () => {
    const home = await fetch(`http://127.0.0.1:${ports.PORT}/`);
    assert.equal(home.status, 200);
    assert.match(await home.text(), /<title>[^<]+<\/title>/);
    const client = new ApiClient(`http://localhost:${ports.PORT}`);
    const email = `start-${Date.now()}@example.com`;
    const registered = await client.request('/api/accounts', {
      body: {
        username: `start${Date.now().toString(36)}`,
        firstName: 'Thandi',
        lastName: 'Start',
        email,
        password: 'a long enough passphrase',
      },
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const mail = await waitFor(
      'the verification email in the mail catcher',
      async () => {
        const messages = (await (await fetch(`http://127.0.0.1:${ports.MAIL_HTTP_PORT}/api/messages`)).json()) as {
          to: string[];
          subject: string;
        }[];
        return messages.find((m) => m.to.includes(email));
      },
      30_000,
      250,
    );
    assert.equal(mail.subject, 'Verify your email address for DigiCard');
  }, 60_000);

  it('runs each app as its own NATS user and each service as its own database role, as compose and Kubernetes do', async () => {
    assert.match(output, /with one user per app \(gateway, identity, profiles, teams, orders, payments, notifications\)/);
    // Its streams are declared by the stream provisioner, the one NATS user that may, before the apps start.
    assert.match(output, /and the stream provisioner/);
    assert.match(output, /"service":"nats-streams","msg":"streams ready"/);
    // Its NATS server knows only the apps' users: a connection without credentials is refused.
    await assert.rejects(connect({ servers: `127.0.0.1:${ports.NATS_PORT}`, reconnect: false }), /Authorization Violation/);
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const sessions = await admin.query<{ application_name: string; usename: string }>(
        `SELECT DISTINCT application_name, usename FROM pg_stat_activity WHERE datname = current_database() AND application_name = ANY($1) ORDER BY 1`,
        [['identity', 'profiles', 'teams', 'orders', 'payments', 'notifications']],
      );
      assert.deepEqual(
        sessions.rows.map((r) => `${r.application_name}=${r.usename}`),
        ['identity', 'notifications', 'orders', 'payments', 'profiles', 'teams'].map((s) => `${s}=digicard_${s}`),
      );
    } finally {
      await admin.end();
    }
  });

  it('stops every part on Ctrl-C, with exit code 0', async () => {
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000))]);
    assert.equal(code, 0, output.slice(-2000));
    assert.match(output, /stopping\.\.\./);
  }, 40_000);
});
