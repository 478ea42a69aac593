import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import sharp from 'sharp';
import { googleWalletLogoPng } from '../src/wallet/google-wallet-logo.js';

// Google Wallet masks a pass's logo into a circle: an owner's wide business logo must reach Google whole, inside the
// safe area of a square (logo image guidelines: 660 x 660 at least, 1:1, a 15 % margin), or the mask cuts its sides.

const pixel = async (png: Buffer, left: number, top: number): Promise<number[]> => {
  const { data } = await sharp(png).extract({ left, top, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
};

describe('an uploaded image as a Google Wallet logo', () => {
  it('draws a wide logo whole into the middle 70 % of a white 660 x 660 PNG', async () => {
    const wide = await sharp({ create: { width: 480, height: 160, channels: 3, background: '#f4b400' } })
      .webp()
      .toBuffer();
    const png = await googleWalletLogoPng(wide);
    const meta = await sharp(png).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 660, 660]);
    // 480 x 160 into 462 x 462: 462 x 154, centred. Its ends are inside the margin of 99 px, nothing of it cut.
    assert.deepEqual(await pixel(png, 101, 330), [244, 180, 0], 'the logo’s left end');
    assert.deepEqual(await pixel(png, 558, 330), [244, 180, 0], 'the logo’s right end');
    for (const [x, y] of [
      [97, 330],
      [562, 330],
      [330, 240],
      [330, 420],
      [0, 0],
    ] as const)
      assert.deepEqual(await pixel(png, x, y), [255, 255, 255], `white at ${x},${y}`);
  });

  it('puts a transparent logo on white, and refuses what is not an image', async () => {
    const clear = await sharp({ create: { width: 200, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const png = await googleWalletLogoPng(clear);
    assert.deepEqual(await pixel(png, 330, 330), [255, 255, 255]);
    await assert.rejects(googleWalletLogoPng(Buffer.from('not an image')));
  });
});
