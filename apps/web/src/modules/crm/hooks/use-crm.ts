import { useEffect } from 'react';
import type { WebhookDeliveryList, WebhookSettings } from '@digicard/contracts';
import { useOwnerData } from '../../api/use-owner-data';
import { fetchWebhook, fetchWebhookDeliveries } from '../api/crm';

export const CRM_FAILED_MESSAGE = 'We could not load your CRM settings. Please try again in a minute.';
export const DELIVERIES_FAILED_MESSAGE = 'We could not load the delivery log. Please try again in a minute.';
/** How often the open log is read again (deliveries are retried in the background). */
export const DELIVERY_LOG_REFRESH_MS = 4000;

export function useWebhookSettings() {
  return useOwnerData<WebhookSettings>(fetchWebhook, CRM_FAILED_MESSAGE);
}

/** The delivery log, read again every few seconds while it is shown. */
export function useWebhookDeliveries() {
  const data = useOwnerData<WebhookDeliveryList>(fetchWebhookDeliveries, DELIVERIES_FAILED_MESSAGE);
  const { refresh } = data;
  useEffect(() => {
    const timer = setInterval(refresh, DELIVERY_LOG_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);
  return data;
}
