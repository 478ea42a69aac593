import { useEffect, useSyncExternalStore } from 'react';
import { plansStore, type PlansState } from '../utils/plans-store';

/**
 * The plans payments serves: `{ status: 'loading' }`, `{ status: 'loaded', plans }` or `{ status: 'failed' }`. The
 * first component that asks starts the one request of the page load (none on a page rendered with them).
 */
export function usePlans(): PlansState {
  const state = useSyncExternalStore(plansStore.subscribe, plansStore.get, plansStore.get);
  useEffect(() => {
    void plansStore.load();
  }, []);
  return state;
}
