import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MAX_CONCURRENT_IMAGE_JOBS } from '../src/profiles/images.js';
import { RenderedImages } from '../src/profiles/rendered-images.js';

// Variants of uploads drawn for visitors (the Google Wallet logo, the vCard photo): drawn once per image and kept,
// a private image's never kept, at most MAX_CONCURRENT_IMAGE_JOBS drawn at once.

const source = (shareable = true) => {
  const calls = { loads: 0 };
  return { calls, load: () => (calls.loads++, Promise.resolve({ data: Buffer.from('source'), shareable })) };
};
const draw = (bytes: Buffer) => Promise.resolve(Buffer.concat([bytes, Buffer.from(' drawn')]));

describe('images drawn for visitors', () => {
  it('draws a shareable image once: a repeat is the kept variant, without reading the image again', async () => {
    const images = new RenderedImages();
    const { calls, load } = source();
    const first = await images.get('logo:a', load, draw);
    const again = await images.get('logo:a', load, draw);
    assert.equal(first.image.toString(), 'source drawn');
    assert.deepEqual(again, { image: first.image, shareable: true });
    assert.equal(calls.loads, 1);
  });

  it('never keeps a private image’s variant: each request reads it again (the profiles service decides who may)', async () => {
    const images = new RenderedImages();
    const { calls, load } = source(false);
    assert.equal((await images.get('logo:private', load, draw)).shareable, false);
    await images.get('logo:private', load, draw);
    assert.equal(calls.loads, 2);
    assert.equal(images.size, 0);
  });

  it('keeps a failure of nobody: the next request tries again', async () => {
    const images = new RenderedImages();
    await assert.rejects(
      images.get('logo:b', () => Promise.reject(new Error('not found')), draw),
      /not found/,
    );
    const { calls, load } = source();
    await images.get('logo:b', load, draw);
    assert.equal(calls.loads, 1);
  });

  it('drops the least recently used beyond its size, and any variant after its time', async () => {
    let now = 0;
    const images = new RenderedImages(2, 1000, () => now);
    const a = source();
    const b = source();
    const c = source();
    await images.get('a', a.load, draw);
    await images.get('b', b.load, draw);
    await images.get('a', a.load, draw); // a used last: b is the oldest now
    await images.get('c', c.load, draw);
    assert.equal(images.size, 2);
    await images.get('a', a.load, draw);
    await images.get('b', b.load, draw);
    assert.deepEqual([a.calls.loads, b.calls.loads], [1, 2], 'b was dropped, a kept');
    now = 1001;
    await images.get('b', b.load, draw);
    assert.equal(b.calls.loads, 3, 'kept no longer than its time');
  });

  it('draws at most MAX_CONCURRENT_IMAGE_JOBS at once, however many different images are asked for', async () => {
    const images = new RenderedImages();
    let drawing = 0;
    let most = 0;
    const slowDraw = async (bytes: Buffer) => {
      drawing++;
      most = Math.max(most, drawing);
      await new Promise((resolve) => setTimeout(resolve, 5));
      drawing--;
      return bytes;
    };
    await Promise.all(Array.from({ length: 10 }, (_, i) => images.get(`logo:${i}`, source().load, slowDraw)));
    assert.equal(most, MAX_CONCURRENT_IMAGE_JOBS);
  });
});
