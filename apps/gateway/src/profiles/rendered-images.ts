import { imageJobs } from './images.js';

/** How many drawn variants are kept, and for how long: a few MB at most (a wallet logo is about 10 kB, a vCard photo 20 kB). */
export const RENDERED_IMAGES_KEPT = 200;
export const RENDERED_IMAGE_TTL_MS = 10 * 60 * 1000;

/** A variant as drawn, with what the uploaded image said about who may see it. */
export interface RenderedImage {
  image: Buffer;
  shareable: boolean;
}

/**
 * Variants of uploaded images drawn for visitors (a Google Wallet logo, a vCard photo), each drawn once and kept a
 * while, the least recently used dropped first: the gateway that draws them also serves the public pages, and anyone
 * may ask for them, so a repeated request costs a lookup, not a decode. Drawing shares the uploads' slots
 * (`imageJobs`): however many arrive at once, at most `MAX_CONCURRENT_IMAGE_JOBS` decode. Only a shareable image's
 * variant is kept (a private profile's image is its owner's alone: read and drawn for each request, as the profiles
 * service allows). A media id is new for every upload, so a kept variant is never out of date; one of an image
 * deleted or made private is gone after `RENDERED_IMAGE_TTL_MS`.
 */
export class RenderedImages {
  private readonly kept = new Map<string, { image: Buffer; until: number }>();

  constructor(
    private readonly max = RENDERED_IMAGES_KEPT,
    private readonly ttlMs = RENDERED_IMAGE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The variant `key`: kept, or drawn by `draw` (in one of the image slots) from what `load` reads. */
  async get(
    key: string,
    load: () => Promise<{ data: Buffer; shareable: boolean }>,
    draw: (source: Buffer) => Promise<Buffer>,
  ): Promise<RenderedImage> {
    const hit = this.kept.get(key);
    if (hit) {
      this.kept.delete(key);
      // Most recently used last (a Map keeps insertion order).
      if (hit.until > this.now()) {
        this.kept.set(key, hit);
        return { image: hit.image, shareable: true };
      }
    }
    const { data, shareable } = await load();
    const image = await imageJobs.run(() => draw(data));
    if (shareable) {
      this.kept.set(key, { image, until: this.now() + this.ttlMs });
      while (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value as string);
    }
    return { image, shareable };
  }

  get size(): number {
    return this.kept.size;
  }
}
