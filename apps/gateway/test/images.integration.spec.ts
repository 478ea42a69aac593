import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import sharp from 'sharp';
import { ImageMessages, MAX_IMAGE_BYTES } from '@digicard/contracts';
import { MAX_CONCURRENT_IMAGE_JOBS, decodeImage, processImage } from '../src/profiles/images.js';

/** A JPEG of noise just under `bytes`: it does not compress, so its WebP needs the lower qualities. */
export async function noisyJpeg(width: number, height: number, seed = 7): Promise<Buffer> {
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

describe('image uploads: decoded once, re-encoded within bounded memory', () => {
  it('decodes an upload once even when it is encoded at several qualities', async () => {
    const upload = await noisyJpeg(1400, 1000);
    assert.ok(upload.length <= MAX_IMAGE_BYTES, `${upload.length} bytes`);
    let decodes = 0;
    const counting: typeof decodeImage = (data, purpose) => {
      decodes += 1;
      return decodeImage(data, purpose);
    };
    const image = await processImage(upload, 'gallery', counting);
    assert.equal(decodes, 1);
    assert.equal(image.contentType, 'image/webp');
    assert.ok(image.width <= 1600 && image.height <= 1200);
    // Noise at quality 82 is well over 700 kB, so lower qualities were tried on the same pixels.
    const first = await sharp(upload)
      .resize({ width: 1600, height: 1200, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
    assert.ok(first.length > 700_000, `quality 82 gave ${first.length} bytes`);
    assert.ok(image.data.length < first.length);
  });

  it('keeps 8 concurrent 2 MB uploads under 256 MB of extra memory (docs/benchmarks.md)', async () => {
    // Photo-sized JPEGs just under the 2 MB limit, as phones send them.
    const uploads = await Promise.all(Array.from({ length: 8 }, (_, i) => noisyJpeg(2400, 1700, i + 1)));
    for (const u of uploads) assert.ok(u.length > 1_500_000 && u.length <= MAX_IMAGE_BYTES, `${u.length} bytes`);
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const images = await Promise.all(uploads.map((u) => processImage(u, 'gallery')));
      assert.equal(images.length, 8);
    } finally {
      clearInterval(sampler);
    }
    const extraMb = (peak - base) / 1024 / 1024;
    assert.ok(extraMb < 256, `peak ${extraMb.toFixed(0)} MB over the baseline`);
  });
});

describe('image uploads: decode limits in the gateway that serves the public pages', () => {
  it('refuses an image of more than 25 megapixels from its header, before decoding it', async () => {
    // One colour compresses to a few kB: 6000 × 4500 (27 MP) fits the 2 MB limit easily.
    const big = await sharp({ create: { width: 6000, height: 4500, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    assert.ok(big.length < MAX_IMAGE_BYTES);
    let decodes = 0;
    const counting: typeof decodeImage = (data, purpose) => {
      decodes += 1;
      return decodeImage(data, purpose);
    };
    await assert.rejects(processImage(big, 'gallery', counting), (error: any) => error.body?.message === ImageMessages.tooManyPixels);
    assert.equal(decodes, 0, 'refused from the header');
    const fits = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    assert.equal((await processImage(fits, 'gallery')).contentType, 'image/webp');
  });

  it(`decodes at most ${MAX_CONCURRENT_IMAGE_JOBS} uploads at once; the others wait their turn and all succeed`, async () => {
    const upload = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#993366' } })
      .jpeg()
      .toBuffer();
    let active = 0;
    let most = 0;
    const slow: typeof decodeImage = async (data, purpose) => {
      active += 1;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        return await decodeImage(data, purpose);
      } finally {
        active -= 1;
      }
    };
    const results = await Promise.all(Array.from({ length: 8 }, () => processImage(upload, 'product', slow)));
    assert.equal(results.length, 8);
    assert.ok(results.every((r) => r.contentType === 'image/webp'));
    assert.equal(most, MAX_CONCURRENT_IMAGE_JOBS);
  });
});
