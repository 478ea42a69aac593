export interface ClientScript {
  /** Absolute path of the built `dist/client/profile-page.js`. */
  path: string;
  /** The first 12 hex digits of the file's sha256, for a cache-busting `?v=`. */
  hash: string;
}

let cached: ClientScript | undefined;

/**
 * The public page's script, as built by `build-client.mjs`: where it is and a short hash of its content. Read on the
 * first call (the gateway serves it with long-lived cache headers). Node only; Node's modules are fetched on call,
 * so the browser bundle that imports this library for `ProfileView` never loads them.
 */
export function clientScript(): ClientScript {
  if (cached) return cached;
  const fs = process.getBuiltinModule('node:fs');
  const crypto = process.getBuiltinModule('node:crypto');
  const url = process.getBuiltinModule('node:url');
  // Built, this module is dist/src/client-script.js beside dist/client. Run from its source (tests), or bundled into
  // an app's dist/src/main.js (tools/dev/bundle-app.mjs), the package's own export finds the file.
  const built = url.fileURLToPath(new URL('../client/profile-page.js', import.meta.url));
  const path = fs.existsSync(built)
    ? built
    : process
        .getBuiltinModule('node:module')
        .createRequire(import.meta.url)
        .resolve('@digicard/profile-view/profile-page.js');
  const hash = crypto.createHash('sha256').update(fs.readFileSync(path)).digest('hex').slice(0, 12);
  cached = { path, hash };
  return cached;
}
