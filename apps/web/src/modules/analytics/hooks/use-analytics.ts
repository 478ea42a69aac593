import { useCallback } from 'react';
import type { AnalyticsRange, AnalyticsReport } from '@digicard/contracts';
import { useOwnerData } from '../../api/use-owner-data';
import { fetchAnalytics } from '../api/analytics';

export const ANALYTICS_FAILED_MESSAGE = 'We could not load your analytics. Please try again in a minute.';

/** The owner's analytics for a range (GET /api/analytics), read again when the range changes. */
export function useAnalytics(range: AnalyticsRange) {
  const { from, to } = range;
  const load = useCallback(() => fetchAnalytics({ from, to }), [from, to]);
  return useOwnerData<AnalyticsReport>(['analytics', from ?? '', to ?? ''], load, ANALYTICS_FAILED_MESSAGE);
}
