import type { Billing, Order } from '@digicard/contracts';
import { useOwnerData } from '../../api/use-owner-data';
import { useOwnerPages } from '../../api/use-owner-pages';
import { fetchBilling, fetchOrders } from '../api/billing';

export const BILLING_FAILED_MESSAGE = 'We could not load your billing details. Please try again in a minute.';
export const ORDERS_FAILED_MESSAGE = 'We could not load your orders. Please try again in a minute.';

/** How often Billing is read again while a first payment awaits PayFast's notification. */
export const PENDING_POLL_MS = 2000;

/**
 * Billing, read again every `PENDING_POLL_MS` while its subscription is pending (the owner is just back from PayFast),
 * until the notification has made it active (or failed). A read that answers the same as the last keeps the same
 * object (the query's structural sharing), so the polling is the query's own, not an effect's on each new answer.
 */
export const useBilling = () =>
  useOwnerData<Billing>(['billing'], fetchBilling, BILLING_FAILED_MESSAGE, {
    refetchInterval: (billing) => (billing?.subscription?.status === 'pending' ? PENDING_POLL_MS : false),
  });
export const useOrders = () => useOwnerPages<'orders', Order>(['orders'], 'orders', fetchOrders, ORDERS_FAILED_MESSAGE);
