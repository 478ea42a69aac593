import { Inject, Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { ErrorCode, ImageMessages, MAX_IMAGE_BYTES, Rpc, type ImagePurpose, type RequestMeta, type StoredImage } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { GatewayRpc } from '../rpc/rpc.client.js';

/** What the bytes are, by their first bytes: the file name and the declared type are not trusted. */
export function sniffImage(data: Buffer): 'jpeg' | 'png' | 'webp' | 'gif' | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 12 && data.toString('ascii', 0, 4) === 'RIFF' && data.toString('ascii', 8, 12) === 'WEBP') return 'webp';
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.toString('ascii', 0, 6))) return 'gif';
  return null;
}

/** The largest box each kind of image is kept at: twice the hints the editor shows, for sharp phone screens. */
const BOX: Record<ImagePurpose, { width: number; height: number }> = {
  profileImage: { width: 1000, height: 1000 },
  profileBackground: { width: 1600, height: 600 },
  businessLogo: { width: 800, height: 800 },
  gallery: { width: 1600, height: 1200 },
  product: { width: 1000, height: 1000 },
};

const invalid = (message: string) => new ApiHttpException({ statusCode: 400, code: ErrorCode.ValidationFailed, message });

export interface ProcessedImage {
  data: Buffer;
  contentType: 'image/webp';
  width: number;
  height: number;
}

/**
 * The most pixels an upload may have: 25 megapixels (6000 × 4000, more than a phone saves by default). The gateway
 * that decodes uploads also serves the public pages, so what one decode may take is kept small; checked from the
 * file's header before decoding, and again by sharp while it decodes.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;

/** At most this many uploads are decoded and encoded at once in one gateway process; the others wait their turn. */
export const MAX_CONCURRENT_IMAGE_JOBS = 2;

/** A counting semaphore: `run` waits for one of `size` slots, runs the work, and frees the slot. */
export class Slots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

/** The gateway's image work (uploads, and the variants drawn for visitors: `rendered-images.ts`), at most `MAX_CONCURRENT_IMAGE_JOBS` at once. */
export const imageJobs = new Slots(MAX_CONCURRENT_IMAGE_JOBS);

/** The pixels of an upload, decoded once: turned upright and shrunk to its box. */
export interface DecodedImage {
  pixels: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** Decodes an upload once (the only step that reads the compressed bytes); the encoder then works on its pixels. */
export async function decodeImage(data: Buffer, purpose: ImagePurpose): Promise<DecodedImage> {
  const box = BOX[purpose];
  const { data: pixels, info } = await sharp(data, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
    .rotate()
    .resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels, width: info.width, height: info.height, channels: info.channels };
}

/** The WebP qualities tried in turn until the image is at most 700 kB. */
const QUALITIES = [82, 70, 55] as const;

/**
 * Checks an upload by its content and size, then decodes it once and re-encodes its pixels: turned upright, shrunk
 * to its box, and written as WebP without any metadata (EXIF, GPS, ICC): nothing the phone put in the file is kept.
 * A lower quality, when needed, re-encodes the same pixels: the upload is never decoded twice. At most
 * `MAX_CONCURRENT_IMAGE_JOBS` uploads are decoded and encoded at once.
 */
export async function processImage(data: Buffer, purpose: ImagePurpose, decode: typeof decodeImage = decodeImage): Promise<ProcessedImage> {
  if (data.length === 0) throw invalid(ImageMessages.notAnImage);
  if (data.length > MAX_IMAGE_BYTES) throw invalid(ImageMessages.tooLarge);
  if (!sniffImage(data)) throw invalid(ImageMessages.notAnImage);
  // The header says how many pixels decoding would make (a 2 MB PNG of one colour can hold hundreds of millions).
  let pixels: number;
  try {
    const { width, height } = await sharp(data).metadata();
    pixels = width * height;
  } catch {
    throw invalid(ImageMessages.notAnImage);
  }
  if (!(pixels <= MAX_IMAGE_PIXELS)) throw invalid(ImageMessages.tooManyPixels);
  return imageJobs.run(() => decodeAndEncode(data, purpose, decode));
}

async function decodeAndEncode(data: Buffer, purpose: ImagePurpose, decode: typeof decodeImage): Promise<ProcessedImage> {
  let decoded: DecodedImage;
  try {
    decoded = await decode(data, purpose);
  } catch {
    throw invalid(ImageMessages.notAnImage);
  }
  const { pixels, width, height, channels } = decoded;
  for (const quality of QUALITIES) {
    const out = await sharp(pixels, { raw: { width, height, channels } }).webp({ quality }).toBuffer();
    if (out.length <= 700_000 || quality === QUALITIES[QUALITIES.length - 1])
      return { data: out, contentType: 'image/webp', width, height };
  }
  throw invalid(ImageMessages.notAnImage);
}

/** An owner's upload: checked and re-encoded here, then stored by the profiles service. */
@Injectable()
export class ImageUploads {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  async store(purpose: ImagePurpose, upload: Buffer, meta: RequestMeta): Promise<StoredImage> {
    const image = await processImage(upload, purpose);
    return this.rpc.call(
      Rpc.storeImage,
      { purpose, contentType: image.contentType, dataBase64: image.data.toString('base64'), width: image.width, height: image.height },
      meta,
    );
  }
}
