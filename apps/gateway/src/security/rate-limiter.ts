import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from '@digicard/config';
import { ErrorCode, type RateLimitRule } from '@digicard/contracts';
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

/** Fixed-window counters in Redis, shared by every gateway replica. */
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
    if (count > limit) {
      const retryAfter = windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);
      throw new ApiHttpException({
        statusCode: 429,
        code: ErrorCode.TooManyRequests,
        message: `Too many attempts. Please try again in ${Math.max(1, Math.ceil(retryAfter / 60))} minute(s).`,
      });
    }
  }
}
