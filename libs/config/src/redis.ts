import { z } from 'zod';

/**
 * Where an app's Redis is: `REDIS_URL` alone names one server; with `REDIS_SENTINELS` set, the apps ask those
 * Sentinels which server is the primary of `REDIS_SENTINEL_NAME` (and ask again after a failover), and only the
 * user, password, database number and TLS of `REDIS_URL` still apply (its host and port are ignored).
 */
export const redisEnvShape = {
  REDIS_URL: z
    .string({ error: 'required, e.g. redis://127.0.0.1:6379' })
    .min(1, 'required, e.g. redis://127.0.0.1:6379')
    .refine((v) => {
      try {
        return ['redis:', 'rediss:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, 'must be a redis: or rediss: URL, e.g. redis://127.0.0.1:6379'),
  /** Comma-separated host:port of the Sentinels, e.g. `sentinel-0:26379,sentinel-1:26379,sentinel-2:26379`; empty: no Sentinel. */
  REDIS_SENTINELS: z
    .string()
    .default('')
    .refine(
      (v) => v.trim() === '' || v.split(',').every((s) => /^[^\s:,]+:\d{1,5}$/.test(s.trim())),
      'must be comma-separated host:port pairs, e.g. sentinel-0:26379,sentinel-1:26379',
    ),
  /** The name the Sentinels monitor the primary under (`sentinel monitor <name> ...`). */
  REDIS_SENTINEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default('digicard'),
};

export interface RedisEnv {
  REDIS_URL: string;
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_NAME?: string;
}

/** The connection options of ioredis (and so of BullMQ) for a RedisEnv; no ioredis import, so every lib can use it. */
export interface RedisConnectionOptions {
  host?: string;
  port?: number;
  sentinels?: Array<{ host: string; port: number }>;
  name?: string;
  username?: string;
  password?: string;
  db?: number;
  tls?: Record<string, never>;
  enableTLSForSentinelMode?: boolean;
}

export function parseSentinels(value: string | undefined): Array<{ host: string; port: number }> {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const at = s.lastIndexOf(':');
      return { host: s.slice(0, at), port: Number(s.slice(at + 1)) };
    });
}

/**
 * ioredis options for the app's Redis: one server from REDIS_URL, or through the Sentinels. Spread the client's own
 * options after these: `new Redis({ ...redisConnectionOptions(config), maxRetriesPerRequest: null })`.
 */
export function redisConnectionOptions(env: RedisEnv): RedisConnectionOptions {
  const url = new URL(env.REDIS_URL);
  const tls = url.protocol === 'rediss:';
  const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined;
  const auth = {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
  };
  const sentinels = parseSentinels(env.REDIS_SENTINELS);
  if (sentinels.length > 0)
    return { sentinels, name: env.REDIS_SENTINEL_NAME ?? 'digicard', ...auth, ...(tls ? { tls: {}, enableTLSForSentinelMode: true } : {}) };
  return { host: url.hostname || '127.0.0.1', port: Number(url.port || 6379), ...auth, ...(tls ? { tls: {} } : {}) };
}
