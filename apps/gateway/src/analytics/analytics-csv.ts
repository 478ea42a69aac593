import { AnalyticsSources, type AnalyticsReport, type TeamAnalyticsReport } from '@digicard/contracts';

const SOURCE_NAMES = {
  link: 'Link',
  qr: 'QR code',
  nfc: 'NFC card',
  wa: 'WhatsApp share',
  email: 'Email share',
  wallet: 'Wallet pass',
} as const;

/** One day a row: views (all, then by source), unique visitors, Save to Contact, clicks, leads. */
export function analyticsCsv(report: AnalyticsReport): string {
  const header = [
    'Date',
    'Views',
    ...AnalyticsSources.map((s) => `Views: ${SOURCE_NAMES[s]}`),
    'Unique visitors',
    'Saved to contacts',
    'Clicks',
    'Leads',
  ];
  const rows = report.daily.map((d) => [
    d.day,
    d.views,
    ...AnalyticsSources.map((s) => d.bySource[s]),
    d.visitors,
    d.saves,
    d.clicks,
    d.leads,
  ]);
  const t = report.totals;
  rows.push(['Total', t.views, ...AnalyticsSources.map((s) => report.bySource[s]), t.visitors, t.saves, t.clicks, t.leads]);
  return `\uFEFF${[header, ...rows].map((r) => r.join(',')).join('\r\n')}\r\n`;
}

/** A cell that could run as a spreadsheet formula (= + - @) is quoted as text; commas and quotes are escaped. */
const cell = (value: string | number): string => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The leader view: one rep a row (username, name, then the counts), and the team's totals. */
export function teamAnalyticsCsv(report: TeamAnalyticsReport): string {
  const header = ['Rep', 'Name', 'Views', 'Unique visitors', 'Saved to contacts', 'Clicks', 'Leads'];
  const rows: Array<Array<string | number>> = report.reps.map((r) => [
    r.username,
    `${r.firstName} ${r.lastName}`.trim(),
    r.views,
    r.visitors,
    r.saves,
    r.clicks,
    r.leads,
  ]);
  const t = report.totals;
  rows.push(['Team total', '', t.views, t.visitors, t.saves, t.clicks, t.leads]);
  return `\uFEFF${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}
