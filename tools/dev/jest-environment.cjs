// The test environment every project shares: Node's, plus a log buffer. What the code under test logs in the test's
// own process (the in-process services' and the gateway harness's pino lines: the expected warnings of a fault test
// among them) goes to `globalThis.__digicardTestLog` instead of the terminal, and is printed only when a test or a
// hook of the file failed, after the failure, so a green run stays readable and a red one keeps its evidence.
// `TEST_LOG=1` prints every line as it comes.
//
// It also offers a test file its worker's browser server (`globalThis.__digicardBrowser`): the first browser file a
// Jest worker runs starts Chromium through Playwright's `launchServer`, and every browser file of that worker connects
// to it (libs/testing launchChromium) with contexts of its own, closed when the file closes its browser. Starting
// Chromium once per worker instead of once per file saves about 1.5 CPU-seconds a browser file. A server whose
// Chromium went away is started again for the next file; the worker's exit ends it.
//
// And the worker's shared system (`globalThis.__digicardSharedSystem`, libs/testing `TestSystem.shared`): the first
// file that asks starts every app; each next file gets it reset to what a new one would be.
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { TestEnvironment } = require('jest-environment-node');

const ROOT = join(__dirname, '../..');

/** This worker's browser server, once a file asked for it: a promise of Playwright's BrowserServer. */
let browserServer = null;
/** Chromium's last lines (Playwright's `browser` log), for a file whose browser went away. */
const chromiumLines = [];

/** The worker's shared system, as libs/testing keeps it between files (its `SharedSystemSlot`). */
const sharedSystem = { core: null, lent: false };
// At the end of the run jest-worker tells each worker to end (CHILD_MESSAGE_END, 2) and waits 500 ms for it to exit
// by itself before it sends SIGTERM, with a warning of leaked handles; a worker whose browser server runs does not
// exit by itself. So a worker exits on that message (Playwright's exit handler ends its Chromium; a shared system's
// watchdog, libs/testing system-watchdog.ts, ends the apps when the worker is gone).
if (process.send) {
  process.on('message', (message) => {
    if (Array.isArray(message) && message[0] === 2) setImmediate(() => process.exit(0));
  });
}

function running(server) {
  const child = server.process();
  return child.exitCode === null && child.signalCode === null;
}

/**
 * The endpoint of the worker's browser server, started when there is none or its Chromium has exited. `fresh`: a file
 * whose connection to the running one failed asks for a new one (the old one is killed first).
 * @param {boolean} [fresh]
 */
async function browserEndpoint(fresh = false) {
  if (browserServer) {
    const server = await browserServer.catch(() => null);
    if (server && running(server) && !fresh) return server.wsEndpoint();
    if (server && running(server)) await server.kill().catch(() => undefined);
  }
  browserServer = (async () => {
    const { chromium } = require('playwright-core');
    // The options libs/testing launches with (built: the lanes depend on the libraries' builds).
    const { CHROMIUM_PATH, CHROMIUM_ARGS, chromiumLastLines } = await import(
      pathToFileURL(join(ROOT, 'libs/testing/dist/src/chromium-options.js')).href
    );
    const server = await chromium.launchServer({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS],
      logger: chromiumLastLines(chromiumLines),
    });
    process.once('exit', () => {
      if (running(server)) server.process().kill('SIGKILL');
    });
    return server;
  })();
  return (await browserServer).wsEndpoint();
}

class DigicardEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.lines = [];
    this.failed = false;
    const passThrough = process.env.TEST_LOG === '1';
    // DIGICARD_SHARED_BROWSER=0: every browser file launches its own Chromium, as before (to compare, or to rule it out).
    if (process.env.DIGICARD_SHARED_BROWSER !== '0')
      this.global.__digicardBrowser = { endpoint: browserEndpoint, lastLines: () => [...chromiumLines] };
    // With DIGICARD_SHARED_SYSTEM=0 every file starts its own apps (`TestSystem.shared` falls back on `start`).
    this.global.__digicardSharedSystem = sharedSystem;
    this.global.__digicardTestLog = {
      write: (line) => {
        if (passThrough) process.stdout.write(line);
        else this.lines.push(line);
      },
    };
    // The file's own lane's time-out (jest.preset.cjs): Jest's runner reads the run's `testTimeout` only, so in a pool
    // of several lanes (tools/dev/jest.pool.config.cjs) a unit file would get the service lane's 120 s. The runner takes
    // this global, as `jest.setTimeout` sets it, when the file starts.
    const timeout = config.projectConfig.testTimeout;
    if (timeout) this.global[Symbol.for('TEST_TIMEOUT_SYMBOL')] = timeout;
  }

  /** Jest calls it with each test's events (not declared by NodeEnvironment). @param {{ name: string, test?: { errors: unknown[] } }} event */
  handleTestEvent(event) {
    if (
      (event.name === 'test_done' && (event.test?.errors.length ?? 0) > 0) ||
      event.name === 'hook_failure' ||
      event.name === 'test_fn_failure'
    )
      this.failed = true;
  }

  /** @override */
  async teardown() {
    if (this.failed && this.lines.length > 0) {
      process.stderr.write(
        `\n── what ${this.testPath} logged (${this.lines.length} lines; printed because a test failed) ──\n${this.lines.join('')}── end of the log ──\n`,
      );
    }
    this.lines = [];
    await super.teardown();
  }
}

module.exports = DigicardEnvironment;
