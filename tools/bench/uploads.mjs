// Memory of concurrent image uploads in the gateway: N uploads of photo-like JPEGs just under the 2 MB limit go
// through the gateway's own checking and re-encoding (`processImage`: sniff, decode once, re-encode as WebP) at
// once, while the process's resident memory is sampled every 5 ms. Prints the peak over the baseline.
// Run: `npx nx run gateway:build && node --expose-gc tools/bench/uploads.mjs` (UPLOADS=8 to change).
import sharp from 'sharp';
import { MAX_IMAGE_BYTES } from '../../libs/contracts/dist/src/index.js';
import { processImage } from '../../apps/gateway/dist/src/profiles/images.js';

const UPLOADS = Number(process.env.UPLOADS ?? 8);

function noisyJpeg(width, height, seed) {
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = x >> 16;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 60 })
    .toBuffer();
}

const uploads = [];
for (let i = 0; i < UPLOADS; i++) uploads.push(await noisyJpeg(2400, 1700, i + 1));
if (uploads.some((u) => u.length > MAX_IMAGE_BYTES)) throw new Error('an upload is over the limit');
globalThis.gc?.();
await new Promise((r) => setTimeout(r, 200));
const base = process.memoryUsage().rss;
let peak = base;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const started = performance.now();
const images = await Promise.all(uploads.map((u) => processImage(u, 'gallery')));
const ms = performance.now() - started;
clearInterval(sampler);
const mb = (n) => (n / 1024 / 1024).toFixed(0);
console.log(`${UPLOADS} concurrent uploads of ${mb(uploads.reduce((a, u) => a + u.length, 0) / UPLOADS)} MB (2400x1700 JPEG) each`);
console.log(`baseline RSS ${mb(base)} MB, peak ${mb(peak)} MB: ${mb(peak - base)} MB over the baseline; ${ms.toFixed(0)} ms in all`);
console.log(`WebP sizes: ${images.map((i) => `${Math.round(i.data.length / 1000)} kB`).join(', ')}`);
