import type { ApiError } from '@digicard/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { sessionStore } from '../session/utils/session-store';

/**
 * The server state of the signed-in pages (the dashboard's sections, the staff and print consoles) goes through
 * TanStack Query, and every query and mutation through the one fetch helper (`http.ts`: CSRF, the 403 retry, time-outs,
 * the network-failure answer). The defaults keep what the app did before it:
 * - `networkMode: 'always'`: a request is sent even when the browser says it is offline, so that the helper answers
 *   with its "We could not reach the server" failure (Query would otherwise wait, showing "Loading..." for ever);
 * - no retries (a 503 or a lost answer is said at once, with "Try again"), no refetch on window focus or reconnect
 *   (mobile data is expensive); a section still reads its data again each time it opens (`staleTime` 0).
 */
export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { networkMode: 'always', retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, staleTime: 0 },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}

export const queryClient = newQueryClient();

/**
 * The `meta` of a query of what every visitor sees alike (the catalogue, the plans): it is kept when the account
 * changes.
 */
export const EVERY_VISITOR = { everyVisitor: true } as const;

// What one account read is never shown to another: a sign-out, or another account signing in (in this tab or
// another one), empties the cache (but for what every visitor sees alike).
let accountId = sessionStore.get().user?.id ?? null;
sessionStore.subscribe((state) => {
  const next = state.user?.id ?? null;
  if (next === accountId) return;
  accountId = next;
  queryClient.removeQueries({ predicate: (query) => query.meta?.['everyVisitor'] !== true });
  queryClient.getMutationCache().clear();
});

/**
 * Gives the app's client to what it wraps: the whole app (`App`; the server renders each page with a client of its
 * own), and each lazily loaded part (the editor, the consoles) again, so that it has it when rendered alone (tests).
 */
export function QueryProvider({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** A failed call, as a query's or mutation's error: the helper's ApiError (status 0 when no answer came). */
export class ApiQueryError extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
    this.name = 'ApiQueryError';
  }
}
