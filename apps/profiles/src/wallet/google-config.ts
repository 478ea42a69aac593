import { createPrivateKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { FeatureState } from '@digicard/contracts';
import { pemEnv } from './apple-config.js';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/** Google's own https URL, or (for a local stand-in in tests) plain http on the loopback address. */
const googleUrl = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
      } catch {
        return false;
      }
    }, 'must be an https:// URL (http:// only on the loopback address, for a local stand-in)')
    .transform((v) => v.replace(/\/+$/, ''));

/**
 * Google Wallet's settings (docs/deploy.md, "Google Wallet"): the issuer id of the Google Wallet API console, and a
 * service account of a Google Cloud project that the issuer account has given access to (its email and its private
 * key, from the JSON key file's `client_email` and `private_key`). All or none: with none the feature is off (the
 * dashboard offers no Save to Google Wallet, health says why); some but not all is a configuration error at start.
 */
export const googleWalletEnvShape = {
  /** The issuer id (digits) of the Google Wallet API console. */
  GOOGLE_WALLET_ISSUER_ID: optionalText,
  /** The service account's email (`client_email` of its JSON key). */
  GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: optionalText,
  /** The service account's private key (`private_key` of its JSON key): PEM, RSA. */
  GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: pemEnv,
  /** The pass class's own part of its id (`<issuer id>.<suffix>`): one generic class for every owner's card. */
  GOOGLE_WALLET_CLASS_SUFFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/)
    .default('digicard-card'),
  /** The Google Wallet REST API (tests point it at a local stand-in). */
  GOOGLE_WALLET_API_URL: googleUrl('https://walletobjects.googleapis.com'),
  /** Google's OAuth 2.0 token endpoint, where the service account's signed assertion is exchanged for an access token. */
  GOOGLE_OAUTH_TOKEN_URL: googleUrl('https://oauth2.googleapis.com/token'),
  /** How many Google Wallet writes run at once. */
  GOOGLE_WALLET_SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(5),
  /** The first retry's delay of a failed write; each next one doubles it (GoogleWalletSyncJobOptions: 8 attempts). */
  GOOGLE_WALLET_SYNC_BACKOFF_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  /**
   * How long a voided object (its account deleted, or its rep removed) is kept once its expiry is queued, then deleted:
   * long enough for the expiry write's retries to find it. Google's own, apart from APPLE_VOIDED_PASS_KEEP_HOURS.
   */
  GOOGLE_WALLET_VOIDED_OBJECT_KEEP_HOURS: z.coerce
    .number()
    .min(1)
    .max(24 * 90)
    .default(72),
};

const REQUIRED = [
  'GOOGLE_WALLET_ISSUER_ID',
  'GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL',
  'GOOGLE_WALLET_SERVICE_ACCOUNT_KEY',
  'PUBLIC_URL',
  'REDIS_URL',
] as const;

const GOOGLE_OWN = REQUIRED.filter((k) => k !== 'PUBLIC_URL' && k !== 'REDIS_URL');

type GoogleEnv = { [K in (typeof REQUIRED)[number]]?: string | undefined };

/** What Google Wallet uses once configured: the key opened once, at start. */
export interface GoogleWallet {
  issuerId: string;
  serviceAccountEmail: string;
  key: KeyObject;
  /** `<issuer id>.<class suffix>` */
  classId: string;
  apiUrl: string;
  tokenUrl: string;
  publicUrl: string;
}

/** The keys the feature needs that are unset (all of them: the feature is off; some: a configuration error). */
export const missingGoogleSettings = (env: GoogleEnv): string[] => REQUIRED.filter((key) => !env[key]);

/** Checks a complete configuration: the issuer id is digits, the email an email, the key an RSA private key. */
export function googleSettingsProblems(env: GoogleEnv): Array<{ key: string; message: string }> {
  const problems: Array<{ key: string; message: string }> = [];
  if (!/^\d{5,30}$/.test(env.GOOGLE_WALLET_ISSUER_ID!))
    problems.push({ key: 'GOOGLE_WALLET_ISSUER_ID', message: 'must be the issuer id (digits) of the Google Wallet API console' });
  if (!z.email().safeParse(env.GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL).success)
    problems.push({ key: 'GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL', message: 'must be the service account’s email (client_email)' });
  try {
    const key = createPrivateKey(env.GOOGLE_WALLET_SERVICE_ACCOUNT_KEY!);
    if (key.asymmetricKeyType !== 'rsa')
      problems.push({ key: 'GOOGLE_WALLET_SERVICE_ACCOUNT_KEY', message: 'must be an RSA key (as Google issues them)' });
  } catch {
    problems.push({ key: 'GOOGLE_WALLET_SERVICE_ACCOUNT_KEY', message: 'is not a PEM private key (private_key of the JSON key file)' });
  }
  return problems;
}

/** For the config schema's `superRefine`: all or none, and a complete set that is sound. */
export function checkGoogleSettings(env: GoogleEnv, ctx: z.RefinementCtx): void {
  if (GOOGLE_OWN.every((k) => !env[k])) return;
  const missing = missingGoogleSettings(env);
  for (const key of missing)
    ctx.addIssue({ code: 'custom', path: [key], message: 'required with the other Google Wallet settings (set all of them, or none)' });
  if (missing.length > 0) return;
  for (const problem of googleSettingsProblems(env)) ctx.addIssue({ code: 'custom', path: [problem.key], message: problem.message });
}

/** The feature, or null when none of its settings is set (the configuration schema refused anything in between). */
export function googleWalletOf(
  env: GoogleEnv & { GOOGLE_WALLET_CLASS_SUFFIX: string; GOOGLE_WALLET_API_URL: string; GOOGLE_OAUTH_TOKEN_URL: string },
): GoogleWallet | null {
  if (missingGoogleSettings(env).length > 0) return null;
  return {
    issuerId: env.GOOGLE_WALLET_ISSUER_ID!,
    serviceAccountEmail: env.GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL!,
    key: createPrivateKey(env.GOOGLE_WALLET_SERVICE_ACCOUNT_KEY!),
    classId: `${env.GOOGLE_WALLET_ISSUER_ID!}.${env.GOOGLE_WALLET_CLASS_SUFFIX}`,
    apiUrl: env.GOOGLE_WALLET_API_URL,
    tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL,
    publicUrl: env.PUBLIC_URL!.replace(/\/+$/, ''),
  };
}

/** What health says of the feature: on, or off and which settings would turn it on. */
export function googleWalletState(env: GoogleEnv): FeatureState {
  const missing = missingGoogleSettings(env);
  return missing.length === 0
    ? { status: 'on' }
    : {
        status: 'off',
        reason: `Google Wallet passes are off: ${missing.join(', ')} not set (docs/deploy.md, "Google Wallet")`,
      };
}
