import sharp from 'sharp';
import type { AppleWallet } from './apple-config.js';
import { applePassJson, type ApplePassContent, type PassIdentity } from './apple-pass-content.js';
import { pkpassOf } from './pkpass.js';

/** The images a pass carries, each at 1x, 2x and 3x (Apple's sizes for a generic pass). */
const SCALES = [1, 2, 3] as const;
const nameAt = (base: string, scale: number): string => (scale === 1 ? `${base}.png` : `${base}@${scale}x.png`);

/** The stored image (WebP) drawn into a box as PNG, keeping its proportions (a square for the icon, transparent). */
async function png(bytes: Buffer, width: number, height: number, fit: 'inside' | 'contain' | 'cover'): Promise<Buffer> {
  return sharp(bytes)
    .resize({ width, height, fit, withoutEnlargement: fit === 'inside', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

const plainSquare = (size: number, colour: string): Promise<Buffer> =>
  sharp({ create: { width: size, height: size, channels: 4, background: colour } })
    .png()
    .toBuffer();

export interface PassImages {
  logo: Buffer | null;
  photo: Buffer | null;
}

/**
 * The pass's files besides pass.json: the icon (required: the logo in a square, or a square of the label colour),
 * the logo (at most 160x50 points) and the photo as the generic pass's thumbnail (90x90).
 */
async function imageFiles(content: ApplePassContent | null, images: PassImages): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  for (const scale of SCALES) {
    const icon = 29 * scale;
    files[nameAt('icon', scale)] = images.logo
      ? await png(images.logo, icon, icon, 'contain')
      : await plainSquare(icon, content?.labelColor ?? '#484747');
    if (images.logo) files[nameAt('logo', scale)] = await png(images.logo, 160 * scale, 50 * scale, 'inside');
    if (images.photo) files[nameAt('thumbnail', scale)] = await png(images.photo, 90 * scale, 90 * scale, 'cover');
  }
  return files;
}

/**
 * The signed `.pkpass`: pass.json, the images, manifest.json (each file's SHA-1) and `signature`, a detached PKCS#7
 * signature of the manifest by the pass type certificate with Apple's WWDR certificate in the chain (`pkpass.ts`).
 */
export async function signedApplePass(
  wallet: AppleWallet,
  identity: PassIdentity,
  content: ApplePassContent | null,
  images: PassImages,
): Promise<Buffer> {
  const files = await imageFiles(content, content ? images : { logo: null, photo: null });
  // A logo named but not found (deleted meanwhile): the business name heads the pass instead.
  const shown = content && !images.logo ? { ...content, logoMediaId: null } : content;
  return pkpassOf({ 'pass.json': Buffer.from(JSON.stringify(applePassJson(identity, shown))), ...files }, wallet);
}
