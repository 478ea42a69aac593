import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DEFAULTS } from '@digicard/testing';

/** The orders service's environment in a test: its `proof-render` queue under a prefix of this file's own. */
export function ordersEnv(): { env: Record<string, string>; cleanUp(): Promise<void> } {
  const prefix = `u-orders-${randomBytes(4).toString('hex')}`;
  return {
    env: { REDIS_URL: DEFAULTS.redisUrl, QUEUE_PREFIX: prefix, PUBLIC_URL: 'http://cards.digicard.test', PROOF_RENDER_BACKOFF_MS: '50' },
    async cleanUp() {
      const redis = new Redis(DEFAULTS.redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
}
