import { ProfileDefaults, ProfileDocumentSchema, type ProfileDocument } from '@digicard/contracts';

/** A stored document read with today's schema: fields added since it was written take their defaults. */
export const storedDocument = (stored: unknown): ProfileDocument =>
  ProfileDocumentSchema.parse({ ...ProfileDefaults, ...(typeof stored === 'object' && stored !== null ? stored : {}) });

const MEDIA_ID = /^\/media\/([A-Za-z0-9_-]+)\./;

/** The ids of every uploaded image a document shows: each must be one of its owner's uploads. */
export function mediaIdsOf(document: ProfileDocument): string[] {
  const urls = [
    document.profileImage,
    document.profileBackground,
    document.businessLogo,
    ...document.gallery.map((g) => g.imageUrl),
    ...document.products.map((p) => p.imageUrl),
  ];
  // An address that is not of an upload stays as it is, and so is found among nobody's uploads.
  return urls.filter(Boolean).map((url) => MEDIA_ID.exec(url)?.[1] ?? url);
}
