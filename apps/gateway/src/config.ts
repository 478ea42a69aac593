import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { env, redisEnvShape } from '@digicard/config';
import { invalidProxyEntries } from './security/trusted-proxies.js';
import { WHATSAPP_INVITE } from '@digicard/contracts';
import { PAYFAST_PUBLISHED_RANGES, PayFastSourceRangesSchema } from '@digicard/payfast';

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
  /**
   * The internal listener: readiness and the whole system's report with every check (`/health`, `/health/live`,
   * `/health/system`), for the orchestrator's probes. Never published: the public port answers up or down only.
   */
  HEALTH_PORT: env.port(9080),
  NATS_URL: env.natsUrl,
  ...redisEnvShape,
  /** Prefix of the gateway's Redis keys (rate limits, later sessions). */
  REDIS_KEY_PREFIX: env.queuePrefix,
  PUBLIC_URL: env.httpUrl,
  WEB_DIST_DIR: z
    .string()
    .min(1)
    .default(fileURLToPath(new URL('../../../web/dist', import.meta.url))),
  BRAND_NAME: z.string().min(1).default('DigiCard'),
  SALES_EMAIL: env.email.default('sales@digicard.co.za'),
  WHATSAPP_NUMBER: z
    .string()
    .regex(/^\d{11,15}$/, 'digits only in international form, e.g. 27821234567')
    .default('27821234567'),
  /**
   * The invite link of the TEDxGeorge WhatsApp community (its organisers give it): the /tedx_george page shows
   * "Join the WhatsApp community" only when it is set.
   */
  TEDX_GEORGE_COMMUNITY_URL: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine(
      (v) => v === undefined || WHATSAPP_INVITE.test(v),
      'must be a WhatsApp invite link, e.g. https://chat.whatsapp.com/AbCdEf123456',
    ),
  REQUEST_TIMEOUT_MS: env.requestTimeoutMs,
  /** How long readiness stays 200 ("degraded") while NATS or Redis does not answer: a blip must not empty the Service. */
  READINESS_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** How many proxies sit in front (for the client IP in rate limits): 0 in development, 1 behind an ingress. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * The addresses of those proxies (the ingress's), comma-separated addresses or CIDR ranges, or `loopback`: a peer
   * outside them is the client itself, whatever X-Forwarded-For it sends.
   */
  TRUST_PROXY_FROM: z
    .string()
    .default('loopback')
    .transform((value) =>
      value
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    )
    .refine((entries) => invalidProxyEntries(entries).length === 0, {
      message: 'addresses or CIDR ranges (10.0.0.0/8), or loopback, comma-separated',
    }),
  ENQUIRY_RATE_LIMIT: rateLimit.default({ limit: 10, windowSeconds: 600 }),
  /**
   * The key session records in Redis are MACed with (gateway only: orders and notifications, which share Redis, must
   * not be able to write a session). Every replica needs the same one; without it each process makes its own and
   * sessions end when the gateway restarts (development).
   */
  SESSION_SECRET: z.string().min(32, 'at least 32 characters (openssl rand -base64 32)').optional(),
  /**
   * The AES-256-GCM key teams' company sign-in client secrets are encrypted with (32 bytes, base64: `openssl rand
   * -base64 32`). Only the gateway holds it: the teams service stores the ciphertext it cannot read. Without it,
   * company sign-in is off (its routes answer 503). Changing it makes every stored secret unreadable: leaders save
   * theirs again.
   */
  SSO_SECRET_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32 && /^[A-Za-z0-9+/]{43}=$/.test(value), {
      message: '32 bytes in base64 (openssl rand -base64 32)',
    })
    .optional(),
  /**
   * Company sign-in providers may be at private or loopback addresses (a provider on this machine: development,
   * tests). Unset: allowed when NODE_ENV is development, refused otherwise, so a leader's issuer URL cannot make the
   * gateway call into its own network (SSRF).
   */
  SSO_ALLOW_PRIVATE_ISSUERS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  /** A session unused this long ends (minutes). */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 30)
    .default(60 * 24),
  /** A session ends this long after sign-in, used or not (hours). */
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 14),
  RATE_LIMIT_LOGIN_IP: rateLimit.default({ limit: 30, windowSeconds: 900 }),
  /** Failed sign-ins per account: a burst of <requests>, then a growing delay; failures are forgotten after <seconds> of quiet. */
  RATE_LIMIT_LOGIN_ACCOUNT: rateLimit.default({ limit: 10, windowSeconds: 900 }),
  /** The first delay between sign-in attempts to one account beyond its burst of failures (seconds); it doubles with each further failure. */
  RATE_LIMIT_LOGIN_BACKOFF_FIRST_SECONDS: z.coerce.number().int().min(1).max(3600).default(1),
  /** The longest delay between sign-in attempts to one account beyond its burst of failures (seconds). */
  RATE_LIMIT_LOGIN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RATE_LIMIT_REGISTER_IP: rateLimit.default({ limit: 10, windowSeconds: 3600 }),
  RATE_LIMIT_RESET_IP: rateLimit.default({ limit: 10, windowSeconds: 3600 }),
  RATE_LIMIT_RESET_ACCOUNT: rateLimit.default({ limit: 3, windowSeconds: 3600 }),
  RATE_LIMIT_RESEND_ACCOUNT: rateLimit.default({ limit: 3, windowSeconds: 3600 }),
  RATE_LIMIT_VERIFY_IP: rateLimit.default({ limit: 30, windowSeconds: 3600 }),
  /** Public-page analytics (views, Save to Contact, clicks): `off` only to measure what counting costs. */
  VIEW_COUNTING: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /**
   * Public-page views, Save to Contact and clicks counted per client address and minute, per replica, together (beyond
   * it the page is served, not counted).
   */
  ANALYTICS_VIEWS_PER_ADDRESS_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** How often each replica sends its counts to the profiles service (milliseconds). */
  ANALYTICS_FLUSH_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** Image uploads per account (each is decoded and re-encoded: CPU and memory). */
  RATE_LIMIT_UPLOAD_ACCOUNT: rateLimit.default({ limit: 60, windowSeconds: 3600 }),
  /** Profile saves per account (each may queue a print-proof render of every order awaiting approval). */
  RATE_LIMIT_PROFILE_SAVE_ACCOUNT: rateLimit.default({ limit: 120, windowSeconds: 3600 }),
  /** Click beacons per client address (an office behind one address clicks a lot; a script clicking more is cut off). */
  RATE_LIMIT_CLICK_IP: rateLimit.default({ limit: 300, windowSeconds: 60 }),
  /** CRM webhook saves, secret rotations and test sends, per account (each save resolves a name in DNS; each test posts out). */
  RATE_LIMIT_CRM_ACCOUNT: rateLimit.default({ limit: 30, windowSeconds: 600 }),
  /** Visitors' lead form, Exchange Contact and Get your own Profile submissions per profile, whoever sends them. */
  RATE_LIMIT_LEAD_PROFILE: rateLimit.default({ limit: 100, windowSeconds: 86_400 }),
  /** The same per address typed in (Exchange Contact emails it a card): a person met at an event, not a flood. */
  RATE_LIMIT_LEAD_EMAIL: rateLimit.default({ limit: 20, windowSeconds: 86_400 }),
  /**
   * The addresses and CIDR ranges PayFast's notifications may come from, comma-separated: any other address is refused (403) before
   * anything is stored. The default is the list PayFast's support article "What IP addresses does Payfast use" gives;
   * development and tests set the simulator's (127.0.0.1/32). Payments checks the same again (its own setting).
   */
  PAYFAST_SOURCE_RANGES: z.string().default(PAYFAST_PUBLISHED_RANGES.join(',')).pipe(PayFastSourceRangesSchema),
  /** PayFast notifications per source address (PayFast posts from a few addresses, once per payment event and retry). */
  RATE_LIMIT_ITN_IP: rateLimit.default({ limit: 600, windowSeconds: 60 }),
  /** Add to Apple Wallet downloads per account (each signs a pass and draws its images). */
  RATE_LIMIT_WALLET_DOWNLOAD_ACCOUNT: rateLimit.default({ limit: 20, windowSeconds: 3600 }),
  /** Apple's pass web service calls per client address (devices register, fetch updates, send logs). */
  RATE_LIMIT_WALLET_IP: rateLimit.default({ limit: 120, windowSeconds: 60 }),
  /** A team leader's "give every rep their pass" per account (each emails every rep). */
  RATE_LIMIT_WALLET_OFFER_ACCOUNT: rateLimit.default({ limit: 3, windowSeconds: 3600 }),
  /** SCIM calls per team token (an identity provider's sync sends bursts: Entra ID's first cycle, Okta's imports). */
  RATE_LIMIT_SCIM_TOKEN: rateLimit.default({ limit: 600, windowSeconds: 60 }),
  /** SCIM calls per client address, whatever the token (guessing tokens is cut off here). */
  RATE_LIMIT_SCIM_IP: rateLimit.default({ limit: 1200, windowSeconds: 60 }),
  /** Bytes the public-page cache may hold, in MiB (gzip of each page + ~400 B an entry); least recently used go first. */
  PUBLIC_PAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(1024).default(64),
  /** How long a cached public page is served without asking the profiles service (a Save drops it at once). */
  PUBLIC_PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * The share of cached public page answers traced (at most OTEL_TRACES_SAMPLER_ARG, the share of every other new
   * trace). The busiest route gives the same one-span trace each time: at the general ratio it would be most of the
   * spans exported and stored (1,500 a second at 15,000 views a second and 0.1), while metrics count and time every
   * view. Its cost to the page: docs/benchmarks.md.
   */
  PUBLIC_PAGE_TRACE_RATIO: z.coerce.number().min(0).max(1).default(0.01),
  /** Answer cached public pages to visitors without a session before the Nest/express stack (same headers). */
  PUBLIC_PAGE_FAST_PATH: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type Config = z.infer<typeof ConfigSchema>;
