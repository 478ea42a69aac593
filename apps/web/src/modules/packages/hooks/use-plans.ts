import type { Plan } from '@digicard/contracts';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { EVERY_VISITOR } from '../../api/query-client';
import { queryFnOf } from '../../api/use-owner-data';
import { fetchPlans } from '../api/plans';

export type PlansState =
  { readonly status: 'loading' } | { readonly status: 'loaded'; readonly plans: readonly Plan[] } | { readonly status: 'failed' };

export const PlansQueries = { plans: ['plans'] } as const;

const loadPlans = async (): Promise<readonly Plan[]> => (await queryFnOf(fetchPlans)()).plans;

/**
 * The membership plans as payments serves them (`GET /api/plans`): `{ status: 'loading' }`, `{ status: 'loaded',
 * plans }` or `{ status: 'failed' }`. A TanStack query read once per page load and shared by every component that shows
 * a price (never stale, never collected, kept when the account changes). The marketing pages arrive with them
 * (`initialData`, `setInitialPlans`: the gateway renders those pages with the plans it read from payments and embeds
 * them), so they show the prices without a request. A failed read leaves the prices unshown; the next page load tries
 * again.
 */
export function usePlans(): PlansState {
  const { status, data } = useQuery({
    queryKey: PlansQueries.plans,
    queryFn: loadPlans,
    staleTime: Infinity,
    gcTime: Infinity,
    retryOnMount: false,
    meta: EVERY_VISITOR,
  });
  return useMemo(
    () => (status === 'success' ? { status: 'loaded', plans: data } : status === 'error' ? { status: 'failed' } : { status: 'loading' }),
    [status, data],
  );
}

/** The plans the page arrived with (rendered by the gateway), as the query's `initialData` in `client`. */
export function setInitialPlans(client: QueryClient, plans: readonly Plan[]): void {
  client.setQueryDefaults(PlansQueries.plans, { initialData: plans });
}
