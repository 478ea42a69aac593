import { planPriceText } from '@digicard/domain';

/**
 * The four membership tiers as the marketing pages describe them (product spec, section 1). The prices are the plans'
 * (libs/domain, which the payments service charges and serves), never written here.
 */
export type TierId = 'digishare' | 'digisilver' | 'digigold' | 'digiplatinum';

export interface MembershipTier {
  readonly id: TierId;
  readonly name: string;
  /** The price as shown, e.g. "R49.00 per month". */
  readonly price: string;
  /** One line on who the tier is for. */
  readonly summary: string;
  /** What the tier adds to the one before it. */
  readonly adds: readonly string[];
}

export const MEMBERSHIP_TIERS: readonly MembershipTier[] = [
  {
    id: 'digishare',
    name: 'DigiShare',
    price: planPriceText('DigiShare'),
    summary: 'Your digital business card, free: the package every profile starts on.',
    adds: ['Logo', 'Profile image', 'Contact details', 'QR code', 'Save to contacts'],
  },
  {
    id: 'digisilver',
    name: 'DigiSilver',
    price: planPriceText('DigiSilver'),
    summary: 'For people who network on social media.',
    adds: ['Social media links', 'Share contact via WhatsApp or email'],
  },
  {
    id: 'digigold',
    name: 'DigiGold',
    price: planPriceText('DigiGold'),
    summary: 'For businesses that want to turn every share into a lead.',
    adds: ['Lead generation form', 'Gallery', 'Video', 'Product list', 'CRM integration'],
  },
  {
    id: 'digiplatinum',
    name: 'DigiPlatinum',
    price: planPriceText('DigiPlatinum'),
    summary: 'For corporate teams.',
    adds: ['Group use', 'Analytics'],
  },
];
