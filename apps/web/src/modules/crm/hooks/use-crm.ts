import { useCallback, useEffect, useState } from 'react';
import type { WebhookDelivery, WebhookDeliveryList, WebhookSettings } from '@digicard/contracts';
import { useOwnerData } from '../../api/use-owner-data';
import { useOwnerPages } from '../../api/use-owner-pages';
import { fetchWebhook, fetchWebhookDeliveries } from '../api/crm';

export const CRM_FAILED_MESSAGE = 'We could not load your CRM settings. Please try again in a minute.';
export const DELIVERIES_FAILED_MESSAGE = 'We could not load the delivery log. Please try again in a minute.';
/** How often the open log is read again (deliveries are retried in the background). */
export const DELIVERY_LOG_REFRESH_MS = 4000;

export function useWebhookSettings() {
  return useOwnerData<WebhookSettings>(fetchWebhook, CRM_FAILED_MESSAGE);
}

/**
 * The delivery log a page at a time, its first page read again every few seconds while it is shown; once the owner
 * has loaded more pages it is no longer read again (that would cut it back to its first page under their eyes).
 */
export function useWebhookDeliveries() {
  const pages = useOwnerPages<'deliveries', WebhookDelivery, WebhookDeliveryList>(
    'deliveries',
    fetchWebhookDeliveries,
    DELIVERIES_FAILED_MESSAGE,
  );
  const [extended, setExtended] = useState(false);
  const { refresh, loadMore } = pages;
  useEffect(() => {
    if (extended) return;
    const timer = setInterval(refresh, DELIVERY_LOG_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh, extended]);
  const loadMoreKeeping = useCallback(() => {
    setExtended(true);
    return loadMore();
  }, [loadMore]);
  return { ...pages, loadMore: loadMoreKeeping };
}
