import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import type { Material } from '@digicard/contracts';
import { engraving, renderProof } from '../src/proofs/render-proof.js';

// The proof of each material and colour the shop sells, rendered and read back as the print team gets it: the page
// size with bleed, the QR code decoded from the back (pdftoppm + zbarimg), the card's surface, and the logo in colour
// where the card is printed and in the engraving's one tone where it is engraved.

const work = mkdtempSync(join(tmpdir(), 'proof-render-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FINISHES: Array<[Material, string, 'printed' | 'engraved', 'light' | 'dark']> = [
  ['PVC', 'Black', 'printed', 'dark'],
  ['PVC', 'White', 'printed', 'light'],
  ['Bamboo', 'Bamboo', 'engraved', 'light'],
  ['Stainless steel', 'Silver', 'engraved', 'light'],
  ['Stainless steel', 'Gold', 'engraved', 'light'],
  ['Stainless steel', 'Black', 'engraved', 'dark'],
];

/** A red disc and dark text on transparency: the kind of logo owners upload. */
const logo = () =>
  sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><circle cx="50" cy="50" r="45" fill="#d01010"/><rect x="110" y="30" width="170" height="40" fill="#202020"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();

const pixel = async (path: string, left: number, top: number): Promise<number[]> => {
  const { data } = await sharp(path).extract({ left, top, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  return [data[0]!, data[1]!, data[2]!];
};

describe('a proof for each material and colour', () => {
  it.each(FINISHES)(
    '%s %s: print size with bleed, the QR code opens the card, %s on a %s surface',
    async (material, colour, kind, surface) => {
      const png = await logo();
      const url = 'https://digicard.example/c/K7M3Q9ZT';
      const files = await renderProof([
        {
          name: 'Nomsa Dube',
          title: 'Head of Sales',
          businessName: 'Karoo Coffee Co.',
          logo: { png, width: 300, height: 100 },
          url,
          serial: 'K7M3Q9ZT',
          material,
          colour,
        },
      ]);
      const name = `${material}-${colour}`.replace(/\s/g, '-');
      const pdfPath = join(work, `${name}.pdf`);
      writeFileSync(pdfPath, files.pdf);
      const info = execFileSync('pdfinfo', ['-box', pdfPath], { encoding: 'utf8' });
      expect(info).toMatch(/Page size:\s+259\.65\d* x 170\.07\d* pts/);
      expect(info).toMatch(/TrimBox:\s+8\.50\s+8\.50\s+251\.15\s+161\.57/);
      expect(info).toMatch(/BleedBox:\s+0\.00\s+0\.00\s+259\.65\s+170\.08/);

      execFileSync('pdftoppm', ['-r', '400', '-png', '-f', '2', '-l', '2', '-singlefile', pdfPath, join(work, `${name}-back`)]);
      expect(execFileSync('zbarimg', ['-q', '--raw', join(work, `${name}-back.png`)], { encoding: 'utf8' }).trim()).toBe(url);

      // The front at 100 dpi (about 3.94 px/mm): the surface in the bleed, and the logo's disc 3 mm + 3 mm + 1 mm in.
      execFileSync('pdftoppm', ['-r', '100', '-png', '-f', '1', '-l', '1', '-singlefile', pdfPath, join(work, `${name}-front`)]);
      const front = join(work, `${name}-front.png`);
      const [r, g, b] = await pixel(front, 4, 4);
      if (surface === 'dark') expect(Math.max(r!, g!, b!)).toBeLessThan(70);
      else expect(Math.min(r!, g!, b!)).toBeGreaterThan(surface === 'light' && material === 'PVC' ? 240 : 60);
      // The disc's centre: the safe area is 7 mm in (1 mm more inside black PVC's plate), and the logo, drawn 30 x 10 mm,
      // has the disc's centre 5 mm across and down.
      const inset = material === 'PVC' && colour === 'Black' ? 1 : 0;
      const discMm = 7 + inset + 5;
      const [dr, dg, db] = await pixel(front, Math.round(discMm * 3.937), Math.round(discMm * 3.937));
      if (kind === 'printed') {
        expect(dr!).toBeGreaterThan(150);
        expect(Math.max(dg!, db!)).toBeLessThan(90);
      } else {
        // One tone: no red, the engraving's grey-brown-gold ink (dark), or bright steel on black.
        expect(Math.max(dr!, dg!, db!) - Math.min(dr!, dg!, db!)).toBeLessThan(50);
        if (surface === 'dark') expect(Math.min(dr!, dg!, db!)).toBeGreaterThan(180);
        else expect(Math.max(dr!, dg!, db!)).toBeLessThan(80);
      }
      expect((await sharp(files.png).metadata()).format).toBe('png');
    },
  );

  it('engraves a logo in one tone: what is neither transparent nor near white, or the silhouette of a white logo', async () => {
    const engraved = await sharp(await engraving(await logo(), '#112233'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...engraved.data.subarray((y * 300 + x) * 4, (y * 300 + x) * 4 + 4)];
    expect(at(50, 50)).toEqual([0x11, 0x22, 0x33, 255]);
    expect(at(200, 50)).toEqual([0x11, 0x22, 0x33, 255]);
    expect(at(5, 5)[3]).toBe(0);
    const white = await sharp({ create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect x="10" y="10" width="20" height="20" fill="#ffffff"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    const silhouette = await sharp(await engraving(white, '#112233'))
      .raw()
      .toBuffer();
    expect(silhouette[(20 * 40 + 20) * 4 + 3]).toBe(255);
    expect(silhouette[(2 * 40 + 2) * 4 + 3]).toBe(0);
  });
});
