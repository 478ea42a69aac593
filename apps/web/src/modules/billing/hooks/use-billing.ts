import type { Billing, Order } from '@digicard/contracts';
import { useEffect, useState } from 'react';
import { refreshSession } from '../../session/utils/session-actions';
import { fetchBilling, fetchOrders } from '../api/billing';

export const BILLING_FAILED_MESSAGE = 'We could not load your billing details. Please try again in a minute.';

export type Loaded<T> = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; value: T };

/** Reads something of the signed-in owner each time the section opens; `retry` reads it again. */
function useOwnerData<T>(load: () => Promise<{ ok: true; data: T } | { ok: false; error: { statusCode: number; message: string } }>): {
  state: Loaded<T>;
  retry: () => void;
  replace: (value: T) => void;
} {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    void load().then((result) => {
      if (!current) return;
      if (result.ok) setState({ status: 'loaded', value: result.data });
      else {
        if (result.error.statusCode === 401) void refreshSession();
        setState({ status: 'failed', message: result.error.statusCode === 0 ? result.error.message : BILLING_FAILED_MESSAGE });
      }
    });
    return () => {
      current = false;
    };
    // `load` is one of the module's fetch functions: the same on every render.
  }, [attempt, load]);
  return {
    state,
    retry: () => {
      setState({ status: 'loading' });
      setAttempt((count) => count + 1);
    },
    replace: (value: T) => setState({ status: 'loaded', value }),
  };
}

export const useBilling = () => useOwnerData<Billing>(fetchBilling);
export const useOrders = () => useOwnerData<{ orders: Order[] }>(fetchOrders);
