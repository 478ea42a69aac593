import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vite';

const BOOT = fileURLToPath(new URL('./src/boot.ts', import.meta.url));
const MAIN_APP = fileURLToPath(new URL('./src/main-app.tsx', import.meta.url));

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

/**
 * The chunks of what the first press loads. The first-load script (boot.ts) names every chunk the app statically
 * needs, to preload them with the app; left to itself, Rolldown splits each small module the app shares with a lazy
 * page (the session store, the notice, the accounts API, ...) into a chunk of its own, and every split adds a file
 * name to that list, so to every marketing page's first load. Here the app's static imports go into three chunks:
 * `react` and `vendor` (packages, cached across our releases; React alone is most of it) and `app-core` (our code);
 * the lazy pages import from them. Modules the first-load script itself imports stay with it (they are not copied
 * into the groups, hence `includeDependenciesRecursively: false`). Chunks of the lazy pages are left to Rolldown.
 */
function appChunks(): { plugin: Plugin; name: (id: string, graph: ModuleGraph) => string | null } {
  let closures: { app: Set<string>; boot: Set<string> } | null = null;
  const staticClosure = (start: string, graph: ModuleGraph): Set<string> => {
    const seen = new Set<string>();
    const queue = [start];
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
    }
    return seen;
  };
  return {
    // The graph changes between builds of one process (watch mode): read it again for each.
    plugin: { name: 'digicard:app-chunks', buildStart: () => void (closures = null) },
    name: (id, graph) => {
      closures ??= { app: staticClosure(MAIN_APP, graph), boot: staticClosure(BOOT, graph) };
      if (id === MAIN_APP || !closures.app.has(id) || closures.boot.has(id)) return null;
      if (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return 'react';
      return /[\\/]node_modules[\\/]/.test(id) ? 'vendor' : 'app-core';
    },
  };
}

// The gateway serves dist/ (index.html for every page route, /assets/* with an immutable cache) and injects the
// site configuration into index.html. `vite build --ssr` (the second step of the build target) writes
// dist-ssr/entry-server.js, one self-contained file the gateway imports to render the marketing pages into
// index.html (outside dist/, so it is never served). In development this server proxies the API to a locally
// running gateway.
export default defineConfig(({ isSsrBuild }) => {
  const chunks = appChunks();
  return {
    plugins: [react(), chunks.plugin],
    build: isSsrBuild
      ? { outDir: 'dist-ssr', emptyOutDir: true, target: 'node20' }
      : {
          outDir: 'dist',
          assetsDir: 'assets',
          emptyOutDir: true,
          manifest: true,
          rolldownOptions: { output: { codeSplitting: { groups: [{ name: chunks.name, includeDependenciesRecursively: false }] } } },
        },
    // The gateway's image keeps only production dependencies: the server bundle carries React and the rest itself.
    ssr: { noExternal: true, target: 'node' },
    server: {
      host: '127.0.0.1',
      port: 5173,
      strictPort: true,
      proxy: {
        '/api': { target: 'http://127.0.0.1:8080' },
      },
    },
    preview: {
      host: '127.0.0.1',
    },
  };
});
