import type { Membership } from '@digicard/contracts';
import { planPriceText } from '@digicard/domain';
import type { PlansState } from './hooks/use-plans';

/**
 * The four membership tiers as the marketing pages describe them (product spec, section 1). The prices are the plans
 * payments serves (`usePlans`), never written or imported here.
 */
export type TierId = 'digishare' | 'digisilver' | 'digigold' | 'digiplatinum';

export interface MembershipTier {
  readonly id: TierId;
  readonly name: Membership;
  /** One line on who the tier is for. */
  readonly summary: string;
  /** What the tier adds to the one before it. */
  readonly adds: readonly string[];
}

export const MEMBERSHIP_TIERS: readonly MembershipTier[] = [
  {
    id: 'digishare',
    name: 'DigiShare',
    summary: 'Your digital business card, free: the package every profile starts on.',
    adds: ['Logo', 'Profile image', 'Contact details', 'QR code', 'Save to contacts'],
  },
  {
    id: 'digisilver',
    name: 'DigiSilver',
    summary: 'For people who network on social media.',
    adds: ['Social media links', 'Share contact via WhatsApp or email'],
  },
  {
    id: 'digigold',
    name: 'DigiGold',
    summary: 'For businesses that want to turn every share into a lead.',
    adds: ['Lead generation form', 'Gallery', 'Video', 'Product list', 'CRM integration'],
  },
  {
    id: 'digiplatinum',
    name: 'DigiPlatinum',
    summary: 'For corporate teams.',
    adds: ['Group use', 'Analytics'],
  },
];

/** A tier's price as shown ("R49.00 per month", "Free", "Price on request"), or null while the plans are not known. */
export function tierPrice(tier: Membership, plans: PlansState): string | null {
  return plans.status === 'loaded' ? planPriceText(tier, plans.plans) : null;
}
