/**
 * The four membership tiers as the marketing pages describe them (product spec, section 1). Display text only:
 * what a member pays is decided by the payments service, never by these strings.
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
    price: 'Free',
    summary: 'Your digital business card, free: the package every profile starts on.',
    adds: ['Logo', 'Profile image', 'Contact details', 'QR code', 'Save to contacts'],
  },
  {
    id: 'digisilver',
    name: 'DigiSilver',
    price: 'R49.00 per month',
    summary: 'For people who network on social media.',
    adds: ['Social media links', 'Share contact via WhatsApp or email'],
  },
  {
    id: 'digigold',
    name: 'DigiGold',
    price: 'R69.00 per month',
    summary: 'For businesses that want to turn every share into a lead.',
    adds: ['Lead generation form', 'Gallery', 'Video', 'Product list', 'CRM integration'],
  },
  {
    id: 'digiplatinum',
    name: 'DigiPlatinum',
    price: 'Price on request',
    summary: 'For corporate teams.',
    adds: ['Group use', 'Analytics'],
  },
];
