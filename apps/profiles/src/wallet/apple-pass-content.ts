import { createHash } from 'node:crypto';
import type { PublicProfile } from '@digicard/contracts';

/**
 * What an owner's Apple Wallet pass shows, from their profile as the public page shows it (a team rep's business
 * name, logo and colours are the leader's): their name, title and business name, the logo and photo of the
 * profile, the Design section's colours, and a QR code of the public address tagged `?src=wallet` (analytics counts
 * those views as their own source).
 */
export interface ApplePassContent {
  name: string;
  title: string;
  businessName: string;
  /** Media ids (profiles.media) of the business logo and the profile photo, or null. */
  logoMediaId: string | null;
  photoMediaId: string | null;
  /** `#rrggbb` from the Design section: the page's background, its text, and the buttons' colour for labels. */
  backgroundColor: string;
  foregroundColor: string;
  labelColor: string;
  /** The public address (shown on the back) and the QR code's message (the address with `?src=wallet`). */
  profileUrl: string;
  qrMessage: string;
}

/** `/media/<id>.webp` to `<id>`. */
const mediaIdOf = (url: string): string | null => /^\/media\/([A-Za-z0-9_-]{10,64})\.(webp|png|jpeg)$/.exec(url)?.[1] ?? null;

export function applePassContentOf(profile: PublicProfile, publicUrl: string): ApplePassContent {
  const d = profile.document;
  const profileUrl = `${publicUrl}/${profile.username}`;
  return {
    name: `${profile.firstName} ${profile.lastName}`.trim() || profile.username,
    title: d.title,
    businessName: d.businessName,
    logoMediaId: mediaIdOf(d.businessLogo),
    photoMediaId: mediaIdOf(d.profileImage),
    backgroundColor: d.profileBackgroundColor,
    foregroundColor: d.mainFontColor,
    labelColor: d.buttonBackgroundColor,
    profileUrl,
    qrMessage: `${profileUrl}?src=wallet`,
  };
}

/** A digest of what the pass shows: a profile change that leaves it alone changes nothing on the devices. */
export const contentHashOf = (content: ApplePassContent | null): string =>
  createHash('sha256')
    .update(JSON.stringify(content ?? { voided: true }))
    .digest('base64url');

/** `#670404` to Apple's `rgb(103, 4, 4)`. */
export const appleColour = (hex: string): string => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

export interface PassIdentity {
  passTypeIdentifier: string;
  teamIdentifier: string;
  serialNumber: string;
  authenticationToken: string;
  webServiceURL: string;
  organizationName: string;
}

/**
 * The pass.json of a generic pass (Apple's "PassKit Package Format"). `content` null is a voided pass: it keeps its
 * identity (so the device replaces its copy) and shows nothing of the former owner.
 */
export function applePassJson(identity: PassIdentity, content: ApplePassContent | null): Record<string, unknown> {
  const base = {
    formatVersion: 1,
    ...identity,
    sharingProhibited: false,
  };
  if (!content) {
    return {
      ...base,
      description: `${identity.organizationName} business card (no longer available)`,
      voided: true,
      backgroundColor: appleColour('#eeeeee'),
      foregroundColor: appleColour('#000000'),
      labelColor: appleColour('#484747'),
      logoText: identity.organizationName,
      generic: {
        primaryFields: [{ key: 'status', label: 'Card', value: 'No longer available' }],
      },
    };
  }
  const secondaryFields = [
    ...(content.title ? [{ key: 'title', label: 'Title', value: content.title }] : []),
    ...(content.businessName ? [{ key: 'business', label: 'Company', value: content.businessName }] : []),
  ];
  return {
    ...base,
    description: `${content.name}’s business card`,
    backgroundColor: appleColour(content.backgroundColor),
    foregroundColor: appleColour(content.foregroundColor),
    labelColor: appleColour(content.labelColor),
    // Without a logo image, the business name (or the brand) heads the pass.
    ...(content.logoMediaId ? {} : { logoText: content.businessName || identity.organizationName }),
    generic: {
      primaryFields: [{ key: 'name', label: 'Name', value: content.name }],
      secondaryFields,
      backFields: [
        {
          key: 'profile',
          label: 'Profile',
          value: content.profileUrl,
          attributedValue: `<a href="${content.qrMessage}">${content.profileUrl}</a>`,
        },
        { key: 'issuer', label: 'Card by', value: identity.organizationName },
      ],
    },
    barcodes: [
      {
        format: 'PKBarcodeFormatQR',
        message: content.qrMessage,
        messageEncoding: 'iso-8859-1',
        altText: content.profileUrl.replace(/^https?:\/\//, ''),
      },
    ],
  };
}
