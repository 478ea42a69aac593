import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from '@digicard/config';
import { ErrorCode, type ApiError, type RateLimitRule } from '@digicard/contracts';
import { ApiHttpException, CONFIG, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { RedisUnavailableError, redisCall } from '../redis/redis-call.js';
import { REDIS } from '../tokens.js';

export interface Limit {
  limit: number;
  windowSeconds: number;
}

/**
 * What a limit does while Redis cannot count: `allow` lets the request through with a warning in the log (forms
 * whose abuse costs little), `refuse` answers 503 with Retry-After (where counting protects a secret: sign-in, reset,
 * password confirmation). Each route's limits say which (`limits` in the route tables).
 */
export type WhenUncounted = RateLimitRule['whenUncounted'];

/** A 429 that says when to come back: the exception filter sends `retryAfterSeconds` as the Retry-After header. */
export class RateLimitedException extends ApiHttpException {
  constructor(
    body: ApiError,
    readonly retryAfterSeconds: number,
  ) {
    super(body);
  }
}

/** 429: "… in N minute(s)." for a fixed window (as it always said), "… in N second(s)." for a short back-off. */
const tooMany = (retryAfterSeconds: number, unit: 'minutes' | 'seconds' = 'minutes'): RateLimitedException => {
  const wait = Math.max(1, Math.ceil(retryAfterSeconds));
  const when = unit === 'seconds' && wait < 60 ? `${wait} second(s)` : `${Math.ceil(wait / 60)} minute(s)`;
  return new RateLimitedException({ statusCode: 429, code: ErrorCode.TooManyRequests, message: `Too many attempts. Please try again in ${when}.` }, wait);
};

/**
 * How long to wait after the last failure, once `failures` have been counted: nothing within the burst (`limit`), then
 * 1 s, 2 s, 4 s ... doubling with each further failure, never more than `maxSeconds`.
 */
export function backoffSeconds(failures: number, limit: number, maxSeconds: number): number {
  if (failures < limit) return 0;
  return Math.min(maxSeconds, 2 ** Math.min(30, failures - limit));
}

/**
 * Rate limits in Redis, shared by every gateway replica:
 * - `hit`: fixed-window counters of every request;
 * - `failures` (sign-in per account): only failed attempts count, a success clears them, and beyond the burst each
 *   further attempt waits a growing, capped delay after the last failure instead of a long lock-out, so whoever
 *   guesses is slowed to a crawl while the real owner, after at most the cap, can still sign in.
 */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Counts one hit of `bucket` for `key`; throws 429 with Retry-After when over the limit. */
  async hit(bucket: string, key: string, { limit, windowSeconds }: Limit, whenUncounted: WhenUncounted = 'allow'): Promise<void> {
    const window = Math.floor(Date.now() / 1000 / windowSeconds);
    const redisKey = `${this.config.REDIS_KEY_PREFIX}:rl:${bucket}:${key}:${window}`;
    let count: number;
    try {
      const [[, counted]] = (await redisCall(() => this.redis.multi().incr(redisKey).expire(redisKey, windowSeconds + 1).exec())) as [[unknown, number]];
      count = counted;
    } catch (error) {
      if (!(error instanceof RedisUnavailableError) || whenUncounted === 'refuse') throw error;
      this.logger.warn({ bucket, err: error.cause }, 'rate limit not counted: Redis is unavailable; request allowed');
      return;
    }
    if (count > limit) throw tooMany(windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds));
  }

  private failuresKey(bucket: string, key: string): string {
    return `${this.config.REDIS_KEY_PREFIX}:rl:${bucket}:${key}:failures`;
  }

  /** Throws 429 with Retry-After while `key` must still wait after its last failure; counts nothing. */
  async checkFailures(bucket: string, key: string, { limit }: Limit, whenUncounted: WhenUncounted = 'refuse'): Promise<void> {
    let failures: number;
    let lastAt: number;
    try {
      const [count, at] = await redisCall(() => this.redis.hmget(this.failuresKey(bucket, key), 'count', 'at'));
      failures = Number(count ?? 0);
      lastAt = Number(at ?? 0);
    } catch (error) {
      if (!(error instanceof RedisUnavailableError) || whenUncounted === 'refuse') throw error;
      this.logger.warn({ bucket, err: error.cause }, 'rate limit not checked: Redis is unavailable; request allowed');
      return;
    }
    const wait = backoffSeconds(failures, limit, this.config.RATE_LIMIT_LOGIN_BACKOFF_MAX_SECONDS) * 1000 - (Date.now() - lastAt);
    if (wait > 0) throw tooMany(wait / 1000, 'seconds');
  }

  /** One more failure of `key`; the count is forgotten after a quiet window. Best effort: logged if Redis is away. */
  async recordFailure(bucket: string, key: string, { windowSeconds }: Limit): Promise<void> {
    const redisKey = this.failuresKey(bucket, key);
    try {
      await redisCall(() => this.redis.multi().hincrby(redisKey, 'count', 1).hset(redisKey, 'at', String(Date.now())).expire(redisKey, windowSeconds).exec());
    } catch (error) {
      this.logger.warn({ bucket, err: error instanceof RedisUnavailableError ? error.cause : error }, 'failed attempt not counted: Redis is unavailable');
    }
  }

  /** A success: the failures of `key` are forgotten. */
  async clearFailures(bucket: string, key: string): Promise<void> {
    try {
      await redisCall(() => this.redis.del(this.failuresKey(bucket, key)));
    } catch (error) {
      this.logger.warn({ bucket, err: error instanceof RedisUnavailableError ? error.cause : error }, 'failures not cleared: Redis is unavailable');
    }
  }
}
