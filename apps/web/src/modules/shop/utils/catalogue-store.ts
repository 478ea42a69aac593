import type { CatalogueItem, CatalogueKind } from '@digicard/contracts';
import { fetchCatalogue } from '../api/catalogue';

export type CatalogueState =
  { readonly status: 'loading' } | { readonly status: 'loaded'; readonly items: readonly CatalogueItem[] } | { readonly status: 'failed' };

type Listener = () => void;

/**
 * The shop's catalogue, read once per page load and shared by every component that shows it (the list is small
 * and changes rarely; the browser may also cache the answer for 5 minutes). A failed read is tried again only when
 * the user asks ("Try again").
 */
let state: CatalogueState = { status: 'loading' };
let request: Promise<void> | null = null;
const listeners = new Set<Listener>();

function set(next: CatalogueState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const catalogueStore = {
  get: (): CatalogueState => state,
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Starts the one read of this page load; later calls share it. */
  load: (): Promise<void> => {
    request ??= fetchCatalogue().then((result) => {
      set(result.ok ? { status: 'loaded', items: result.data.items } : { status: 'failed' });
    });
    return request;
  },
  /**
   * The catalogue the page arrived with (the gateway renders the marketing pages with the catalogue it read from
   * orders and embeds it in the page): no request then, and the first render matches the server's.
   */
  prime: (items: readonly CatalogueItem[]): void => {
    request = Promise.resolve();
    set({ status: 'loaded', items });
  },
  /** Back to "not read yet" (the server renders each page afresh). */
  reset: (): void => {
    request = null;
    set({ status: 'loading' });
  },
  /** After a failure: reads the catalogue again ("Loading..." meanwhile). */
  retry: (): Promise<void> => {
    if (state.status !== 'failed') return request ?? catalogueStore.load();
    request = null;
    set({ status: 'loading' });
    return catalogueStore.load();
  },
};

/** The items of one kind, in the catalogue's order. */
export function itemsOfKind(items: readonly CatalogueItem[], kind: CatalogueKind): CatalogueItem[] {
  return items.filter((item) => item.kind === kind);
}

/** One item of the given kind, or undefined (the page then says "Card not found"). */
export function findItem(items: readonly CatalogueItem[], kind: CatalogueKind, id: string | undefined): CatalogueItem | undefined {
  return items.find((item) => item.kind === kind && item.id === id);
}
