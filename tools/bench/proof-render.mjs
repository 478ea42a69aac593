// Print proof rendering: how long one proof takes on one worker, and how many proofs per second that worker makes.
// Renders the orders service's real proof (apps/orders/dist: the pdfkit PDF, front and back with bleed, crop marks,
// safe area, QR code, the logo embedded; and the PNG preview through sharp) one at a time in this one process, as
// the `proof-render` worker does with PROOF_RENDER_CONCURRENCY=1. It leaves out what surrounds a render in the worker
// (asking profiles for the profile and logo over NATS, and the one database transaction that stores the files):
// those are a few milliseconds each on this machine. Writes its section of docs/benchmarks.md.
// Run: `npx nx run orders:build && node tools/bench/proof-render.mjs` (PROOFS=300 WARMUP=20 to change).
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { renderProof } from '../../apps/orders/dist/src/proofs/render-proof.js';
import { REPO_ROOT } from '../../libs/testing/dist/src/index.js';

const PROOFS = Number(process.env.PROOFS ?? 300);
const WARMUP = Number(process.env.WARMUP ?? 20);
const TARGET_P95_MS = 300;

// A 600 x 200 logo, as the worker hands it to the renderer (converted to PNG from the upload).
const logoPng = await sharp({
  create: { width: 600, height: 200, channels: 4, background: { r: 11, g: 95, b: 255, alpha: 1 } },
})
  .composite([
    {
      input: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><text x="30" y="130" font-size="110" font-family="sans-serif" fill="#fff">KAROO</text></svg>',
      ),
    },
  ])
  .png()
  .toBuffer();
/** @type {[material: 'PVC' | 'Bamboo' | 'Stainless steel', colour: string][]} */
const finishes = [
  ['PVC', 'Black'],
  ['PVC', 'White'],
  ['Bamboo', 'Bamboo'],
  ['Stainless steel', 'Silver'],
  ['Stainless steel', 'Gold'],
  ['Stainless steel', 'Black'],
];
const face = (i) => {
  const [material, colour] = finishes[i % finishes.length];
  const serial = `K7M3Q${String(i).padStart(3, '0').replace(/[01]/g, '9')}`;
  return {
    name: 'Nomsa Dube',
    title: 'Head of Sales, Western Cape',
    businessName: 'Karoo Coffee Co.',
    logo: { png: logoPng, width: 600, height: 200 },
    url: `https://digicard.co.za/c/${serial}`,
    serial,
    material,
    colour,
  };
};

for (let i = 0; i < WARMUP; i++) await renderProof([face(i)]);
const times = [];
let pdfBytes = 0;
let pngBytes = 0;
const started = performance.now();
for (let i = 0; i < PROOFS; i++) {
  const t = performance.now();
  const { pdf, png } = await renderProof([face(i)]);
  times.push(performance.now() - t);
  pdfBytes += pdf.length;
  pngBytes += png.length;
}
const elapsed = performance.now() - started;
times.sort((a, b) => a - b);
const at = (p) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
const result = {
  p50: at(50),
  p95: at(95),
  max: times[times.length - 1],
  perSecond: (PROOFS / elapsed) * 1000,
  pdfKb: pdfBytes / PROOFS / 1024,
  pngKb: pngBytes / PROOFS / 1024,
};
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const date = new Date().toISOString().slice(0, 10);
const f = (n) => n.toFixed(1);
const section = `<!-- proof-render:start -->
## Print proof rendering (\`proof-render\` queue, one worker)

Measured by \`node tools/bench/proof-render.mjs\` on ${date}: this ${cpus().length}-core machine (${cpu}), Node ${process.version},
load average ${load} at the end. ${PROOFS} proofs rendered one after the
other in one process after ${WARMUP} warm-up renders, as one worker with PROOF_RENDER_CONCURRENCY=1 does: each the
print-ready PDF (front and back at 85.6 x 54 mm plus 3 mm bleed, crop marks, safe area, a 600 x 200 px logo, the QR
code of the card's URL) and the PNG preview (733 x 984 px, through sharp), the six finishes in turn. Not included (not measured here): the
profile and logo asked of profiles over NATS and the transaction that stores the files.

| | value |
|---|---|
| p50 per proof | ${f(result.p50)} ms |
| p95 per proof | ${f(result.p95)} ms (target < ${TARGET_P95_MS} ms: ${result.p95 < TARGET_P95_MS ? 'met' : 'NOT met'}) |
| slowest | ${f(result.max)} ms |
| proofs per second, one worker | ${f(result.perSecond)} |
| PDF size | ${f(result.pdfKb)} kB per proof |
| PNG preview size | ${f(result.pngKb)} kB per proof |
<!-- proof-render:end -->
`;
const file = join(REPO_ROOT, 'docs', 'benchmarks.md');
const doc = readFileSync(file, 'utf8');
const marked = /<!-- proof-render:start -->[\s\S]*?<!-- proof-render:end -->\n?/;
writeFileSync(file, marked.test(doc) ? doc.replace(marked, section) : `${doc.trimEnd()}\n\n${section}`);
console.log(JSON.stringify({ ...result, load }, null, 2));
