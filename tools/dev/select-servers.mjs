// Where `npm start` and `npm test` get PostgreSQL, Redis and NATS from. Pure (no I/O, node built-ins not even
// needed), so one unit test covers every case, the Docker-only newcomer included, which our machines cannot run
// (test/select-servers.spec.ts). lib.mjs gathers the facts, asks here, and does what the answer says.
//
// For each server, in order: the configured URL (it must answer: a typo is never silently replaced), the local
// server (answering on its usual port, or started from the installed program), a container when a Docker engine
// answers, and, for `npm start` only, an embedded PostgreSQL. Otherwise it is missing, with what to install.

/** @typedef {'postgres' | 'redis' | 'nats'} Server */
/** @typedef {'start' | 'test'} Purpose */
/**
 * @typedef {object} Choice
 * @property {'configured' | 'local' | 'embedded' | 'container' | 'missing'} source
 * @property {string} [url] where it answers (`configured`, `local`) or is to answer (`embedded`); a container's URL
 *   is known once it runs, and the tests' NATS has none (each test file starts its own)
 * @property {boolean} [start] for `local`: the installed program must be started first
 * @property {string} [problem] for `missing`: what is wrong, and what to install or set
 */
/**
 * @typedef {object} Facts
 * @property {Purpose} purpose
 * @property {Record<string, string | undefined>} env the environment; only the three URL variables are read
 * @property {Record<Server, boolean>} answers whether something answers at the URL serverUrls() gives
 * @property {Record<Server, boolean>} startable whether the local program is installed (and, once tried, came up)
 * @property {boolean} containers whether a container runtime (a Docker engine) answers
 */

/** @type {Server[]} */
export const SERVERS = ['postgres', 'redis', 'nats'];

export const NAMES = { postgres: 'PostgreSQL', redis: 'Redis', nats: 'NATS' };
const VARIABLES = { postgres: 'DATABASE_URL', redis: 'REDIS_URL', nats: 'NATS_URL' };
const PACKAGES = { postgres: 'postgresql', redis: 'redis-server', nats: 'nats-server' };

// `npm start` keeps its data in its own database; the tests create a database per file from `postgres`.
const LOCAL_URLS = {
  start: { postgres: 'postgres://postgres@127.0.0.1:5432/digicard', redis: 'redis://127.0.0.1:6379', nats: 'nats://127.0.0.1:4222' },
  test: { postgres: 'postgres://postgres@127.0.0.1:5432/postgres', redis: 'redis://127.0.0.1:6379', nats: 'nats://127.0.0.1:4222' },
};

/**
 * The variable that configures a server: `DATABASE_URL` for `npm start`, `TEST_DATABASE_URL` for `npm test`.
 * @param {Purpose} purpose
 * @param {Server} server
 */
export function variableFor(purpose, server) {
  return `${purpose === 'test' ? 'TEST_' : ''}${VARIABLES[server]}`;
}

/**
 * Where to look for each server: the configured URL, else the usual local port.
 * @param {Purpose} purpose
 * @param {Record<string, string | undefined>} env
 * @returns {Record<Server, { url: string, configured: boolean }>}
 */
export function serverUrls(purpose, env) {
  const at = (/** @type {Server} */ server) => {
    const configured = env[variableFor(purpose, server)];
    return configured ? { url: configured, configured: true } : { url: LOCAL_URLS[purpose][server], configured: false };
  };
  return { postgres: at('postgres'), redis: at('redis'), nats: at('nats') };
}

/**
 * @param {Facts} facts
 * @returns {Record<Server, Choice>}
 */
export function selectServers(facts) {
  return { postgres: choose('postgres', facts), redis: choose('redis', facts), nats: choose('nats', facts) };
}

/**
 * @param {Server} server
 * @param {Facts} facts
 * @returns {Choice}
 */
function choose(server, { purpose, env, answers, startable, containers }) {
  const variable = variableFor(purpose, server);
  const { url, configured } = serverUrls(purpose, env)[server];
  /** @param {string} problem @returns {Choice} */
  const missing = (problem) => ({ source: 'missing', problem });

  if (purpose === 'test' && server === 'nats') {
    // Each test file runs a NATS of its own (libs/testing PrivateNats): it stops and restarts it, and its streams
    // and durable consumers must not meet another file's. So no shared server will do, configured or local: the
    // nats-server program, or one container per file.
    if (configured)
      return missing(
        `${variable} is set, but the tests cannot share a NATS server: each test file starts its own (nats-server, or a container); unset ${variable}`,
      );
    if (startable.nats) return { source: 'local' };
    if (containers) return { source: 'container' };
    return missing(
      'the tests start their own NATS servers, but nats-server is not installed and no Docker engine answers (apt-get install nats-server, or install Docker)',
    );
  }

  if (configured)
    return answers[server] ? { source: 'configured', url } : missing(`${NAMES[server]} does not answer at ${variable}=${url}`);
  if (answers[server]) return { source: 'local', url, start: false };
  if (startable[server]) return { source: 'local', url, start: true };
  if (containers) return { source: 'container' };
  // The embedded PostgreSQL keeps `npm start` working with nothing installed, its data in .data/postgres; the tests
  // have no use for it, as before.
  if (server === 'postgres' && purpose === 'start') return { source: 'embedded', url };
  const { host } = new URL(url);
  return missing(
    `${NAMES[server]} does not answer at ${host} and could not be started (apt-get install ${PACKAGES[server]}, or install Docker, or set ${variable})`,
  );
}
