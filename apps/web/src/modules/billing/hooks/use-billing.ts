import type { Billing, Order } from '@digicard/contracts';
import { useOwnerData } from '../../api/use-owner-data';
import { useOwnerPages } from '../../api/use-owner-pages';
import { fetchBilling, fetchOrders } from '../api/billing';

export const BILLING_FAILED_MESSAGE = 'We could not load your billing details. Please try again in a minute.';
export const ORDERS_FAILED_MESSAGE = 'We could not load your orders. Please try again in a minute.';

export const useBilling = () => useOwnerData<Billing>(['billing'], fetchBilling, BILLING_FAILED_MESSAGE);
export const useOrders = () => useOwnerPages<'orders', Order>(['orders'], 'orders', fetchOrders, ORDERS_FAILED_MESSAGE);
