import type { PaidTier, Plan } from '@digicard/contracts';

/** The tiers and their monthly prices, decided here on the server (never by the browser). */
export const Plans: readonly Plan[] = [
  { tier: 'DigiShare', monthlyPriceCents: 0 },
  { tier: 'DigiSilver', monthlyPriceCents: 4900 },
  { tier: 'DigiGold', monthlyPriceCents: 6900 },
  { tier: 'DigiPlatinum', monthlyPriceCents: null },
];

export function priceOf(tier: PaidTier): number {
  const price = Plans.find((p) => p.tier === tier)?.monthlyPriceCents;
  if (price === null || price === undefined) throw new Error(`no monthly price for ${tier}`);
  return price;
}
