import { AnalyticsSources, type AnalyticsReport } from '@digicard/contracts';

const SOURCE_NAMES = { link: 'Link', qr: 'QR code', nfc: 'NFC card', wa: 'WhatsApp share', email: 'Email share' } as const;

/** One day a row: views (all, then by source), unique visitors, Save to Contact, clicks, leads. */
export function analyticsCsv(report: AnalyticsReport): string {
  const header = ['Date', 'Views', ...AnalyticsSources.map((s) => `Views: ${SOURCE_NAMES[s]}`), 'Unique visitors', 'Saved to contacts', 'Clicks', 'Leads'];
  const rows = report.daily.map((d) => [d.day, d.views, ...AnalyticsSources.map((s) => d.bySource[s]), d.visitors, d.saves, d.clicks, d.leads]);
  const t = report.totals;
  rows.push(['Total', t.views, ...AnalyticsSources.map((s) => report.bySource[s]), t.visitors, t.saves, t.clicks, t.leads]);
  return `\uFEFF${[header, ...rows].map((r) => r.join(',')).join('\r\n')}\r\n`;
}
