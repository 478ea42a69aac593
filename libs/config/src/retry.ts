export interface RetryOptions {
  /** Tries at most this many times in all (the first included). */
  attempts?: number;
  /** Gives up once this long has passed since the first try (the last error is thrown). */
  forMs?: number;
  /** The wait before try n + 1 (n from 1); 100 ms growing by 100 ms up to 2 s by default. */
  delayMs?: (attempt: number) => number;
  /** Whether an error is worth trying again; anything else is thrown at once. Every error by default. */
  retryOn?: (error: unknown) => boolean;
  /** Called before each wait, with the error and the attempt that failed (to log the first one, say). */
  onRetry?: (error: unknown, attempt: number) => void;
}

const defaultDelay = (attempt: number): number => Math.min(2000, 100 * attempt);

/**
 * Runs `work` again while it fails with an error `retryOn` accepts, until it succeeds, `attempts` tries have been
 * made or `forMs` has passed; then the last error is thrown. At least one of `attempts` and `forMs` bounds it.
 */
export async function retry<T>(work: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const {
    attempts = Number.POSITIVE_INFINITY,
    forMs = Number.POSITIVE_INFINITY,
    delayMs = defaultDelay,
    retryOn = () => true,
    onRetry,
  } = options;
  if (!Number.isFinite(attempts) && !Number.isFinite(forMs)) throw new Error('retry needs attempts or forMs');
  const deadline = Date.now() + forMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (!retryOn(error) || attempt >= attempts || Date.now() > deadline) throw error;
      onRetry?.(error, attempt);
      await new Promise((resolve) => setTimeout(resolve, delayMs(attempt)));
    }
  }
}
