import { z } from 'zod';
import { env, serviceEnvShape } from '@digicard/config';

const cidr = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(\/(\d|[12]\d|3[0-2]))?$/;

export const ConfigSchema = z.object({
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
  PAYFAST_PASSPHRASE: z.string().optional().transform((v) => (v?.trim() ? v : undefined)),
  /** Comma-separated IPv4 CIDRs ITNs may come from (the simulator: 127.0.0.1/32). */
  PAYFAST_SOURCE_RANGES: z
    .string()
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.length > 0 && list.every((c) => cidr.test(c)), 'must be a comma-separated list of IPv4 CIDRs, e.g. 127.0.0.1/32'),
  PAYFAST_VALIDATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  MEMBERSHIP_GRACE_DAYS: z.coerce.number().int().min(0).max(60).default(7),
  /** How often unprocessed ITNs are retried and lapsed memberships ended. */
  PAYMENTS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
});
export type Config = z.infer<typeof ConfigSchema>;
