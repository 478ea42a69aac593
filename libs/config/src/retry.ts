export interface RetryOptions {
  /** Tries at most this many times in all (the first included). */
  attempts?: number;
  /** Gives up once this long has passed since the first try (the last error is thrown). */
  forMs?: number;
  /** The wait before try n + 1 (n from 1); 100 ms growing by 100 ms up to 2 s by default. */
  delayMs?: (attempt: number) => number;
  /**
   * Whether an error of try `attempt` is worth trying again; anything else is thrown at once. Every error by default.
   * Called before `delayMs` for the same attempt.
   */
  retryOn?: (error: unknown, attempt: number) => boolean;
  /** Called before each wait, with the error and the attempt that failed (to log the first one, say). */
  onRetry?: (error: unknown, attempt: number) => void;
  /**
   * Stops the retries when aborted (a service shutting down): a wait under way ends at once, no further try is made
   * and the last error is thrown. A background task that tries until it is stopped gives this instead of a bound.
   */
  signal?: AbortSignal;
}

const defaultDelay = (attempt: number): number => Math.min(2000, 100 * attempt);

/** Waits `ms`, or less when `signal` is aborted meanwhile. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `work` again while it fails with an error `retryOn` accepts, until it succeeds, `attempts` tries have been
 * made, `forMs` has passed or `signal` is aborted; then the last error is thrown. At least one of `attempts`, `forMs`
 * and `signal` bounds it. The one retry loop of the code base: write no other.
 */
export async function retry<T>(work: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const {
    attempts = Number.POSITIVE_INFINITY,
    forMs = Number.POSITIVE_INFINITY,
    delayMs = defaultDelay,
    retryOn = () => true,
    onRetry,
    signal,
  } = options;
  if (!Number.isFinite(attempts) && !Number.isFinite(forMs) && !signal) throw new Error('retry needs attempts or forMs');
  const deadline = Date.now() + forMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (!retryOn(error, attempt) || attempt >= attempts || Date.now() > deadline || signal?.aborted) throw error;
      onRetry?.(error, attempt);
      await pause(delayMs(attempt), signal);
      if (signal?.aborted) throw error;
    }
  }
}
