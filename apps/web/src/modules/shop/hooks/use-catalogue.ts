import type { CatalogueItem } from '@digicard/contracts';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { EVERY_VISITOR } from '../../api/query-client';
import { queryFnOf } from '../../api/use-owner-data';
import { fetchCatalogue } from '../api/catalogue';

export type CatalogueState =
  { readonly status: 'loading' } | { readonly status: 'loaded'; readonly items: readonly CatalogueItem[] } | { readonly status: 'failed' };

export const CatalogueQueries = { catalogue: ['catalogue'] } as const;

const loadCatalogue = async (): Promise<readonly CatalogueItem[]> => (await queryFnOf(fetchCatalogue)()).items;

/**
 * The shop's catalogue: `{ status: 'loading' }`, `{ status: 'loaded', items }` or `{ status: 'failed' }`. A TanStack
 * query read once per page load and shared by every component that shows it (the first that asks sends the one
 * request; the list is small and changes rarely, and the browser may also cache the answer for 5 minutes): never stale,
 * never collected, kept when the account changes. A failed read is tried again only when the user asks ("Try again",
 * `retryCatalogue`), not by the next page that shows it. A page the gateway rendered arrives with it (`initialData`,
 * `setInitialCatalogue`): no request then, and the first render matches the server's.
 */
export function useCatalogue(): CatalogueState {
  const { status, data } = useQuery({
    queryKey: CatalogueQueries.catalogue,
    queryFn: loadCatalogue,
    staleTime: Infinity,
    gcTime: Infinity,
    retryOnMount: false,
    meta: EVERY_VISITOR,
  });
  return useMemo(
    () => (status === 'success' ? { status: 'loaded', items: data } : status === 'error' ? { status: 'failed' } : { status: 'loading' }),
    [status, data],
  );
}

/** After a failure: reads the catalogue again ("Loading..." meanwhile); settles once it is read (or failed again). */
export const retryCatalogue = (client: QueryClient): Promise<void> =>
  client.resetQueries({ queryKey: CatalogueQueries.catalogue, exact: true });

/**
 * The catalogue the page arrived with (the gateway renders the marketing pages with the catalogue it read from orders
 * and embeds it in the page), as the query's `initialData` in `client`.
 */
export function setInitialCatalogue(client: QueryClient, items: readonly CatalogueItem[]): void {
  client.setQueryDefaults(CatalogueQueries.catalogue, { initialData: items });
}
