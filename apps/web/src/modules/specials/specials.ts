/**
 * The three specials on the home page. Prices are not shown here: the catalogue (orders service) will own them.
 * The spec says the PVC and stainless steel specials bundle 12 months of DigiGold; it does not say so for bamboo.
 */
export type SpecialId = 'pvc-special' | 'bamboo-special' | 'ssteel-special';

export interface Special {
  readonly id: SpecialId;
  readonly name: string;
  readonly material: 'pvc' | 'bamboo' | 'steel';
  readonly description: string;
}

export const SPECIALS: readonly Special[] = [
  {
    id: 'pvc-special',
    name: 'PVC NFC Card Special',
    material: 'pvc',
    description: 'A PVC NFC business card in black or white, plus 12 months of DigiGold.',
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
    description: 'A stainless steel NFC business card in silver, gold or black, plus 12 months of DigiGold.',
  },
];

// The special detail pages are not in the shared WebRoutes table yet; this is the one place their path is built.
const SPECIALS_BASE_PATH = '/specials';

export function specialPath(id: SpecialId): string {
  return `${SPECIALS_BASE_PATH}/${id}`;
}
