import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { HttpResult } from './http';

/**
 * A change through the fetch helper as a TanStack mutation: `mutateAsync(args)` answers the helper's result (a
 * refusal is an answer the form puts on its fields, not a thrown error); once it succeeded, `onOk` brings the queries
 * it changed up to date (`invalidateQueries`: read again where shown; `setQueryData`: what the server answered).
 */
export function useApiMutation<A, T>(send: (args: A) => Promise<HttpResult<T>>, onOk: (data: T, client: QueryClient, args: A) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (result, args) => {
      if (result.ok) onOk(result.data, client, args);
    },
  });
}
