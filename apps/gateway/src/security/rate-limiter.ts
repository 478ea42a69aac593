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
  return new RateLimitedException(
    { statusCode: 429, code: ErrorCode.TooManyRequests, message: `Too many attempts. Please try again in ${when}.` },
    wait,
  );
};

/**
 * `countAttempt` in Redis. The wait after the last counted attempt: nothing within the burst (`limit` attempts), then
 * 1 s, 2 s, 4 s ... doubling with each further one, never more than the cap. While it lasts, nothing is counted;
 * after it, one more attempt is. KEYS[1] the hash {count, at}; ARGV now (ms), limit, cap (s), window (s).
 */
const COUNT_ATTEMPT = `
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or '0')
local now, limit, cap, first = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[5])
local backoff = 0
if count >= limit then backoff = math.min(cap, first * 2 ^ math.min(30, count - limit)) end
local wait = backoff * 1000 - (now - at)
if wait > 0 then return math.ceil(wait) end
redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HSET', KEYS[1], 'at', ARGV[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
return 0
`;

/**
 * Rate limits in Redis, shared by every gateway replica:
 * - `hit`: fixed-window counters of every request;
 * - `failures` (sign-in per account): every attempt is counted before the password is checked, a success clears the
 *   count (so only failures add up), and beyond the burst each
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
      const [[, counted]] = (await redisCall(() =>
        this.redis
          .multi()
          .incr(redisKey)
          .expire(redisKey, windowSeconds + 1)
          .exec(),
      )) as [[unknown, number]];
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

  /**
   * An attempt of `key`, counted as a failure before the password is checked, in one Redis script: 429 with
   * Retry-After while `key` must still wait after its last counted attempt (nothing counted then), else one more
   * counted. A success clears the count (`clearFailures`), so in effect only failures add up; counting first means
   * guesses sent in parallel cannot all pass the check before any of them is counted.
   */
  async countAttempt(bucket: string, key: string, { limit, windowSeconds }: Limit, whenUncounted: WhenUncounted = 'refuse'): Promise<void> {
    let waitMs: number;
    try {
      waitMs = Number(
        await redisCall(() =>
          this.redis.eval(
            COUNT_ATTEMPT,
            1,
            this.failuresKey(bucket, key),
            Date.now(),
            limit,
            this.config.RATE_LIMIT_LOGIN_BACKOFF_MAX_SECONDS,
            windowSeconds,
            this.config.RATE_LIMIT_LOGIN_BACKOFF_FIRST_SECONDS,
          ),
        ),
      );
    } catch (error) {
      if (!(error instanceof RedisUnavailableError) || whenUncounted === 'refuse') throw error;
      this.logger.warn({ bucket, err: error.cause }, 'rate limit not checked: Redis is unavailable; request allowed');
      return;
    }
    if (waitMs > 0) throw tooMany(waitMs / 1000, 'seconds');
  }

  /** A success: the failures of `key` are forgotten. */
  async clearFailures(bucket: string, key: string): Promise<void> {
    try {
      await redisCall(() => this.redis.del(this.failuresKey(bucket, key)));
    } catch (error) {
      this.logger.warn(
        { bucket, err: error instanceof RedisUnavailableError ? error.cause : error },
        'failures not cleared: Redis is unavailable',
      );
    }
  }
}
