import { z } from 'zod';
import { env, redisEnvShape, serviceEnvShape } from '@digicard/config';
import { appleWalletEnvShape, checkAppleSettings } from './wallet/apple-config.js';
import { checkGoogleSettings, googleWalletEnvShape } from './wallet/google-config.js';

export const ConfigSchema = z
  .object({
    ...serviceEnvShape,
    HEALTH_PORT: env.port(8102),
    /** The bytes (after re-encoding) an account's images may take together; an upload past it is refused with 413. */
    MEDIA_QUOTA_BYTES: z.coerce.number().int().min(100_000).default(25_000_000),
    /** How long an upload the profile does not show waits for the editor's Save before a save deletes it (hours). */
    UNSAVED_MEDIA_HOURS: z.coerce
      .number()
      .min(0)
      .max(24 * 30)
      .default(24),
    /**
     * Leads (lead form, Exchange Contact, Get your own Profile) one profile stores per South African day, whoever sends
     * them: past it, 429 until midnight. Holds without Redis (the gateway's RATE_LIMIT_LEAD_PROFILE is let through
     * while Redis is down) and keeps one profile's leads from growing without bound.
     */
    LEADS_PER_PROFILE_DAY: z.coerce.number().int().min(1).max(100_000).default(200),
    /**
     * Distinct keys one profile's analytics gets per South African day and metric with open-ended keys: NFC cards (only
     * the page's own cards count at all) and click targets. Keys already counted that day go on counting; new ones past
     * it are dropped. Keeps a flood of made-up values from growing an owner's report (one NATS reply) without end.
     */
    ANALYTICS_KEYS_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(100),
    /** Unique visitors recorded per profile and South African day; beyond it the day shows this many. */
    ANALYTICS_VISITORS_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
    /** The public site: the address a wallet pass's QR code opens, and Apple's web service (wallet passes only). */
    PUBLIC_URL: env.httpUrl.optional(),
    /** The brand, as a pass names its issuer (Apple Wallet's organizationName). */
    BRAND_NAME: z.string().min(1).default('DigiCard'),
    /**
     * Redis, for the `apple-pass-push` and `google-wallet-sync` queues (wallet passes only): optional, and never a readiness check here (public
     * pages must not depend on it); its own ACL user `profiles`.
     */
    ...redisEnvShape,
    REDIS_URL: redisEnvShape.REDIS_URL.optional(),
    QUEUE_PREFIX: env.queuePrefix,
    /** How long a queue add may take before Redis counts as away (the event is handled again later). */
    QUEUE_ADD_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    ...appleWalletEnvShape,
    ...googleWalletEnvShape,
  })
  .superRefine((env, ctx) => {
    checkAppleSettings(env, ctx);
    checkGoogleSettings(env, ctx);
  });
export type Config = z.infer<typeof ConfigSchema>;
