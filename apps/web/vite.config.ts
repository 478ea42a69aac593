import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gateway serves dist/ (index.html for every page route, /assets/* with an immutable cache) and injects the
// site configuration into index.html. In development this server proxies the API to a locally running gateway.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
  },
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
});
