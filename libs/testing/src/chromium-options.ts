/**
 * How the tests start Chromium, in a module of its own with no dependency: `launchChromium` (libs/testing) uses it
 * when it launches a browser itself, and the shared Jest environment (tools/dev/jest-environment.cjs) when it starts
 * the one browser server a Jest worker's browser files connect to. Debian's Chromium, headless, with the flags that
 * keep it off the network (Playwright gives it a fresh profile).
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A Playwright logger that keeps Chromium's last 40 lines (its `browser` log: its stderr, its exit) in `lines`, for a
 * test whose browser went away under it.
 */
export function chromiumLastLines(lines: string[]): {
  isEnabled(name: string): boolean;
  log(name: string, severity: string, message: string | Error): void;
} {
  return {
    isEnabled: (name) => name === 'browser',
    log: (_name, _severity, message) => {
      lines.push(`${new Date().toISOString()} ${String(message)}`);
      if (lines.length > 40) lines.shift();
    },
  };
}
