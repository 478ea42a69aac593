import type { CatalogueItem, Membership } from '@digicard/contracts';

/**
 * What a special is and what it grants, written once (decisions.md, "special's ADD TO CART" and "12 months of
 * DigiGold in a special"). A special is a catalogue item of kind `special`: a card sold at its special price through
 * the special offer (/registration), whatever else it includes. Some specials include months of DigiGold, granted
 * when their payment completes (recurring billing starts that many months later); others (the Bamboo special) are
 * the card only. The web, the gateway, orders and payments all ask these functions, never `specialPrice`,
 * `includedGoldMonths > 0` or `kind` themselves.
 */
export const isSpecial = (item: Pick<CatalogueItem, 'kind'>): boolean => item.kind === 'special';

/** The tier a special's included months are of. */
export const SPECIAL_MEMBERSHIP = 'DigiGold' as const satisfies Membership;

/** What buying specials grants besides the cards: months of DigiGold, or nothing. */
export type SpecialGrant = { readonly membership: typeof SPECIAL_MEMBERSHIP; readonly months: number } | null;

/**
 * What one special, or the lines of one order of specials, grant: the most months any of them includes (months do
 * not add up: two specials of a year are one year of DigiGold), or null when none includes any.
 */
export function specialGrant(lines: ReadonlyArray<{ readonly includedGoldMonths: number }>): SpecialGrant {
  const months = Math.max(0, ...lines.map((line) => line.includedGoldMonths));
  return months > 0 ? { membership: SPECIAL_MEMBERSHIP, months } : null;
}

const monthsText = (months: number): string => `${months} ${months === 1 ? 'month' : 'months'}`;

/**
 * The membership an item includes, as a phrase for a line of an order ("includes 12 months of DigiGold"), or null when
 * it includes none: the receipt's lines and the special's page say the same thing.
 */
export function includedMembership(item: Pick<CatalogueItem, 'includedGoldMonths'>): string | null {
  const grant = specialGrant([item]);
  return grant ? `includes ${monthsText(grant.months)} of ${grant.membership}` : null;
}

/** What a special includes, in the words its page and the special offer show. */
export function specialIncludes(item: Pick<CatalogueItem, 'includedGoldMonths'>): string {
  const included = includedMembership(item);
  return included ? `I${included.slice(1)}.` : 'The card only: no DigiGold membership is included.';
}

/**
 * The special offer's summary of what the specials in a basket include, and what follows the included months at
 * `monthlyPrice` (the plan's, as shown: "R69.00"): the promise /registration makes before payment.
 */
export function specialOfferSummary(items: ReadonlyArray<Pick<CatalogueItem, 'includedGoldMonths'>>, monthlyPrice: string | null): string {
  const grant = specialGrant(items);
  if (!grant) return 'Your cards at their special price. No DigiGold membership is included: you stay on your current package.';
  const period = grant.months === 12 ? 'the year' : 'those months';
  const after = monthlyPrice
    ? ` After ${period}, ${grant.membership} is ${monthlyPrice} a month until you cancel.`
    : ` After ${period}, ${grant.membership} continues monthly until you cancel.`;
  return `Your cards, with ${monthsText(grant.months)} of ${grant.membership} included.${after}`;
}
