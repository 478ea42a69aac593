import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { env } from '@digicard/config';

const rateLimit = z
  .string()
  .regex(/^\d+\/\d+$/, 'must be "<requests>/<seconds>", e.g. 10/600')
  .transform((v) => {
    const [limit, seconds] = v.split('/').map(Number) as [number, number];
    return { limit, windowSeconds: seconds };
  });

export const ConfigSchema = z.object({
  NODE_ENV: env.nodeEnv,
  LOG_LEVEL: env.logLevel,
  HOST: env.host,
  PORT: env.port(8080),
  NATS_URL: env.natsUrl,
  REDIS_URL: env.redisUrl,
  /** Prefix of the gateway's Redis keys (rate limits, later sessions). */
  REDIS_KEY_PREFIX: env.queuePrefix,
  PUBLIC_URL: env.httpUrl,
  WEB_DIST_DIR: z.string().min(1).default(fileURLToPath(new URL('../../../web/dist', import.meta.url))),
  BRAND_NAME: z.string().min(1).default('DigiCard'),
  SALES_EMAIL: env.email.default('sales@digicard.co.za'),
  WHATSAPP_NUMBER: z.string().regex(/^\d{11,15}$/, 'digits only in international form, e.g. 27821234567').default('27821234567'),
  REQUEST_TIMEOUT_MS: env.requestTimeoutMs,
  /** How many proxies sit in front (for the client IP in rate limits): 0 in development, 1 behind an ingress. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  ENQUIRY_RATE_LIMIT: rateLimit.default({ limit: 10, windowSeconds: 600 }),
});
export type Config = z.infer<typeof ConfigSchema>;
