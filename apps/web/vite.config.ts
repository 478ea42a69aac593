import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gateway serves dist/ (index.html for every page route, /assets/* with an immutable cache) and injects the
// site configuration into index.html. `vite build --ssr` (the second step of the build target) writes
// dist-ssr/entry-server.js, one self-contained file the gateway imports to render the marketing pages into
// index.html (outside dist/, so it is never served). In development this server proxies the API to a locally
// running gateway.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, target: 'node20' }
    : { outDir: 'dist', assetsDir: 'assets', emptyOutDir: true, manifest: true },
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
}));
