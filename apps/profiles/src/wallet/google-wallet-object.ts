import { sign, type KeyObject } from 'node:crypto';
import { walletLogoPath } from '@digicard/contracts';
import type { ApplePassContent } from './apple-pass-content.js';
import type { GoogleWallet } from './google-config.js';

/** Google Wallet's "Save" address: the signed JWT is its last path segment. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/** The scope of the Wallet REST API (Google Wallet API, "Authorize requests"). */
export const GOOGLE_WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';

/** A compact JWS (RS256) of the claims, signed with the service account's key. */
export function signJwt(claims: Record<string, unknown>, key: KeyObject): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  const input = `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input, 'ascii'), key).toString('base64url')}`;
}

const text = (value: string) => ({ defaultValue: { language: 'en-ZA', value } });

/** The generic pass class every owner's card belongs to: it holds nothing of any owner. */
export function genericClassOf(wallet: GoogleWallet): Record<string, unknown> {
  return { id: wallet.classId, multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS' };
}

/**
 * An owner's card as a Google Wallet generic pass object (Google Wallet API, "GenericObject"): what the Apple pass
 * shows (name, title, business name, logo, the Design section's background colour, a QR code of the public address
 * with `?src=wallet`). `content` null is the pass of an account that is gone: EXPIRED, and nothing of its former
 * owner left on it.
 */
export function genericObjectOf(
  wallet: GoogleWallet,
  objectSuffix: string,
  content: ApplePassContent | null,
  brand: string,
): Record<string, unknown> {
  const base = { id: `${wallet.issuerId}.${objectSuffix}`, classId: wallet.classId };
  if (!content) {
    return {
      ...base,
      state: 'EXPIRED',
      cardTitle: text(brand),
      header: text('No longer available'),
      hexBackgroundColor: '#eeeeee',
    };
  }
  const logoId = content.logoMediaId ?? content.photoMediaId;
  return {
    ...base,
    state: 'ACTIVE',
    cardTitle: text(content.businessName || brand),
    header: text(content.name),
    ...(content.title ? { subheader: text(content.title) } : {}),
    // The image in a square with Google's margin, for Google's circular mask (a wide logo as it is would lose its sides).
    ...(logoId ? { logo: { sourceUri: { uri: `${wallet.publicUrl}${walletLogoPath(logoId)}` }, contentDescription: text('Logo') } } : {}),
    hexBackgroundColor: content.backgroundColor,
    barcode: { type: 'QR_CODE', value: content.qrMessage, alternateText: content.profileUrl.replace(/^https?:\/\//, '') },
    linksModuleData: { uris: [{ id: 'profile', uri: content.qrMessage, description: 'Profile' }] },
  };
}

/**
 * The "Save to Google Wallet" link: a JWT (RS256, the service account's key) whose payload carries the class and
 * the owner's object, as Google creates them on the first save. `origins` is the site the button is on.
 */
export function saveUrlOf(wallet: GoogleWallet, object: Record<string, unknown>, now = new Date()): string {
  const jwt = signJwt(
    {
      iss: wallet.serviceAccountEmail,
      aud: 'google',
      typ: 'savetowallet',
      iat: Math.floor(now.getTime() / 1000),
      origins: [wallet.publicUrl],
      payload: { genericClasses: [genericClassOf(wallet)], genericObjects: [object] },
    },
    wallet.key,
  );
  return `${GOOGLE_SAVE_URL}${jwt}`;
}
