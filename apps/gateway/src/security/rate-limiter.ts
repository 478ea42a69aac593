import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ErrorCode } from '@digicard/contracts';
import { ApiHttpException, CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { REDIS } from '../tokens.js';

export interface Limit {
  limit: number;
  windowSeconds: number;
}

/** Fixed-window counters in Redis, shared by every gateway replica. */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Counts one hit of `bucket` for `key`; throws 429 with Retry-After when over the limit. */
  async hit(bucket: string, key: string, { limit, windowSeconds }: Limit): Promise<void> {
    const window = Math.floor(Date.now() / 1000 / windowSeconds);
    const redisKey = `${this.config.REDIS_KEY_PREFIX}:rl:${bucket}:${key}:${window}`;
    const [[, count]] = (await this.redis.multi().incr(redisKey).expire(redisKey, windowSeconds + 1).exec()) as [[unknown, number]];
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
