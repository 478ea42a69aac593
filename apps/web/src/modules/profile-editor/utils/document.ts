import {
  hasFeature,
  ProfileDefaults,
  UpgradeMessages,
  type Membership,
  type ProfileDocument,
} from '@digicard/contracts';

/** The same content, whatever the order of the keys (the server's answer and the editor's state differ in it). */
export function sameDocument(a: ProfileDocument, b: ProfileDocument): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : inner,
  );
}

export type LockedFeature = 'socialLinks' | 'gallery' | 'video' | 'products';

export const LockedFeatureNames: Record<LockedFeature, string> = {
  socialLinks: 'social links',
  gallery: 'gallery images',
  video: 'the video link',
  products: 'products',
};

export const lockedMessage = (feature: LockedFeature): string => UpgradeMessages[feature];

/**
 * Content the membership does not include (after a downgrade, say): the server refuses to save a document that has
 * any (403 with the upgrade message), so Save offers to leave it out. Mirrors the profiles service's checks.
 */
export function lockedContent(document: ProfileDocument, membership: Membership): LockedFeature[] {
  const locked: LockedFeature[] = [];
  if (document.socialLinks.length > 0 && !hasFeature(membership, 'socialLinks')) locked.push('socialLinks');
  if (document.gallery.some((item) => item.imageUrl) && !hasFeature(membership, 'gallery')) locked.push('gallery');
  if (document.videoLink && !hasFeature(membership, 'video')) locked.push('video');
  if (document.products.length > 0 && !hasFeature(membership, 'products')) locked.push('products');
  return locked;
}

export function withoutLocked(document: ProfileDocument, locked: readonly LockedFeature[]): ProfileDocument {
  return {
    ...document,
    socialLinks: locked.includes('socialLinks') ? [] : document.socialLinks,
    gallery: locked.includes('gallery') ? [] : document.gallery,
    videoLink: locked.includes('video') ? '' : document.videoLink,
    products: locked.includes('products') ? [] : document.products,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list of objects with the given string fields, or null. */
function stringRows<K extends string>(value: unknown, keys: readonly K[]): Array<Record<K, string>> | null {
  if (!Array.isArray(value)) return null;
  const rows: Array<Record<K, string>> = [];
  for (const item of value) {
    if (!isRecord(item)) return null;
    const row = {} as Record<K, string>;
    for (const key of keys) {
      const field = item[key];
      if (typeof field !== 'string') return null;
      row[key] = field;
    }
    rows.push(row);
  }
  return rows;
}

/**
 * A document read back from browser storage, checked for shape only (an unsaved draft may still fail validation,
 * e.g. a product without a name): every field of ProfileDefaults with the same kind of value. Null otherwise.
 */
export function documentFromStorage(value: unknown): ProfileDocument | null {
  if (!isRecord(value)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(ProfileDefaults)) {
    const field = value[key];
    if (Array.isArray(fallback)) continue;
    if (typeof field !== typeof fallback) return null;
    if (typeof field === 'number' && !Number.isFinite(field)) return null;
    out[key] = field;
  }
  const websiteLinks = stringRows(value['websiteLinks'], ['buttonName', 'url']);
  const socialLinks = stringRows(value['socialLinks'], ['platform', 'url']);
  const gallery = stringRows(value['gallery'], ['imageUrl']);
  const products = stringRows(value['products'], ['name', 'link', 'imageUrl']);
  if (!websiteLinks || !socialLinks || !gallery || !products) return null;
  // Platforms are checked when saving (a stored one the list does not know shows as an error on its row).
  return { ...(out as Omit<ProfileDocument, 'websiteLinks' | 'socialLinks' | 'gallery' | 'products'>), websiteLinks, socialLinks: socialLinks as ProfileDocument['socialLinks'], gallery, products };
}
