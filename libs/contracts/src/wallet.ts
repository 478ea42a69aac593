import { z } from 'zod';

/**
 * Wallet passes of an owner's card (issue 26). Apple Wallet: a signed `.pkpass` the owner adds from the dashboard's QR
 * Code section, kept current through Apple's pass web service (the device registers for pushes, we push when what
 * the pass shows changes, the device fetches the new pass). Google Wallet: a generic pass object saved through a
 * "Save to Google Wallet" link (a JWT signed with the service account's key), kept current through the Wallet REST API.
 * The profiles service owns the passes (decision 11).
 */

/** Whether the dashboard offers each wallet: a wallet the deployment has not configured is not offered. */
export const WalletStatusSchema = z
  .object({
    apple: z.object({
      /** The pass type certificate, its key, Apple's WWDR certificate and the APNs key are configured. */
      available: z.boolean(),
    }),
    google: z.object({
      /** The Google Wallet issuer id and the service account (its email and private key) are configured. */
      available: z.boolean(),
    }),
  })
  .meta({ id: 'WalletStatus' });
export type WalletStatus = z.infer<typeof WalletStatusSchema>;

/** Apple's pass type identifier, as the pass type certificate names it (`pass.` and reverse DNS). */
export const PassTypeIdentifierSchema = z.string().regex(/^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'Not a pass type identifier.');

/** A pass's serial number: 24 random base64url characters (18 bytes), saying nothing about its account. */
export const PassSerialSchema = z.string().regex(/^[A-Za-z0-9_-]{24}$/, 'No such pass.');

/** A pass's authentication token: 43 random base64url characters (32 bytes), one per pass. */
export const PassAuthTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** The device's library identifier (Apple's own, opaque: a long hexadecimal string today). */
export const DeviceLibraryIdentifierSchema = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'No such device.');

/** What `passesUpdatedSince` and `lastUpdated` carry: our own tag, the pass's update time in seconds. */
export const PassUpdateTagSchema = z.string().regex(/^\d{1,12}$/);

/** The body of a device's registration: the token APNs pushes to (hexadecimal). */
export const ApplePassRegistrationSchema = z
  .object({ pushToken: z.string().regex(/^[0-9A-Fa-f]{16,200}$/, 'Not a push token.') })
  .meta({ id: 'ApplePassRegistration' });

/** The error messages Wallet sends (Apple's `log` endpoint). Kept in our logs only, shortened. */
export const ApplePassLogSchema = z.object({ logs: z.array(z.string().max(2000)).max(50) }).meta({ id: 'ApplePassLog' });
export type ApplePassLog = z.infer<typeof ApplePassLogSchema>;

/** Apple's answer shape for "which of this device's passes changed since". */
export const ApplePassSerialsSchema = z
  .object({ serialNumbers: z.array(PassSerialSchema), lastUpdated: PassUpdateTagSchema })
  .meta({ id: 'ApplePassSerials' });
export type ApplePassSerials = z.infer<typeof ApplePassSerialsSchema>;

/** A pass as the gateway sends it: the signed bundle and when it last changed (Last-Modified). */
export const ApplePassFileSchema = z.object({
  fileName: z.string(),
  dataBase64: z.string(),
  /** ISO time, whole seconds: what Last-Modified says and If-Modified-Since is compared with. */
  lastModified: z.iso.datetime(),
});
export type ApplePassFile = z.infer<typeof ApplePassFileSchema>;

/** The media type of a pass (Apple's). */
export const PKPASS_MEDIA_TYPE = 'application/vnd.apple.pkpass';

/** Save to Google Wallet: the link (`https://pay.google.com/gp/v/save/<signed JWT>`) for the owner's own card. */
export const GoogleWalletLinkSchema = z.object({ saveUrl: z.url() }).meta({ id: 'GoogleWalletLink' });
export type GoogleWalletLink = z.infer<typeof GoogleWalletLinkSchema>;

/** What a leader's "give every rep their pass" did: how many reps were sent an email. */
export const RepPassesSentSchema = z.object({ sent: z.number().int().min(0) }).meta({ id: 'RepPassesSent' });
export type RepPassesSent = z.infer<typeof RepPassesSentSchema>;

export const WalletMessages = {
  appleNotConfigured: 'Apple Wallet passes are not available.',
  googleNotConfigured: 'Google Wallet passes are not available.',
  /** A leader's "give every rep their pass" with no wallet configured. */
  noWalletConfigured: 'Wallet passes are not available.',
  /** A web-service call without the pass's own token, or with another pass's. */
  passUnauthorized: 'This pass is not yours.',
  noPass: 'No such pass.',
} as const;

/** The `Authorization` header a device sends with a pass's own token (Apple's scheme). */
export const APPLE_PASS_AUTH_SCHEME = 'ApplePass';
