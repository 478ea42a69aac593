import { z } from 'zod';

export class ConfigError extends Error {
  constructor(
    readonly app: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration for ${app}; fix these environment variables:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once, at start-up, with the app's schema. Every missing or bad key is named in one
 * error, so a broken deployment says everything that is wrong in its first log line.
 */
export function loadConfig<S extends z.ZodType>(app: string, schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.map(String).join('.') || '(environment)';
    return `${key}: ${issue.message}`;
  });
  throw new ConfigError(app, problems);
}

const url = (protocols: string[], example: string) =>
  z
    .string({ error: `required, e.g. ${example}` })
    .min(1, `required, e.g. ${example}`)
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a ${protocols.join(' or ')}// URL, e.g. ${example}`,
    );

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const env = {
  /** Production unless said otherwise: a deployment that forgets it gets TLS to SMTP and no webhooks to private addresses. */
  nodeEnv: z.enum(['development', 'test', 'production']).default('production'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  host: z.string().min(1).default('127.0.0.1'),
  port,
  /** One server, or a NATS cluster's servers comma-separated (the client moves to another when one goes away). */
  natsUrl: z
    .string({ error: 'required, e.g. nats://127.0.0.1:4222' })
    .min(1, 'required, e.g. nats://127.0.0.1:4222')
    .refine(
      (v) =>
        v.split(',').every((server) => {
          try {
            return ['nats:', 'tls:'].includes(new URL(server.trim()).protocol);
          } catch {
            return false;
          }
        }),
      'must be a nats: or tls:// URL, or several comma-separated, e.g. nats://127.0.0.1:4222',
    ),
  databaseUrl: url(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/digicard'),
  redisUrl: url(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  smtpUrl: url(['smtp:', 'smtps:'], 'smtp://127.0.0.1:1025'),
  httpUrl: url(['http:', 'https:'], 'http://localhost:8080'),
  /** BullMQ key prefix: lets a test run keep its queues apart from a running development system. */
  queuePrefix: z
    .string()
    .regex(/^[a-z0-9:_-]+$/i)
    .default('digicard'),
  requestTimeoutMs: z.coerce.number().int().min(100).max(60_000).default(5000),
  email: z.email('must be an email address'),
};

/** The keys every service shares: where NATS, PostgreSQL live, and the port of its health endpoint. */
export const serviceEnvShape = {
  NODE_ENV: env.nodeEnv,
  LOG_LEVEL: env.logLevel,
  HOST: env.host,
  HEALTH_PORT: env.port(0),
  NATS_URL: env.natsUrl,
  DATABASE_URL: env.databaseUrl,
  /** How long a call to another service over NATS may take before it counts as unavailable. */
  RPC_TIMEOUT_MS: env.requestTimeoutMs,
  /** How long readiness stays 200 ("degraded") while PostgreSQL, NATS or Redis does not answer: a blip must not empty the Service. */
  READINESS_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
};
