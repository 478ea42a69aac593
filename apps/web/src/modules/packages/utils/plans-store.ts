import type { Plan } from '@digicard/contracts';
import { fetchPlans } from '../api/plans';

export type PlansState =
  { readonly status: 'loading' } | { readonly status: 'loaded'; readonly plans: readonly Plan[] } | { readonly status: 'failed' };

type Listener = () => void;

/**
 * The membership plans as payments serves them (`GET /api/plans`), read once per page load and shared by every
 * component that shows a price. The marketing pages arrive with them (the gateway renders those pages with the plans
 * it read from payments and embeds them), so they show the prices without a request. A failed read leaves the prices
 * unshown; the next page load tries again.
 */
let state: PlansState = { status: 'loading' };
let request: Promise<void> | null = null;
const listeners = new Set<Listener>();

function set(next: PlansState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const plansStore = {
  get: (): PlansState => state,
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Starts the one read of this page load; later calls share it. */
  load: (): Promise<void> => {
    request ??= fetchPlans().then((result) => {
      set(result.ok ? { status: 'loaded', plans: result.data.plans } : { status: 'failed' });
    });
    return request;
  },
  /** The plans the page arrived with (rendered by the gateway): no request, and the first render matches the server's. */
  prime: (plans: readonly Plan[]): void => {
    request = Promise.resolve();
    set({ status: 'loaded', plans });
  },
  /** Back to "not read yet" (the server renders each page afresh). */
  reset: (): void => {
    request = null;
    set({ status: 'loading' });
  },
};
