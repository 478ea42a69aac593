import { useEffect, useSyncExternalStore } from 'react';
import { catalogueStore, type CatalogueState } from '../utils/catalogue-store';

/**
 * The shop's catalogue: `{ status: 'loading' }`, `{ status: 'loaded', items }` or `{ status: 'failed' }`. The first
 * component that asks starts the one request of the page load; every other one shares its answer.
 */
export function useCatalogue(): CatalogueState {
  const state = useSyncExternalStore(catalogueStore.subscribe, catalogueStore.get, catalogueStore.get);
  useEffect(() => {
    void catalogueStore.load();
  }, []);
  return state;
}
