// Gzipped JavaScript a marketing page loads on its first load, read from the built web app (no browser, no load
// dependence): the `<script type="module" src>` and `<link rel="modulepreload" href>` files of apps/web/dist/index.html
// (the template every page is served in; the gateway fills #root with the rendered page), each gzipped at level 9 as
// the gateway's compression would send it. Also lists what loads later, when the full app starts (the first press of
// a button or form field, or at once on the pages that are not prerendered; from Vite's manifest), and every chunk.
// Run: `npx nx run web:build && node tools/bench/first-load-js.mjs` (LIMIT_KB=60 by default; exits 1 over the limit;
// WEB_DIST=<dir> reads another build, e.g. an older commit's, to compare).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = process.env.WEB_DIST ?? new URL('../../apps/web/dist/', import.meta.url).pathname;
const limitKb = Number(process.env.LIMIT_KB ?? 60);
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (bytes) => (bytes / 1000).toFixed(1);

const firstLoad = [
  ...[...html.matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+)"/g)].map((m) => m[1]),
  ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map((m) => m[1]),
];
const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="\/([^"]+)"/g)].map((m) => m[1]);
const rows = firstLoad.map((file) => ({ file, gzip: gz(file), raw: readFileSync(join(dist, file)).length }));
const total = rows.reduce((sum, row) => sum + row.gzip, 0);
const all = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => ({ file: `assets/${f}`, gzip: gz(`assets/${f}`) }))
  .sort((a, b) => b.gzip - a.gzip);

process.stdout.write(`First load of every marketing page (the scripts of index.html):\n`);
for (const row of rows) process.stdout.write(`  ${row.file}: ${kb(row.gzip)} kB gzip (${kb(row.raw)} kB raw)\n`);
for (const file of css) process.stdout.write(`  ${file} (CSS): ${kb(gz(file))} kB gzip\n`);
process.stdout.write(`  total JS: ${kb(total)} kB gzip (limit ${limitKb} kB): ${total <= limitKb * 1000 ? 'met' : 'NOT MET'}\n`);
// What the first press loads: the app's entry and every chunk it imports statically (Vite's manifest).
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const closure = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || closure.has(chunk.file)) return;
  closure.add(chunk.file);
  for (const next of chunk.imports ?? []) visit(next);
};
visit('src/main-app.tsx');
const app = [...closure].filter((file) => !firstLoad.includes(file)).map((file) => ({ file, gzip: gz(file) }));
process.stdout.write(`Loaded on the first press (the app that hydrates the page; beyond the first load):\n`);
for (const row of app) process.stdout.write(`  ${row.file}: ${kb(row.gzip)} kB gzip\n`);
process.stdout.write(`  total: ${kb(app.reduce((s, r) => s + r.gzip, 0))} kB gzip\n`);
process.stdout.write(`Every JS chunk of the build, largest first (gzip):\n`);
for (const row of all) process.stdout.write(`  ${row.file}: ${kb(row.gzip)} kB\n`);
process.stdout.write(`  all chunks together: ${kb(all.reduce((s, r) => s + r.gzip, 0))} kB\n`);
process.exitCode = total <= limitKb * 1000 ? 0 : 1;
