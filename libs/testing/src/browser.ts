import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { REPO_ROOT } from './system.js';
import { testLogDestination } from './test-log.js';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, headless, with the flags that keep it off the network (Playwright gives it a fresh profile).
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
  // Chromium's own last lines (Playwright's `browser` log: its stderr, its exit), kept for when it goes away under a
  // test: they go to the file's log, printed when a test failed (one file lost its Chromium at launch in a pool run of
  // four files at once, 2026-11-29, and nothing said why).
  const lastLines: string[] = [];
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    logger: {
      isEnabled: (name) => name === 'browser',
      log: (_name, _severity, message) => {
        lastLines.push(`${new Date().toISOString()} ${String(message)}`);
        if (lastLines.length > 40) lastLines.shift();
      },
    },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  let closing = false;
  const close = browser.close.bind(browser);
  browser.close = (options) => {
    closing = true;
    return close(options);
  };
  browser.on('disconnected', () => {
    if (!closing) testLogDestination.write(`Chromium went away before the test closed it; its last lines:\n${lastLines.join('\n')}\n`);
  });
  // Chromium's --force-prefers-reduced-motion switch does not change the media query in headless mode (tried on
  // Debian's build): the context option does. Browser.newPage() goes through newContext() too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options?: BrowserContextOptions) => newContext({ reducedMotion: 'reduce', ...options });
  return browser;
}

/** Where browser tests put their screenshots (git-ignored), for a person to look at. */
export function screenshotPath(name: string): string {
  const dir = join(REPO_ROOT, 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
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
