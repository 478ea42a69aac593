import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, BrowserType, Download, Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumLastLines } from './chromium-options.js';
import { REPO_ROOT } from './system.js';
import { testLogDestination } from './test-log.js';

export { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium-options.js';

/** What the shared Jest environment offers a test file: its worker's browser server, started at the first call. */
interface SharedBrowser {
  /** `fresh`: the running server did not answer; a new one is started in its place. */
  endpoint(fresh?: boolean): Promise<string>;
  lastLines(): string[];
}

/**
 * Chromium for one test file (`chromium-options.ts`). Under Jest, a connection to its worker's browser server (the
 * shared environment starts one per worker, tools/dev/jest-environment.cjs): each file gets its own contexts, and its
 * `close()` closes them and disconnects, so files stay apart as with a browser of their own, without each starting
 * Chromium (about 1.5 CPU-seconds a start, 2026-11-29). Elsewhere (a benchmark), a browser of its own.
 * Its contexts (and `browser.newPage()`'s) prefer reduced motion unless a test says otherwise: the web app scrolls
 * smoothly otherwise (styles.css), and a click that Playwright aims while a smooth scroll still moves the target (a
 * focus that scrolled the page, on a loaded machine) can press on one element and release on another, so no click
 * reaches either (the profile editor lost a tab click that way, two browser files at a time).
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` (\`npm test\` installs it when run as root).`,
    );
  }
  // Imported here, not at the top: most files that import this library start no browser (0.4 CPU-s of imports a file).
  const { chromium } = await import('playwright-core');
  const shared = (globalThis as { __digicardBrowser?: SharedBrowser }).__digicardBrowser;
  // Chromium's own last lines (Playwright's `browser` log: its stderr, its exit), kept for when it goes away under a
  // test: they go to the file's log, printed when a test failed (one file lost its Chromium at launch in a pool run of
  // four files at once, 2026-11-29, and nothing said why).
  const ownLines: string[] = [];
  const browser = shared
    ? await connectShared(chromium, shared)
    : await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [...CHROMIUM_ARGS],
        logger: chromiumLastLines(ownLines),
      });
  const lastLines = () => (shared ? shared.lastLines() : ownLines);
  let closing = false;
  const close = browser.close.bind(browser);
  browser.close = (options) => {
    closing = true;
    return close(options);
  };
  browser.on('disconnected', () => {
    if (!closing) testLogDestination.write(`Chromium went away before the test closed it; its last lines:\n${lastLines().join('\n')}\n`);
  });
  // Chromium's --force-prefers-reduced-motion switch does not change the media query in headless mode (tried on
  // Debian's build): the context option does. Browser.newPage() goes through newContext() too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options?: BrowserContextOptions) => newContext({ reducedMotion: 'reduce', ...options });
  return browser;
}

/**
 * A connection to the worker's browser server that answers: a new context opened and closed on it. When it does not
 * (a pool run of 2026-11-29 had every test of one file fail with "Target page, context or browser has been closed",
 * the server's Chromium still running), that goes to the file's log with Chromium's last lines, and the file connects
 * to a new server instead.
 */
const PROBE_MS = 30_000;
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function connectShared(chromium: BrowserType, shared: SharedBrowser): Promise<Browser> {
  for (let attempt = 1; ; attempt += 1) {
    const browser = await chromium.connect(await shared.endpoint(attempt > 1));
    try {
      await within(PROBE_MS, (async () => (await browser.newContext()).close())());
      return browser;
    } catch (error) {
      testLogDestination.write(
        `the worker's Chromium did not open a context for a new connection (${(error as Error).message}), so a new one starts; its last lines:\n${shared.lastLines().join('\n')}\n`,
      );
      await browser.close().catch(() => undefined);
      if (attempt === 2) throw error;
    }
  }
}

/**
 * A download saved to a file of its own (test-results/downloads), whose path is returned: `Download.path()` is not
 * there for a browser the test is connected to (the shared browser server), `saveAs` is.
 */
export async function savedDownload(download: Download): Promise<string> {
  const dir = join(REPO_ROOT, 'test-results', 'downloads', randomBytes(6).toString('hex'));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  return path;
}

/**
 * Where browser tests put their screenshots (git-ignored), for a person to look at. A page's screenshot is a JPEG
 * (Playwright takes the type from the name): Chromium encodes a full-page PNG with about three times the CPU (1.4-1.6
 * against 0.4 CPU-s for a 20,000-pixel page, 2026-11-29), and the suite takes about a hundred. `png` for a picture a
 * test writes as PNG bytes, or reads a QR code back from.
 */
export function screenshotPath(name: string, type: 'jpeg' | 'png' = 'jpeg'): string {
  const dir = join(REPO_ROOT, 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.${type === 'png' ? 'png' : 'jpg'}`);
}

/**
 * The page's title once it is `expected`, or what it still is after `timeout`: a page the app renders in the browser
 * sets its title a moment after it has loaded, so reading it at once tests the machine's speed, not the page.
 */
export async function titleOf(page: Page, expected: string, timeout = 10_000): Promise<string> {
  await page.waitForFunction((title) => document.title === title, expected, { timeout }).catch(() => undefined);
  return page.title();
}

/** The gateway's session cookie (`__Host-`: secure, path /, no domain attribute in production). */
export const SESSION_COOKIE_NAME = '__Host-digicard_session';

/** The cookie that signs a Chromium context in with a session the test made through the API (`client.sessionId`). */
export function sessionCookie(sessionId: string) {
  return {
    name: SESSION_COOKIE_NAME,
    value: sessionId,
    domain: '127.0.0.1',
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'Lax' as const,
  };
}
