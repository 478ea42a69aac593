import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import {
  backShapes,
  BLEED_MM,
  frontShapes,
  MM_TO_PT,
  PAGE_HEIGHT_MM,
  PAGE_WIDTH_MM,
  TRIM_HEIGHT_MM,
  TRIM_WIDTH_MM,
  type CardFace,
  type Paint,
  type Shape,
} from './proof-layout.js';

const pt = (mm: number): number => mm * MM_TO_PT;

/** pdfkit 0.20's `openImage` (missing from @types/pdfkit): an image opened once is embedded once, however often drawn. */
type PdfImage = object;
type WithOpenImage = {
  openImage(src: Buffer): PdfImage;
  image(src: PdfImage, x: number, y: number, options: { width: number; height: number }): unknown;
};

/** Collects a pdfkit document's bytes once it ends. */
export function pdfBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** A paint as pdfkit fills with it: the colour, or the gradient made once per page. */
function pdfPaint(doc: PDFKit.PDFDocument, paint: Paint): string | PDFKit.PDFGradient {
  if (typeof paint === 'string') return paint;
  const gradient = doc.linearGradient(pt(paint.x1), pt(paint.y1), pt(paint.x2), pt(paint.y2));
  for (const [offset, colour] of paint.stops) gradient.stop(offset, colour);
  return gradient;
}

/** The image to draw: the logo itself, or its engraving (one tone) for the material's ink. */
const imageKey = (s: Extract<Shape, { kind: 'image' }>): string => s.engrave ?? '';

function drawPdf(doc: PDFKit.PDFDocument, shapes: Shape[], images: Map<Buffer, Map<string, PdfImage>>, engravings: Engravings): void {
  for (const s of shapes) {
    switch (s.kind) {
      case 'rect':
        (s.radius ? doc.roundedRect(pt(s.x), pt(s.y), pt(s.w), pt(s.h), pt(s.radius)) : doc.rect(pt(s.x), pt(s.y), pt(s.w), pt(s.h))).fill(
          pdfPaint(doc, s.fill),
        );
        break;
      case 'line':
        doc.save().lineWidth(pt(s.width));
        if (s.dash) doc.dash(pt(s.dash), {});
        doc.moveTo(pt(s.x1), pt(s.y1)).lineTo(pt(s.x2), pt(s.y2)).stroke(s.stroke).restore();
        break;
      case 'outline':
        doc.save().lineWidth(pt(s.width));
        if (s.dash) doc.dash(pt(s.dash), {});
        doc.rect(pt(s.x), pt(s.y), pt(s.w), pt(s.h)).stroke(s.stroke).restore();
        break;
      case 'text':
        doc
          .font(s.bold ? 'Helvetica-Bold' : 'Helvetica')
          .fontSize(s.size)
          .fillColor(s.fill)
          .text(s.text, pt(s.x), pt(s.y), { width: pt(s.width), align: s.align, lineBreak: false, ellipsis: true, height: s.size * 1.3 });
        break;
      case 'image': {
        const opened = images.get(s.png) ?? new Map<string, PdfImage>();
        images.set(s.png, opened);
        let image = opened.get(imageKey(s));
        if (!image) {
          image = (doc as unknown as WithOpenImage).openImage(s.engrave ? engravings.get(s.png)!.get(s.engrave)! : s.png);
          opened.set(imageKey(s), image);
        }
        (doc as unknown as WithOpenImage).image(image, pt(s.x), pt(s.y), { width: pt(s.w), height: pt(s.h) });
        break;
      }
      case 'qr': {
        for (let row = 0; row < s.size; row++) {
          for (let col = 0; col < s.size; col++) {
            if (s.dark[row * s.size + col]) doc.rect(pt(s.x + col * s.cell), pt(s.y + row * s.cell), pt(s.cell), pt(s.cell));
          }
        }
        doc.fill(s.fill);
        break;
      }
    }
  }
}

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The same shapes as SVG (one unit = 1 mm), for the PNG preview. */
export function svgOf(shapes: Shape[], engravings: Engravings = new Map()): string {
  const defs: string[] = [];
  const paint = (p: Paint): string => {
    if (typeof p === 'string') return p;
    const id = `g${defs.length}`;
    const stops = p.stops.map(([offset, colour]) => `<stop offset="${offset}" stop-color="${colour}"/>`).join('');
    defs.push(
      `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${p.x1}" y1="${p.y1}" x2="${p.x2}" y2="${p.y2}">${stops}</linearGradient>`,
    );
    return `url(#${id})`;
  };
  const parts = shapes.map((s) => {
    switch (s.kind) {
      case 'rect':
        return `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}"${s.radius ? ` rx="${s.radius}"` : ''} fill="${paint(s.fill)}"/>`;
      case 'line':
        return `<line x1="${s.x1}" y1="${s.y1}" x2="${s.x2}" y2="${s.y2}" stroke="${s.stroke}" stroke-width="${s.width}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`;
      case 'outline':
        return `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" fill="none" stroke="${s.stroke}" stroke-width="${s.width}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`;
      case 'text': {
        // pdfkit places text by its top; SVG by its baseline (about 0.8 of the size below the top).
        const sizeMm = s.size / MM_TO_PT;
        return `<text x="${s.x}" y="${s.y + sizeMm * 0.8}" font-family="Helvetica, Arial, sans-serif" font-size="${sizeMm}" font-weight="${s.bold ? 700 : 400}" fill="${s.fill}">${escapeXml(s.text)}</text>`;
      }
      case 'image': {
        const png = s.engrave ? engravings.get(s.png)!.get(s.engrave)! : s.png;
        return `<image x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" href="data:image/png;base64,${png.toString('base64')}"/>`;
      }
      case 'qr': {
        let d = '';
        for (let row = 0; row < s.size; row++) {
          for (let col = 0; col < s.size; col++) {
            if (s.dark[row * s.size + col]) d += `M${s.x + col * s.cell} ${s.y + row * s.cell}h${s.cell}v${s.cell}h-${s.cell}z`;
          }
        }
        return `<path d="${d}" fill="${s.fill}" shape-rendering="crispEdges"/>`;
      }
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${PAGE_WIDTH_MM} ${PAGE_HEIGHT_MM}" width="${PAGE_WIDTH_MM}mm" height="${PAGE_HEIGHT_MM}mm">${defs.length ? `<defs>${defs.join('')}</defs>` : ''}${parts.join('')}</svg>`;
}

/** Each logo's engraving per ink colour, made once per proof. */
type Engravings = Map<Buffer, Map<string, Buffer>>;

const rgbOf = (hex: string): [number, number, number] =>
  [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/**
 * A logo as a laser engraves it: one tone, in `ink`, where the logo has anything that is neither transparent nor
 * near white (an engraver cannot do colour or grey). A logo with nothing of that (white on transparent, made for dark
 * backgrounds) is engraved as its silhouette.
 */
export async function engraving(png: Buffer, ink: string): Promise<Buffer> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const [r, g, b] = rgbOf(ink);
  const pixels = info.width * info.height;
  const out = Buffer.alloc(pixels * 4);
  const mark = (i: number, silhouette: boolean): boolean => {
    const alpha = data[i * 4 + 3]!;
    if (alpha < 128) return false;
    if (silhouette) return true;
    const luminance = (0.2126 * data[i * 4]! + 0.7152 * data[i * 4 + 1]! + 0.0722 * data[i * 4 + 2]!) / 255;
    return luminance < 0.85;
  };
  let marked = 0;
  for (let i = 0; i < pixels; i++) if (mark(i, false)) marked++;
  const silhouette = marked < pixels * 0.01;
  for (let i = 0; i < pixels; i++) {
    out[i * 4] = r;
    out[i * 4 + 1] = g;
    out[i * 4 + 2] = b;
    out[i * 4 + 3] = mark(i, silhouette) ? 255 : 0;
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
}

async function engravingsOf(shapes: Shape[]): Promise<Engravings> {
  const engravings: Engravings = new Map();
  for (const s of shapes) {
    if (s.kind !== 'image' || !s.engrave) continue;
    const byInk = engravings.get(s.png) ?? new Map<string, Buffer>();
    engravings.set(s.png, byInk);
    if (!byInk.has(s.engrave)) byInk.set(s.engrave, await engraving(s.png, s.engrave));
  }
  return engravings;
}

/** Preview pixels per millimetre: 8 px/mm makes each side 733 x 480 px, sharp enough to read on a phone. */
const PREVIEW_PX_PER_MM = 8;

/** Raise when the layout changes: every proof rendered before then counts as changed. */
const LAYOUT_VERSION = 1;
const INPUTS_MARK = 'digicard-proof-inputs:';

/**
 * A hash of everything a proof is drawn from (each card's fields, logo and finish, and the layout's version), and of
 * `recorded`: what the render records besides (the username of the customer it was drawn for).
 */
export function proofInputs(cards: CardFace[], recorded: Record<string, string> = {}): string {
  const faces = cards.map((card) => ({ ...card, logo: card.logo ? createHash('sha256').update(card.logo.png).digest('hex') : null }));
  return createHash('sha256')
    .update(JSON.stringify({ layout: LAYOUT_VERSION, faces, recorded }))
    .digest('hex');
}

/** The inputs hash a proof's PDF was rendered from (kept in its Keywords), or null for one rendered before it was kept. */
export function proofInputsOf(pdf: Buffer): string | null {
  return new RegExp(`${INPUTS_MARK}([0-9a-f]{64})`).exec(pdf.toString('latin1'))?.[1] ?? null;
}

/**
 * The print-ready PDF (for each card its front, then its back; each page the trim size plus 3 mm bleed, with the
 * TrimBox and BleedBox set) and a PNG preview of the first card (front above back), for the browser. The PDF's
 * Keywords keep `inputs` (see `proofInputs`), so the next render can tell whether anything changed.
 */
export async function renderProof(cards: CardFace[], inputs = proofInputs(cards)): Promise<{ pdf: Buffer; png: Buffer }> {
  if (cards.length === 0) throw new Error('a proof needs at least one card');
  const info = { Title: 'DigiCard print proof', Keywords: `${INPUTS_MARK}${inputs}` };
  const doc = new PDFDocument({ size: [pt(PAGE_WIDTH_MM), pt(PAGE_HEIGHT_MM)], margin: 0, autoFirstPage: false, info });
  const images = new Map<Buffer, Map<string, PdfImage>>();
  const pages = cards.flatMap((card) => [frontShapes(card), backShapes(card)]);
  const engravings = await engravingsOf(pages.flat());
  const trim = [pt(BLEED_MM), pt(BLEED_MM), pt(BLEED_MM + TRIM_WIDTH_MM), pt(BLEED_MM + TRIM_HEIGHT_MM)];
  const bleed = [0, 0, pt(PAGE_WIDTH_MM), pt(PAGE_HEIGHT_MM)];
  for (const shapes of pages) {
    doc.addPage();
    // PDF boxes count from the bottom left; the trim is centred, so the numbers read the same either way.
    const dictionary = (doc.page as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary;
    dictionary.data['TrimBox'] = trim;
    dictionary.data['BleedBox'] = bleed;
    drawPdf(doc, shapes, images, engravings);
  }
  const pdfPromise = pdfBytes(doc);
  const width = Math.round(PAGE_WIDTH_MM * PREVIEW_PX_PER_MM);
  const height = Math.round(PAGE_HEIGHT_MM * PREVIEW_PX_PER_MM);
  const gap = 24;
  const [front, back] = await Promise.all(
    [pages[0]!, pages[1]!].map((shapes) =>
      sharp(Buffer.from(svgOf(shapes, engravings)))
        .resize(width, height)
        .png()
        .toBuffer(),
    ),
  );
  const png = await sharp({ create: { width, height: height * 2 + gap, channels: 3, background: '#f2f2f2' } })
    .composite([
      { input: front!, top: 0, left: 0 },
      { input: back!, top: height + gap, left: 0 },
    ])
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { pdf: await pdfPromise, png };
}
