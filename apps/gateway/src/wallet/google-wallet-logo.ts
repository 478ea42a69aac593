import sharp from 'sharp';

/** Google Wallet's logo image guidelines: at least 660 x 660 px, 1:1, the artwork 15 % in from each edge. */
export const GOOGLE_WALLET_LOGO_SIZE = 660;
const ARTWORK = Math.round(GOOGLE_WALLET_LOGO_SIZE * 0.7);

/**
 * An uploaded image as a Google Wallet pass's logo: Google masks the logo into a circle, so a wide business logo
 * given as it is loses its sides. Drawn whole into the middle 70 % of a white 660 x 660 square (transparency on white,
 * as Google asks for a full-bleed background and no mask of our own), as PNG (Google's preferred type).
 */
export async function googleWalletLogoPng(image: Buffer): Promise<Buffer> {
  const white = { r: 255, g: 255, b: 255, alpha: 1 };
  const margin = (GOOGLE_WALLET_LOGO_SIZE - ARTWORK) / 2;
  return sharp(image)
    .resize(ARTWORK, ARTWORK, { fit: 'contain', background: white })
    .flatten({ background: white })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: white })
    .png()
    .toBuffer();
}
