import type { ApiError } from '@digicard/contracts';
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import { refreshSession } from '../session/utils/session-actions';
import { ApiQueryError } from './query-client';

export type Loaded<T> = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; value: T };

type Load<T> = () => Promise<{ ok: true; data: T } | { ok: false; error: ApiError }>;

/** A helper call as a query function: its data, or an ApiQueryError (a 401 first reads the session again). */
export function queryFnOf<T>(load: Load<T>): () => Promise<T> {
  return async () => {
    const result = await load();
    if (result.ok) return result.data;
    // The session ended: it is read again, so the page shows the signed-out state.
    if (result.error.statusCode === 401) void refreshSession();
    throw new ApiQueryError(result.error);
  };
}

/** What a section says when its data did not load: a network failure says so; any other failure `failedMessage`. */
export function failureMessage(error: unknown, failedMessage: string): string {
  return error instanceof ApiQueryError && error.apiError.statusCode === 0 ? error.apiError.message : failedMessage;
}

export interface OwnerDataOptions<T = unknown> {
  /**
   * Read again every so many ms while shown (and while the tab is visible): a log that changes in the background. Or a
   * function of what was read last, `false` to stop (Billing reads again only while a payment awaits PayFast).
   */
  readonly refetchInterval?: number | ((data: T | undefined) => number | false);
}

/**
 * Something of the signed-in owner (leads, billing, orders), a TanStack query under `key` (see `query-client.tsx`),
 * read each time the section that shows it opens ("Loading..." until then: what an earlier visit read is not shown). `retry` reads it again from
 * "Loading..."; `refresh` reads it again without showing "Loading" meanwhile; `replace` shows what a change answered
 * with (`update`: a change of what is shown now). A 401 means the session ended: it is read again, so the page shows
 * the signed-out state. A network failure says so; any other failure says `failedMessage`.
 */
export function useOwnerData<T>(
  key: QueryKey,
  load: Load<T>,
  failedMessage: string,
  options: OwnerDataOptions<T> = {},
): { state: Loaded<T>; retry: () => void; refresh: () => void; replace: (value: T) => void; update: (change: (value: T) => T) => void } {
  const client = useQueryClient();
  const { refetchInterval } = options;
  const query = useQuery<T, Error, T>({
    queryKey: key,
    queryFn: queryFnOf(load),
    refetchInterval: typeof refetchInterval === 'function' ? (q) => refetchInterval(q.state.data) : refetchInterval,
  });
  // The key as it is now, one function while its contents stay the same (callers build the key inline).
  const hash = JSON.stringify(key);
  const stableKey = useCallback(() => JSON.parse(hash) as QueryKey, [hash]);

  // A section that opens shows "Loading..." until its own read is in, never what an earlier visit read (the numbers
  // could be old); a read again while it is open (after a change, polling) shows what it had meanwhile.
  const opening = query.isFetching && !query.isFetchedAfterMount;
  const state: Loaded<T> =
    query.status === 'pending' || opening
      ? { status: 'loading' }
      : query.status === 'error'
        ? { status: 'failed', message: failureMessage(query.error, failedMessage) }
        : { status: 'loaded', value: query.data };

  const retry = useCallback(() => void client.resetQueries({ queryKey: stableKey(), exact: true }), [client, stableKey]);
  const refresh = useCallback(() => void client.refetchQueries({ queryKey: stableKey(), exact: true }), [client, stableKey]);
  const replace = useCallback((value: T) => client.setQueryData<T>(stableKey(), value), [client, stableKey]);
  // A change of what is shown now (a page appended), whatever else changed meanwhile; nothing while not loaded.
  const update = useCallback(
    (change: (value: T) => T) => client.setQueryData<T>(stableKey(), (shown) => (shown === undefined ? shown : change(shown))),
    [client, stableKey],
  );
  return { state, retry, refresh, replace, update };
}
