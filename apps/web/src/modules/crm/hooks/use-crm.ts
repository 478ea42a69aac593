import { useCallback, useState } from 'react';
import type { WebhookDelivery, WebhookDeliveryList, WebhookSettings } from '@digicard/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../../api/use-api-mutation';
import { useOwnerData } from '../../api/use-owner-data';
import { useOwnerPages } from '../../api/use-owner-pages';
import { fetchWebhook, fetchWebhookDeliveries, rotateWebhookSecret, saveWebhook, sendTestWebhook } from '../api/crm';

export const CRM_FAILED_MESSAGE = 'We could not load your CRM settings. Please try again in a minute.';
export const DELIVERIES_FAILED_MESSAGE = 'We could not load the delivery log. Please try again in a minute.';
/** How often the open log is read again (deliveries are retried in the background). */
export const DELIVERY_LOG_REFRESH_MS = 4000;

export const CrmQueries = { webhook: ['crm', 'webhook'], deliveries: ['crm', 'deliveries'] } as const;

/** A change of the webhook answers its settings as they are now: they are shown at once (no second read). */
const showSettings = (settings: WebhookSettings, client: QueryClient) => client.setQueryData(CrmQueries.webhook, settings);

export function useWebhookSettings() {
  return useOwnerData<WebhookSettings>(CrmQueries.webhook, fetchWebhook, CRM_FAILED_MESSAGE);
}

/**
 * The delivery log a page at a time, its first page read again every few seconds while it is shown; once the owner
 * has loaded more pages it is no longer read again (that would cut it back to its first page under their eyes).
 */
export function useWebhookDeliveries() {
  const [extended, setExtended] = useState(false);
  const pages = useOwnerPages<'deliveries', WebhookDelivery, WebhookDeliveryList>(
    CrmQueries.deliveries,
    'deliveries',
    fetchWebhookDeliveries,
    DELIVERIES_FAILED_MESSAGE,
    extended ? {} : { refetchInterval: DELIVERY_LOG_REFRESH_MS },
  );
  const { loadMore } = pages;
  const loadMoreKeeping = useCallback(() => {
    setExtended(true);
    return loadMore();
  }, [loadMore]);
  return { ...pages, loadMore: loadMoreKeeping };
}

export const useSaveWebhook = () => useApiMutation(saveWebhook, showSettings);
export const useRotateWebhookSecret = () => useApiMutation(() => rotateWebhookSecret(), showSettings);
/** A test lead is a new delivery: the log is read again at once. */
export const useSendTestWebhook = () =>
  useApiMutation(
    () => sendTestWebhook(),
    (_data, client) => void client.invalidateQueries({ queryKey: CrmQueries.deliveries }),
  );
