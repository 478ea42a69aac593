const HEX = /^#[0-9a-fA-F]{6}$/;

/** The document's colour when it is a `#rrggbb` value (the schema's rule), else the fallback. */
export const colour = (value: unknown, fallback: string): string => (typeof value === 'string' && HEX.test(value) ? value : fallback);

const channel = (hex: string, at: number): number => {
  const c = parseInt(hex.slice(at, at + 2), 16) / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG relative luminance of a `#rrggbb` colour. */
export const luminance = (hex: string): number => 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);

/** Black or white, whichever reads better on the background (for text the document has no colour for). */
export const readableOn = (background: string): string => {
  const l = luminance(background);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#111111' : '#ffffff';
};

/** A finite number clamped to [min, max], else the fallback. */
export const bounded = (value: unknown, min: number, max: number, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
