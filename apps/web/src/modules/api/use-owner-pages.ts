import type { ApiError } from '@digicard/contracts';
import type { QueryKey } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { refreshSession } from '../session/utils/session-actions';
import { useOwnerData, type OwnerDataOptions } from './use-owner-data';

/** A page of a list as the API answers it: the items under the list's name (`leads`, `orders`, `reps`) and the next page's cursor. */
export type Page<K extends string, T> = { [P in K]: T[] } & { nextCursor: string | null };

type LoadPage<V> = (cursor: string | null) => Promise<{ ok: true; data: V } | { ok: false; error: ApiError }>;

/**
 * A list of the signed-in owner (leads, orders, reps, the print queue) read a page at a time: the first page when the
 * section opens (as `useOwnerData` reads it, a query under `queryKey`), the next ones appended to the query's data by
 * `loadMore` (a "Load more" button, `LoadMore`); a refetch (an invalidation after a change) starts from the first page.
 * `more` says whether a next page is being read or failed to load; `hasMore` whether there is one. `retry` and
 * `refresh` start again from the first page.
 */
export function useOwnerPages<K extends string, T, V extends Page<K, T> = Page<K, T>>(
  queryKey: QueryKey,
  key: K,
  loadPage: LoadPage<V>,
  failedMessage: string,
  options: OwnerDataOptions<V> = {},
) {
  const first = useCallback(() => loadPage(null), [loadPage]);
  const data = useOwnerData<V>(queryKey, first, failedMessage, options);
  const [more, setMore] = useState<{ loading: boolean; failed: string | null }>({ loading: false, failed: null });
  const cursor = data.state.status === 'loaded' ? data.state.value.nextCursor : null;

  const loadMore = useCallback(async () => {
    if (!cursor) return;
    setMore({ loading: true, failed: null });
    const result = await loadPage(cursor);
    if (!result.ok) {
      if (result.error.statusCode === 401) void refreshSession();
      setMore({ loading: false, failed: result.error.statusCode === 0 ? result.error.message : failedMessage });
      return;
    }
    // Appended only to the list it continues (not to a list read again from its first page meanwhile).
    data.update((shown) =>
      shown.nextCursor === cursor ? { ...result.data, [key]: [...(shown[key] as T[]), ...(result.data[key] as T[])] } : shown,
    );
    setMore({ loading: false, failed: null });
  }, [cursor, data, failedMessage, key, loadPage]);

  return { ...data, hasMore: cursor !== null, more, loadMore };
}
