import { Memberships, UpgradeMessages, type Membership, type ProfileDocument } from '@digicard/contracts';

/**
 * What each tier unlocks (decisions.md "Roles"), written once: each feature names the lowest tier that has it, and every
 * tier above has it too. The profiles service enforces it, the editor mirrors it, notifications and the gateway ask it.
 */
export const Features = {
  socialLinks: 'DigiSilver',
  shareContact: 'DigiSilver',
  leadForm: 'DigiGold',
  gallery: 'DigiGold',
  video: 'DigiGold',
  products: 'DigiGold',
  crm: 'DigiGold',
  analytics: 'DigiPlatinum',
  teams: 'DigiPlatinum',
} as const satisfies Record<string, Membership>;
export type Feature = keyof typeof Features;

/**
 * Whether `membership` has `feature`: `can(membership, 'analytics')`. The one way the apps check a tier (a lint rule,
 * digicard/no-tier-name-comparison, refuses `membership === 'DigiPlatinum'` outside libs/domain).
 */
export const can = (membership: Membership, feature: Feature): boolean =>
  Memberships.indexOf(membership) >= Memberships.indexOf(Features[feature]);

/** The free tier every account starts on, and falls back to when a paid tier ends. */
export const FREE_TIER = Memberships[0];

/** Whether `membership` is the free tier (nothing paid, nothing to end). */
export const isFreeTier = (membership: Membership): boolean => membership === FREE_TIER;

/** The parts of a profile a tier may lock (decisions.md "Roles"): social links from DigiSilver, the rest from DigiGold. */
export type GatedContent = 'socialLinks' | 'gallery' | 'video' | 'products';

const hasGallery = (document: ProfileDocument): boolean => document.gallery.some((item) => item.imageUrl);

/**
 * Content of `document` that `membership` does not include (after a downgrade, say), in the editor's order. The
 * profiles service refuses to save a document with any (403 with the upgrade message); the editor offers to leave
 * it out; the public page never shows it.
 */
export function lockedContent(document: ProfileDocument, membership: Membership): GatedContent[] {
  const locked: GatedContent[] = [];
  if (document.socialLinks.length > 0 && !can(membership, 'socialLinks')) locked.push('socialLinks');
  if (hasGallery(document) && !can(membership, 'gallery')) locked.push('gallery');
  if (document.videoLink && !can(membership, 'video')) locked.push('video');
  if (document.products.length > 0 && !can(membership, 'products')) locked.push('products');
  return locked;
}

/** The document without the given content: hidden, never deleted from what is stored. */
export function withoutContent(document: ProfileDocument, locked: readonly GatedContent[]): ProfileDocument {
  return {
    ...document,
    socialLinks: locked.includes('socialLinks') ? [] : document.socialLinks,
    gallery: locked.includes('gallery') ? [] : document.gallery,
    videoLink: locked.includes('video') ? '' : document.videoLink,
    products: locked.includes('products') ? [] : document.products,
  };
}

/** What a visitor of a profile on `membership` may see of `document`. */
export const visibleContent = (document: ProfileDocument, membership: Membership): ProfileDocument =>
  withoutContent(document, lockedContent(document, membership));

/** Which gated parts the public page offers (the lead form has no content of its own, only the tier). */
export const publicFeatures = (membership: Membership) => ({
  socialLinks: can(membership, 'socialLinks'),
  leadForm: can(membership, 'leadForm'),
  gallery: can(membership, 'gallery'),
  video: can(membership, 'video'),
  products: can(membership, 'products'),
  shareContact: can(membership, 'shareContact'),
});

/** The message that tells an owner which tier unlocks `content`. */
export const upgradeMessage = (content: GatedContent | 'leadForm'): string => UpgradeMessages[content];
