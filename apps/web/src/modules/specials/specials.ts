/**
 * The three specials on the home and pricing pages, as they show before (or without) the catalogue: names, a line
 * of description and the link. Prices, and what each special includes (libs/domain `specialIncludes`), come from the
 * catalogue (orders service) only.
 */
export type SpecialId = 'pvc-special' | 'bamboo-special' | 'ssteel-special';

export type SpecialMaterial = 'pvc' | 'bamboo' | 'steel';

export interface Special {
  readonly id: SpecialId;
  readonly name: string;
  readonly material: SpecialMaterial;
  readonly description: string;
}

export const SPECIALS: readonly Special[] = [
  {
    id: 'pvc-special',
    name: 'PVC NFC Card Special',
    material: 'pvc',
    description: 'A PVC NFC business card in black or white.',
  },
  {
    id: 'bamboo-special',
    name: 'Bamboo NFC Card Special',
    material: 'bamboo',
    description: 'A natural bamboo NFC business card that shares your profile with one tap.',
  },
  {
    id: 'ssteel-special',
    name: 'Stainless Steel NFC Card Special',
    material: 'steel',
    description: 'A stainless steel NFC business card in silver, gold or black.',
  },
];

/** The card look of a special the home page does not know (a new one in the catalogue), by its material. */
export function materialOf(material: string): SpecialMaterial {
  const lower = material.toLowerCase();
  if (lower.includes('bamboo')) return 'bamboo';
  if (lower.includes('steel')) return 'steel';
  return 'pvc';
}
