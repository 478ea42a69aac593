import { HttpRoutes, type AnalyticsRange } from '@digicard/contracts';
import { getJsonWithQuery } from '../../api/http';

/** GET /api/analytics: the last 30 days' totals, or (DigiPlatinum) the range in full; 403 for a range below it. */
export function fetchAnalytics(range: AnalyticsRange) {
  return getJsonWithQuery(HttpRoutes.getAnalytics, { from: range.from ?? '', to: range.to ?? '' });
}

/** The CSV download of a range (opened in the browser with the session cookie). */
export function analyticsCsvUrl(range: AnalyticsRange): string {
  const search = new URLSearchParams(Object.entries(range).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return search ? `${HttpRoutes.exportAnalytics.path}?${search}` : HttpRoutes.exportAnalytics.path;
}
