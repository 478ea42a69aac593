import { formatRand, type Membership, type PaidTier, type Plan } from '@digicard/contracts';

/**
 * The tiers and their monthly prices: the one home of R49/R69. The payments service charges them and serves them
 * (`payments.plan.list`, GET /api/plans); the web pages show what it serves through `planPriceText` (the gateway
 * renders the marketing pages with them). Never a price written or imported anywhere else.
 */
export const Plans: readonly Plan[] = [
  { tier: 'DigiShare', monthlyPriceCents: 0 },
  { tier: 'DigiSilver', monthlyPriceCents: 4900 },
  { tier: 'DigiGold', monthlyPriceCents: 6900 },
  { tier: 'DigiPlatinum', monthlyPriceCents: null },
];

/** A paid tier's monthly price in cents (throws for a tier without one: a programming error). */
export function priceOf(tier: PaidTier): number {
  const price = Plans.find((p) => p.tier === tier)?.monthlyPriceCents;
  if (price === null || price === undefined) throw new Error(`no monthly price for ${tier}`);
  return price;
}

/** A tier's price in `plans` (as payments serves them) as the pages show it: "Free", "R49.00 per month" or "Price on request". */
export function planPriceText(tier: Membership, plans: readonly Plan[]): string {
  const cents = plans.find((p) => p.tier === tier)?.monthlyPriceCents;
  if (cents === null || cents === undefined) return 'Price on request';
  return cents === 0 ? 'Free' : `${formatRand(cents)} per month`;
}

/** The monthly price as a sentence needs it ("R69.00"), or null when the tier has none. */
export function monthlyPrice(tier: Membership, plans: readonly Plan[]): string | null {
  const cents = plans.find((p) => p.tier === tier)?.monthlyPriceCents;
  return cents ? formatRand(cents) : null;
}
