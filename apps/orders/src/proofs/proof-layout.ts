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

/** A flat colour, or a linear gradient between two points (mm) for the look of metal and wood. */
export type Paint =
  string | { kind: 'linear'; x1: number; y1: number; x2: number; y2: number; stops: ReadonlyArray<readonly [number, string]> };

export type Shape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; fill: Paint; radius?: number }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; width: number; dash?: number }
  | { kind: 'outline'; x: number; y: number; w: number; h: number; stroke: string; width: number; dash?: number }
  | { kind: 'text'; x: number; y: number; text: string; size: number; bold: boolean; fill: string; width: number; align: 'left' | 'center' }
  /** `engrave`: drawn as the laser engraves it, one tone in this colour (the renderer turns the logo into that). */
  | { kind: 'image'; x: number; y: number; w: number; h: number; png: Buffer; pixelWidth: number; pixelHeight: number; engrave?: string }
  /** QR modules, `cell` mm each, dark squares only (over their quiet zone: a light square, or the card itself). */
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
  background: Paint;
  ink: string;
  /** Lighter text (title, serial) on this finish; the ink itself where the card is engraved (one tone only). */
  muted: string;
  /** Laser engraved (bamboo, stainless steel): logo, text and QR code in the engraving's one tone, never in colour. */
  engraved: boolean;
  /** A light plate under the logo: a full-colour logo printed on black PVC gets a white underlay, or it vanishes. */
  logoPlate: string | null;
  /** The QR code's light square (null: the card itself is the quiet zone) and its modules. */
  qrPanel: string | null;
  qrModules: string;
}

/** A gradient across the whole page, top left to bottom right: brushed metal, or the grain of bamboo. */
const sheen = (...colours: string[]): Paint => ({
  kind: 'linear',
  x1: 0,
  y1: 0,
  x2: PAGE_WIDTH_MM,
  y2: PAGE_HEIGHT_MM,
  stops: colours.map((colour, i) => [i / (colours.length - 1), colour] as const),
});

/**
 * What each material and colour looks like on the proof (the printer matches the physical card). PVC is printed in
 * full colour; bamboo and steel are laser engraved: on bamboo, silver and gold the engraving is dark; on black steel it
 * takes the coating off, so it shows bright steel, and its QR code is engraved as a bright square with the modules left
 * black (a QR code the other way round is one many phones do not read).
 */
export function finishOf(material: Material, colour: string): Finish {
  const c = colour.toLowerCase();
  const engravedOn = (background: Paint, ink: string): Finish => ({
    background,
    ink,
    muted: ink,
    engraved: true,
    logoPlate: null,
    qrPanel: null,
    qrModules: ink,
  });
  if (material === 'Bamboo') return engravedOn(sheen('#d2b07a', '#c39c5e', '#d6b684', '#c09657'), '#3b2410');
  if (material === 'Stainless steel') {
    if (c === 'gold') return engravedOn(sheen('#e9cf72', '#c9a646', '#ebd37c', '#bf9a3a'), '#2a210a');
    if (c === 'black') {
      return {
        background: sheen('#2b2b2b', '#161616', '#2a2a2a', '#141414'),
        ink: '#d9dcdf',
        muted: '#d9dcdf',
        engraved: true,
        logoPlate: null,
        qrPanel: '#d9dcdf',
        qrModules: '#161616',
      };
    }
    return engravedOn(sheen('#e3e6e9', '#b9bec3', '#e0e3e6', '#aeb3b8'), '#1b1e21');
  }
  if (c === 'black')
    return {
      background: '#111111',
      ink: '#ffffff',
      muted: '#c8c8c8',
      engraved: false,
      logoPlate: '#ffffff',
      qrPanel: '#ffffff',
      qrModules: '#000000',
    };
  return {
    background: '#ffffff',
    ink: '#111111',
    muted: '#555555',
    engraved: false,
    logoPlate: null,
    qrPanel: '#ffffff',
    qrModules: '#000000',
  };
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
    {
      kind: 'outline',
      x: b + SAFE_MM,
      y: b + SAFE_MM,
      w: TRIM_WIDTH_MM - 2 * SAFE_MM,
      h: TRIM_HEIGHT_MM - 2 * SAFE_MM,
      stroke: GUIDE,
      width: 0.15,
      dash: 1,
    },
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
    const w = face.logo.width * scale;
    const h = face.logo.height * scale;
    // The plate sits 1 mm around the logo, still inside the safe area (the logo moves in by that much).
    const inset = finish.logoPlate ? 1 : 0;
    if (finish.logoPlate)
      shapes.push({ kind: 'rect', x: safeLeft, y: safeTop, w: w + 2 * inset, h: h + 2 * inset, fill: finish.logoPlate, radius: 1 });
    shapes.push({
      kind: 'image',
      x: safeLeft + inset,
      y: safeTop + inset,
      w,
      h,
      png: face.logo.png,
      pixelWidth: face.logo.width,
      pixelHeight: face.logo.height,
      ...(finish.engraved ? { engrave: finish.ink } : {}),
    });
  }
  const textTop = safeTop + safeHeight - 19;
  shapes.push({
    kind: 'text',
    x: safeLeft,
    y: textTop,
    text: face.name,
    size: 11,
    bold: true,
    fill: finish.ink,
    width: safeWidth,
    align: 'left',
  });
  if (face.title)
    shapes.push({
      kind: 'text',
      x: safeLeft,
      y: textTop + 6,
      text: face.title,
      size: 7.5,
      bold: false,
      fill: finish.muted,
      width: safeWidth,
      align: 'left',
    });
  if (face.businessName) {
    shapes.push({
      kind: 'text',
      x: safeLeft,
      y: textTop + 10.5,
      text: face.businessName,
      size: 7.5,
      bold: true,
      fill: finish.ink,
      width: safeWidth,
      align: 'left',
    });
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
    ...(finish.qrPanel ? [{ kind: 'rect', x: qx, y: qy, w: side, h: side, fill: finish.qrPanel } as const] : []),
    { kind: 'qr', x: qx + quiet * cell, y: qy + quiet * cell, cell, size, dark: qr.modules.data, fill: finish.qrModules },
    {
      kind: 'text',
      x: safeLeft,
      y: safeTop + 14,
      text: 'Tap or scan',
      size: 10,
      bold: true,
      fill: finish.ink,
      width: textWidth,
      align: 'left',
    },
    {
      kind: 'text',
      x: safeLeft,
      y: safeTop + 19.5,
      text: 'to save my details',
      size: 7.5,
      bold: false,
      fill: finish.muted,
      width: textWidth,
      align: 'left',
    },
    {
      kind: 'text',
      x: safeLeft,
      y: safeTop + safeHeight - 4,
      text: `No. ${face.serial}`,
      size: 6,
      bold: false,
      fill: finish.muted,
      width: textWidth,
      align: 'left',
    },
    ...marks(finish.ink),
  ];
}
