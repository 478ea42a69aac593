/** Redis did not answer (down, restarting, or too slow): the caller answers 503 or fails open, never 500. */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

/** How long one Redis call may take before the request stops waiting for it. */
export const REDIS_CALL_TIMEOUT_MS = 1000;

/**
 * Runs one Redis operation with a time limit; whatever goes wrong (connection refused, closed, out of retries, too
 * slow) becomes a RedisUnavailableError carrying the cause.
 */
export async function redisCall<T>(operation: () => Promise<T>, timeoutMs = REDIS_CALL_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([operation(), timeout]);
  } catch (error) {
    throw new RedisUnavailableError('Redis is unavailable', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
