import { ImageMessages, MAX_IMAGE_BYTES } from '@digicard/contracts';

export const NOT_AN_IMAGE_MESSAGE = 'Please choose an image file (JPG, PNG or WebP).';

/** The checks made before an upload (spec section 5): images only, at most 2*1024*1023 bytes. Null when fine. */
export function checkImage(file: File): string | null {
  if (!file.type.startsWith('image/')) return NOT_AN_IMAGE_MESSAGE;
  if (file.size > MAX_IMAGE_BYTES) return ImageMessages.tooLarge;
  return null;
}
