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
  type Shape,
} from './proof-layout.js';

const pt = (mm: number): number => mm * MM_TO_PT;

/** pdfkit 0.20's `openImage` (missing from @types/pdfkit): an image opened once is embedded once, however often drawn. */
type PdfImage = object;
type WithOpenImage = { openImage(src: Buffer): PdfImage; image(src: PdfImage, x: number, y: number, options: { width: number; height: number }): unknown };

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

function drawPdf(doc: PDFKit.PDFDocument, shapes: Shape[], images: Map<Buffer, PdfImage>): void {
  for (const s of shapes) {
    switch (s.kind) {
      case 'rect':
        doc.rect(pt(s.x), pt(s.y), pt(s.w), pt(s.h)).fill(s.fill);
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
        let image = images.get(s.png);
        if (!image) {
          image = (doc as unknown as WithOpenImage).openImage(s.png);
          images.set(s.png, image);
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
export function svgOf(shapes: Shape[]): string {
  const parts = shapes.map((s) => {
    switch (s.kind) {
      case 'rect':
        return `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" fill="${s.fill}"/>`;
      case 'line':
        return `<line x1="${s.x1}" y1="${s.y1}" x2="${s.x2}" y2="${s.y2}" stroke="${s.stroke}" stroke-width="${s.width}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`;
      case 'outline':
        return `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" fill="none" stroke="${s.stroke}" stroke-width="${s.width}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`;
      case 'text': {
        // pdfkit places text by its top; SVG by its baseline (about 0.8 of the size below the top).
        const sizeMm = s.size / MM_TO_PT;
        return `<text x="${s.x}" y="${s.y + sizeMm * 0.8}" font-family="Helvetica, Arial, sans-serif" font-size="${sizeMm}" font-weight="${s.bold ? 700 : 400}" fill="${s.fill}">${escapeXml(s.text)}</text>`;
      }
      case 'image':
        return `<image x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" href="data:image/png;base64,${s.png.toString('base64')}"/>`;
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
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${PAGE_WIDTH_MM} ${PAGE_HEIGHT_MM}" width="${PAGE_WIDTH_MM}mm" height="${PAGE_HEIGHT_MM}mm">${parts.join('')}</svg>`;
}

/** Preview pixels per millimetre: 8 px/mm makes each side 733 x 480 px, sharp enough to read on a phone. */
const PREVIEW_PX_PER_MM = 8;

/**
 * The print-ready PDF (for each card its front, then its back; each page the trim size plus 3 mm bleed, with the
 * TrimBox and BleedBox set) and a PNG preview of the first card (front above back), for the browser.
 */
export async function renderProof(cards: CardFace[]): Promise<{ pdf: Buffer; png: Buffer }> {
  if (cards.length === 0) throw new Error('a proof needs at least one card');
  const doc = new PDFDocument({ size: [pt(PAGE_WIDTH_MM), pt(PAGE_HEIGHT_MM)], margin: 0, autoFirstPage: false, info: { Title: 'DigiCard print proof' } });
  const images = new Map<Buffer, PdfImage>();
  const trim = [pt(BLEED_MM), pt(BLEED_MM), pt(BLEED_MM + TRIM_WIDTH_MM), pt(BLEED_MM + TRIM_HEIGHT_MM)];
  const bleed = [0, 0, pt(PAGE_WIDTH_MM), pt(PAGE_HEIGHT_MM)];
  for (const card of cards) {
    for (const shapes of [frontShapes(card), backShapes(card)]) {
      doc.addPage();
      // PDF boxes count from the bottom left; the trim is centred, so the numbers read the same either way.
      const dictionary = (doc.page as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary;
      dictionary.data['TrimBox'] = trim;
      dictionary.data['BleedBox'] = bleed;
      drawPdf(doc, shapes, images);
    }
  }
  const pdfPromise = pdfBytes(doc);
  const first = cards[0]!;
  const width = Math.round(PAGE_WIDTH_MM * PREVIEW_PX_PER_MM);
  const height = Math.round(PAGE_HEIGHT_MM * PREVIEW_PX_PER_MM);
  const gap = 24;
  const [front, back] = await Promise.all(
    [frontShapes(first), backShapes(first)].map((shapes) => sharp(Buffer.from(svgOf(shapes))).resize(width, height).png().toBuffer()),
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
