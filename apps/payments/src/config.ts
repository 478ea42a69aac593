import { z } from 'zod';
import { env, serviceEnvShape } from '@digicard/config';
import { PayFastSourceRangesSchema } from '@digicard/payfast';

/** PayFast's public sandbox merchant and our development passphrase: anyone knows them, so no live shop may use them. */
const PUBLIC_MERCHANT_IDS = ['10000100'];
const PUBLIC_MERCHANT_KEYS = ['46f0cd694581a'];
const DEVELOPMENT_PASSPHRASES = ['digicard-development-passphrase', 'digicard-test-passphrase'];

export const ConfigSchema = z
  .object({
    ...serviceEnvShape,
    HEALTH_PORT: env.port(8105),
    /** Where buyers come back to, and where PayFast posts ITNs (`/api/payfast/notify` through the gateway). */
    PUBLIC_URL: env.httpUrl,
    /**
     * Where PayFast posts its notifications, when not `${PUBLIC_URL}/api/payfast/notify`: e.g. inside docker-compose,
     * where the simulator reaches the gateway by its service name rather than the browser's address.
     */
    PAYFAST_NOTIFY_URL: env.httpUrl.optional(),
    PAYFAST_PROCESS_URL: env.httpUrl,
    PAYFAST_VALIDATE_URL: env.httpUrl,
    /** The subscriptions API, e.g. https://api.payfast.co.za */
    PAYFAST_API_URL: env.httpUrl,
    /**
     * `true` when the URLs and merchant are PayFast's sandbox: subscriptions API calls then carry `?testing=true`
     * (PayFast's one API host serves both, and the sandbox's subscriptions are only found that way). Live: `false`.
     */
    PAYFAST_SANDBOX: z
      .enum(['true', 'false', '1', '0', ''])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    PAYFAST_MERCHANT_ID: z.string().regex(/^\d+$/, 'must be the merchant id PayFast gave you (digits)'),
    PAYFAST_MERCHANT_KEY: z.string().min(1),
    /** Required by PayFast for subscriptions and the API; memberships are refused without it. */
    PAYFAST_PASSPHRASE: z
      .string()
      .optional()
      .transform((v) => (v?.trim() ? v : undefined)),
    /** Comma-separated IPv4 CIDRs ITNs may come from (the simulator: 127.0.0.1/32). */
    PAYFAST_SOURCE_RANGES: PayFastSourceRangesSchema,
    PAYFAST_VALIDATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    MEMBERSHIP_GRACE_DAYS: z.coerce.number().int().min(0).max(60).default(7),
    /** How long ITNs that moved no money (rejected, ignored, duplicate) are kept before the sweeper deletes them. */
    ITN_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    /** How often unprocessed ITNs are retried and lapsed memberships ended. */
    PAYMENTS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  })
  .superRefine((config, ctx) => {
    // Traps a production start must not fall into, each named by its key (the service then exits 78, as for any bad key):
    // a payment signed without the passphrase, PayFast reached over plain HTTP, a merchant or passphrase everyone knows.
    // A sandbox run (PAYFAST_SANDBOX=true: PayFast's sandbox or the simulator, nothing real is paid) may use the latter two.
    if (config.NODE_ENV !== 'production') return;
    const problem = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
    if (!config.PAYFAST_PASSPHRASE)
      problem('PAYFAST_PASSPHRASE', 'required when NODE_ENV is production (the passphrase set on your PayFast account)');
    if (config.PAYFAST_SANDBOX) return;
    for (const key of ['PAYFAST_PROCESS_URL', 'PAYFAST_VALIDATE_URL', 'PAYFAST_API_URL'] as const) {
      if (!config[key].startsWith('https:'))
        problem(key, 'must be an https:// URL when NODE_ENV is production (or set PAYFAST_SANDBOX=true for a sandbox)');
    }
    if (PUBLIC_MERCHANT_IDS.includes(config.PAYFAST_MERCHANT_ID))
      problem(
        'PAYFAST_MERCHANT_ID',
        'is PayFast’s public sandbox merchant: set your own when NODE_ENV is production (or PAYFAST_SANDBOX=true)',
      );
    if (PUBLIC_MERCHANT_KEYS.includes(config.PAYFAST_MERCHANT_KEY))
      problem(
        'PAYFAST_MERCHANT_KEY',
        'is PayFast’s public sandbox key: set your own when NODE_ENV is production (or PAYFAST_SANDBOX=true)',
      );
    if (config.PAYFAST_PASSPHRASE && DEVELOPMENT_PASSPHRASES.includes(config.PAYFAST_PASSPHRASE)) {
      problem(
        'PAYFAST_PASSPHRASE',
        'is the development passphrase: set your PayFast account’s own when NODE_ENV is production (or PAYFAST_SANDBOX=true)',
      );
    }
  });
export type Config = z.infer<typeof ConfigSchema>;
