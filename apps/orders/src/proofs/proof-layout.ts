import QRCode from 'qrcode';
import type { Material } from '@digicard/contracts';

/**
 * The print layout of a card, once, in millimetres from the top-left corner of the page (trim plus bleed); the PDF
 * (pdfkit) and the PNG preview (SVG through sharp) both draw these shapes, so the preview is the proof.
 */
export const TRIM_WIDTH_MM = 85.6;
export const TRIM_HEIGHT_MM = 54;
export const BLEED_MM = 3;
/** Nothing that matters sits closer than this to the trim (cards are cut with a tolerance). */
export const SAFE_MM = 3;
export const PAGE_WIDTH_MM = TRIM_WIDTH_MM + 2 * BLEED_MM;
export const PAGE_HEIGHT_MM = TRIM_HEIGHT_MM + 2 * BLEED_MM;
export const MM_TO_PT = 72 / 25.4;

export type Shape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; fill: string }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; width: number; dash?: number }
  | { kind: 'outline'; x: number; y: number; w: number; h: number; stroke: string; width: number; dash?: number }
  | { kind: 'text'; x: number; y: number; text: string; size: number; bold: boolean; fill: string; width: number; align: 'left' | 'center' }
  | { kind: 'image'; x: number; y: number; w: number; h: number; png: Buffer; pixelWidth: number; pixelHeight: number }
  /** QR modules, `cell` mm each, dark squares only (drawn over a white quiet zone). */
  | { kind: 'qr'; x: number; y: number; cell: number; size: number; dark: Uint8Array; fill: string };

export interface CardFace {
  name: string;
  title: string;
  businessName: string;
  /** PNG bytes of the business logo (converted from the upload), with its pixel size; null when there is none. */
  logo: { png: Buffer; width: number; height: number } | null;
  /** What the QR code opens: `/c/{serial}` on the public site. */
  url: string;
  serial: string;
  material: Material;
  colour: string;
}

interface Finish {
  background: string;
  ink: string;
  /** Lighter text (title, serial) on this finish. */
  muted: string;
}

/** What each material and colour looks like on the proof (the printer matches the physical card). */
export function finishOf(material: Material, colour: string): Finish {
  const c = colour.toLowerCase();
  if (material === 'Bamboo') return { background: '#c9a66b', ink: '#2b1d0e', muted: '#4a3620' };
  if (material === 'Stainless steel') {
    if (c === 'gold') return { background: '#d4af37', ink: '#1f1a0a', muted: '#3d3415' };
    if (c === 'black') return { background: '#1c1c1c', ink: '#e8e8e8', muted: '#b0b0b0' };
    return { background: '#c0c4c8', ink: '#15181b', muted: '#3a3f44' };
  }
  if (c === 'black') return { background: '#111111', ink: '#ffffff', muted: '#c8c8c8' };
  return { background: '#ffffff', ink: '#111111', muted: '#555555' };
}

const GUIDE = '#00a0e0';

/** Crop marks at the four trim corners (in the bleed, where they are cut away) and the trim and safe-area guides. */
function marks(ink: string): Shape[] {
  const b = BLEED_MM;
  const right = b + TRIM_WIDTH_MM;
  const bottom = b + TRIM_HEIGHT_MM;
  const len = b - 0.5;
  // In the finish's ink: registration black would vanish on a black card's bleed.
  const crop = (x1: number, y1: number, x2: number, y2: number): Shape => ({ kind: 'line', x1, y1, x2, y2, stroke: ink, width: 0.1 });
  return [
    crop(b, 0, b, len),
    crop(0, b, len, b),
    crop(right, 0, right, len),
    crop(PAGE_WIDTH_MM - len, b, PAGE_WIDTH_MM, b),
    crop(b, PAGE_HEIGHT_MM - len, b, PAGE_HEIGHT_MM),
    crop(0, bottom, len, bottom),
    crop(right, PAGE_HEIGHT_MM - len, right, PAGE_HEIGHT_MM),
    crop(PAGE_WIDTH_MM - len, bottom, PAGE_WIDTH_MM, bottom),
    { kind: 'outline', x: b + SAFE_MM, y: b + SAFE_MM, w: TRIM_WIDTH_MM - 2 * SAFE_MM, h: TRIM_HEIGHT_MM - 2 * SAFE_MM, stroke: GUIDE, width: 0.15, dash: 1 },
  ];
}

/** Text and logo keep 1 mm inside the safe-area guide. */
const safeLeft = BLEED_MM + SAFE_MM + 1;
const safeTop = BLEED_MM + SAFE_MM + 1;
const safeWidth = TRIM_WIDTH_MM - 2 * SAFE_MM - 2;
const safeHeight = TRIM_HEIGHT_MM - 2 * SAFE_MM - 2;

/** The front: logo top left, then name, title and business name, all inside the safe area. */
export function frontShapes(face: CardFace): Shape[] {
  const finish = finishOf(face.material, face.colour);
  const shapes: Shape[] = [{ kind: 'rect', x: 0, y: 0, w: PAGE_WIDTH_MM, h: PAGE_HEIGHT_MM, fill: finish.background }];
  if (face.logo) {
    const maxW = 30;
    const maxH = 14;
    const scale = Math.min(maxW / face.logo.width, maxH / face.logo.height);
    shapes.push({
      kind: 'image',
      x: safeLeft,
      y: safeTop,
      w: face.logo.width * scale,
      h: face.logo.height * scale,
      png: face.logo.png,
      pixelWidth: face.logo.width,
      pixelHeight: face.logo.height,
    });
  }
  const textTop = safeTop + safeHeight - 19;
  shapes.push({ kind: 'text', x: safeLeft, y: textTop, text: face.name, size: 11, bold: true, fill: finish.ink, width: safeWidth, align: 'left' });
  if (face.title) shapes.push({ kind: 'text', x: safeLeft, y: textTop + 6, text: face.title, size: 7.5, bold: false, fill: finish.muted, width: safeWidth, align: 'left' });
  if (face.businessName) {
    shapes.push({ kind: 'text', x: safeLeft, y: textTop + 10.5, text: face.businessName, size: 7.5, bold: true, fill: finish.ink, width: safeWidth, align: 'left' });
  }
  return [...shapes, ...marks(finish.ink)];
}

/** The back: the QR code of the card's URL on a white square, the call to tap or scan, and the serial. */
export function backShapes(face: CardFace): Shape[] {
  const finish = finishOf(face.material, face.colour);
  const qr = QRCode.create(face.url, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const quiet = 2;
  const side = 30;
  const cell = side / (size + 2 * quiet);
  const qx = safeLeft + safeWidth - side;
  const qy = safeTop + (safeHeight - side) / 2;
  const textWidth = safeWidth - side - 4;
  return [
    { kind: 'rect', x: 0, y: 0, w: PAGE_WIDTH_MM, h: PAGE_HEIGHT_MM, fill: finish.background },
    { kind: 'rect', x: qx, y: qy, w: side, h: side, fill: '#ffffff' },
    { kind: 'qr', x: qx + quiet * cell, y: qy + quiet * cell, cell, size, dark: qr.modules.data, fill: '#000000' },
    { kind: 'text', x: safeLeft, y: safeTop + 14, text: 'Tap or scan', size: 10, bold: true, fill: finish.ink, width: textWidth, align: 'left' },
    { kind: 'text', x: safeLeft, y: safeTop + 19.5, text: 'to save my details', size: 7.5, bold: false, fill: finish.muted, width: textWidth, align: 'left' },
    { kind: 'text', x: safeLeft, y: safeTop + safeHeight - 4, text: `No. ${face.serial}`, size: 6, bold: false, fill: finish.muted, width: textWidth, align: 'left' },
    ...marks(finish.ink),
  ];
}
