import { ProfileDefaults, type Membership, type ProfileDocument } from '@digicard/contracts';
import type { GatedContent } from '@digicard/domain';

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

export type { GatedContent as LockedFeature } from '@digicard/domain';
export { lockedContent, withoutContent as withoutLocked } from '@digicard/domain';

export const LockedFeatureNames: Record<GatedContent, string> = {
  socialLinks: 'social links',
  gallery: 'gallery images',
  video: 'the video link',
  products: 'products',
};

/** The question asked before locked content is left out: "Your DigiShare membership does not include a, b and c. ...". */
export function lockedQuestion(membership: Membership, locked: readonly GatedContent[]): string {
  const names = locked.map((feature) => LockedFeatureNames[feature]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}` : (names[0] ?? '');
  return `Your ${membership} membership does not include ${list}. Save without them? They will be removed from your profile.`;
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
  return {
    ...(out as Omit<ProfileDocument, 'websiteLinks' | 'socialLinks' | 'gallery' | 'products'>),
    websiteLinks,
    socialLinks: socialLinks as ProfileDocument['socialLinks'],
    gallery,
    products,
  };
}
