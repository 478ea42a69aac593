import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { FeatureState } from '@digicard/contracts';

/**
 * A PEM value from the environment: the PEM itself (real line breaks, or `\n` written out, as one-line env files and
 * Secrets often carry it), or the PEM in base64 (one line, nothing to escape). Empty is unset.
 */
export const pemEnv = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const value = v?.trim();
    if (!value) return undefined;
    const text = value.startsWith('-----BEGIN') ? value.replace(/\\n/g, '\n') : Buffer.from(value, 'base64').toString('utf8');
    if (!text.startsWith('-----BEGIN')) {
      ctx.addIssue({ code: 'custom', message: 'must be PEM (-----BEGIN ...), with real or \\n line breaks, or PEM in base64' });
      return z.NEVER;
    }
    return `${text.trim()}\n`;
  });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/**
 * Apple Wallet's settings (docs/deploy.md, "Apple Wallet"): the pass type identifier and team of the Apple developer
 * account, the pass type certificate with its key (and the key's passphrase), Apple's WWDR intermediate certificate,
 * and the APNs authentication key (token-based: its id and the .p8 key) that pushes the updates. All or none: with
 * none the feature is off (the dashboard offers no Add to Apple Wallet, health says why); some but not all is a
 * configuration error at start.
 */
export const appleWalletEnvShape = {
  /** e.g. `pass.za.co.digicard.card`: the certificate's UID. */
  APPLE_PASS_TYPE_ID: optionalText,
  /** The Apple developer team (10 characters): the certificate's OU, and the APNs key's issuer. */
  APPLE_TEAM_ID: optionalText,
  /** The pass type certificate (PEM). */
  APPLE_PASS_CERT: pemEnv,
  /** Its private key (PEM; encrypted with APPLE_PASS_KEY_PASSPHRASE when that is set). */
  APPLE_PASS_KEY: pemEnv,
  APPLE_PASS_KEY_PASSPHRASE: optionalText,
  /** Apple's Worldwide Developer Relations intermediate certificate (G4), PEM. */
  APPLE_WWDR_CERT: pemEnv,
  /** The APNs authentication key's id (10 characters) and the key itself (the .p8 file: PEM, EC P-256). */
  APNS_KEY_ID: optionalText,
  APNS_KEY: pemEnv,
  /** Apple's production APNs by default; `https://api.sandbox.push.apple.com` for development devices. */
  APNS_URL: z
    .string()
    .default('https://api.push.apple.com')
    .refine((v) => {
      try {
        return new URL(v).protocol === 'https:';
      } catch {
        return false;
      }
    }, 'must be an https:// URL'),
  /** A certificate authority to trust for APNS_URL besides the system's (only for a local APNs stand-in in tests). */
  APNS_CA: pemEnv,
  /** How many pushes run at once. */
  APPLE_PASS_PUSH_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(5),
  /** The first retry's delay of a failed push; each next one doubles it (ApplePassPushJobOptions: 8 attempts). */
  APPLE_PASS_PUSH_BACKOFF_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  /** How long a voided pass (its account deleted) is still served as void to the devices holding it, then deleted. */
  APPLE_VOIDED_PASS_KEEP_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 90)
    .default(72),
};

const REQUIRED = [
  'APPLE_PASS_TYPE_ID',
  'APPLE_TEAM_ID',
  'APPLE_PASS_CERT',
  'APPLE_PASS_KEY',
  'APPLE_WWDR_CERT',
  'APNS_KEY_ID',
  'APNS_KEY',
  'PUBLIC_URL',
  'REDIS_URL',
] as const;

const APPLE_OWN = REQUIRED.filter((k) => k !== 'PUBLIC_URL' && k !== 'REDIS_URL');

type AppleEnv = { [K in (typeof REQUIRED)[number]]?: string | undefined } & { APPLE_PASS_KEY_PASSPHRASE?: string | undefined };

/** What Apple Wallet uses once configured: the certificates parsed and checked once, at start. */
export interface AppleWallet {
  passTypeIdentifier: string;
  teamIdentifier: string;
  signerCert: string;
  /** The key, opened once at start (PKCS#8 PEM, unencrypted, in memory only): signing does not decrypt it each time. */
  signerKey: string;
  wwdr: string;
  apnsKeyId: string;
  apnsKey: KeyObject;
  apnsUrl: string;
  apnsCa: string | undefined;
  publicUrl: string;
}

/** The keys the feature needs that are unset (all of them: the feature is off; some: a configuration error). */
export const missingAppleSettings = (env: AppleEnv): string[] => REQUIRED.filter((key) => !env[key]);

/**
 * Checks a complete configuration: the certificates and keys parse, the key opens with its passphrase and belongs to
 * the certificate, the certificate is for the pass type identifier, and the APNs key is ES256's curve. Each problem
 * is named with its variable.
 */
export function appleSettingsProblems(env: AppleEnv): Array<{ key: string; message: string }> {
  const problems: Array<{ key: string; message: string }> = [];
  let cert: X509Certificate | null = null;
  try {
    cert = new X509Certificate(env.APPLE_PASS_CERT!);
  } catch {
    problems.push({ key: 'APPLE_PASS_CERT', message: 'is not a PEM certificate' });
  }
  try {
    new X509Certificate(env.APPLE_WWDR_CERT!);
  } catch {
    problems.push({ key: 'APPLE_WWDR_CERT', message: 'is not a PEM certificate' });
  }
  try {
    const key = createPrivateKey({ key: env.APPLE_PASS_KEY!, passphrase: env.APPLE_PASS_KEY_PASSPHRASE ?? '' });
    if (key.asymmetricKeyType !== 'rsa') problems.push({ key: 'APPLE_PASS_KEY', message: 'must be an RSA key (as Apple issues them)' });
    else if (cert && !cert.checkPrivateKey(key)) problems.push({ key: 'APPLE_PASS_KEY', message: 'is not the key of APPLE_PASS_CERT' });
  } catch {
    problems.push({ key: 'APPLE_PASS_KEY', message: 'does not open (a PEM private key; is APPLE_PASS_KEY_PASSPHRASE right?)' });
  }
  if (cert && !cert.subject.split('\n').includes(`UID=${env.APPLE_PASS_TYPE_ID}`))
    problems.push({
      key: 'APPLE_PASS_CERT',
      message: `is not the certificate of ${env.APPLE_PASS_TYPE_ID} (its subject has no UID=${env.APPLE_PASS_TYPE_ID})`,
    });
  if (!/^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(env.APPLE_PASS_TYPE_ID!))
    problems.push({ key: 'APPLE_PASS_TYPE_ID', message: 'must look like pass.za.co.example.card' });
  if (!/^[A-Z0-9]{10}$/.test(env.APPLE_TEAM_ID!)) problems.push({ key: 'APPLE_TEAM_ID', message: 'must be the 10-character team id' });
  if (!/^[A-Z0-9]{10}$/.test(env.APNS_KEY_ID!)) problems.push({ key: 'APNS_KEY_ID', message: 'must be the 10-character key id' });
  try {
    const apns = createPrivateKey(env.APNS_KEY!);
    if (apns.asymmetricKeyType !== 'ec' || apns.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
      problems.push({ key: 'APNS_KEY', message: 'must be the EC P-256 key of an APNs authentication key (.p8)' });
  } catch {
    problems.push({ key: 'APNS_KEY', message: 'is not a PEM private key (the .p8 file)' });
  }
  return problems;
}

/** For the config schema's `superRefine`: all or none, and a complete set that is sound. */
export function checkAppleSettings(env: AppleEnv, ctx: z.RefinementCtx): void {
  // None of Apple's own settings: the feature is off (PUBLIC_URL and REDIS_URL may well be set all the same).
  if (APPLE_OWN.every((k) => !env[k])) return;
  const missing = missingAppleSettings(env);
  for (const key of missing)
    ctx.addIssue({ code: 'custom', path: [key], message: 'required with the other Apple Wallet settings (set all of them, or none)' });
  if (missing.length > 0) return;
  for (const problem of appleSettingsProblems(env)) ctx.addIssue({ code: 'custom', path: [problem.key], message: problem.message });
}

/** The feature, or null when none of its settings is set (the configuration schema refused anything in between). */
export function appleWalletOf(env: AppleEnv & { APNS_URL: string; APNS_CA?: string | undefined }): AppleWallet | null {
  if (missingAppleSettings(env).length > 0) return null;
  return {
    passTypeIdentifier: env.APPLE_PASS_TYPE_ID!,
    teamIdentifier: env.APPLE_TEAM_ID!,
    signerCert: env.APPLE_PASS_CERT!,
    signerKey: createPrivateKey({ key: env.APPLE_PASS_KEY!, passphrase: env.APPLE_PASS_KEY_PASSPHRASE ?? '' })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString(),
    wwdr: env.APPLE_WWDR_CERT!,
    apnsKeyId: env.APNS_KEY_ID!,
    apnsKey: createPrivateKey(env.APNS_KEY!),
    apnsUrl: env.APNS_URL,
    apnsCa: env.APNS_CA,
    publicUrl: env.PUBLIC_URL!.replace(/\/+$/, ''),
  };
}

/** What health says of the feature: on, or off and which settings would turn it on. */
export function appleWalletState(env: AppleEnv): FeatureState {
  const missing = missingAppleSettings(env);
  return missing.length === 0
    ? { status: 'on' }
    : {
        status: 'off',
        reason: `Apple Wallet passes are off: ${missing.join(', ')} not set (docs/deploy.md, "Apple Wallet")`,
      };
}
