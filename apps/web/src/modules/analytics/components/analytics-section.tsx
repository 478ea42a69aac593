import { AnalyticsSources, AnalyticsUpgradeMessage, type AnalyticsRange, type AnalyticsReport } from '@digicard/contracts';
import { Button } from '@digicard/ui';
import { useState } from 'react';
import { LoadFailed } from '../../site/components/load-failed';
import { analyticsCsvUrl } from '../api/analytics';
import { useAnalytics } from '../hooks/use-analytics';
import { DailyChart, SOURCE_LABELS } from './daily-chart';
import { RangeFields, useRangeForm } from './range-fields';
import '../analytics.css';

const TOTALS: Array<{ key: keyof AnalyticsReport['totals']; label: string }> = [
  { key: 'views', label: 'Views' },
  { key: 'visitors', label: 'Unique visitors' },
  { key: 'saves', label: 'Saved to contacts' },
  { key: 'clicks', label: 'Clicks' },
  { key: 'leads', label: 'Leads' },
];

/** A click target as people read it. */
export function targetLabel(target: string): string {
  const [kind, name = ''] = target.split(':');
  if (kind === 'website') return `Website button ${Number(name) + 1}`;
  if (kind === 'social') return `Social link: ${name}`;
  if (kind === 'share') return name === 'wa' ? 'Share on WhatsApp' : name === 'email' ? 'Share by email' : 'Share (phone’s share sheet)';
  return target;
}

const dayLabel = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeZone: 'UTC' });
const readable = (day: string): string => dayLabel.format(new Date(`${day}T00:00:00Z`));

/**
 * Analytics: every owner sees the last 30 days' totals; DigiPlatinum chooses the range and sees views per day by
 * source (chart and table), views per NFC card, clicks per button and link, and downloads the days as CSV.
 */
export function AnalyticsSection() {
  const [range, setRange] = useState<AnalyticsRange>({});
  const { state, retry } = useAnalytics(range);
  if (state.status === 'loading') return <p role="status">Loading...</p>;
  if (state.status === 'failed') return <LoadFailed message={state.message} retry={retry} />;
  const report = state.value;
  return (
    <div className="an">
      <h3 className="pe-subtitle">
        {readable(report.from)} – {readable(report.to)}
      </h3>
      <dl className="an-totals">
        {TOTALS.map(({ key, label }) => (
          <div key={key} className="an-total">
            <dt>{label}</dt>
            <dd>{report.totals[key]}</dd>
          </div>
        ))}
      </dl>
      {report.full ? (
        <FullReport report={report} range={range} onRange={setRange} />
      ) : (
        <p className="pe-note">
          {AnalyticsUpgradeMessage} See views by source (link, QR code, NFC card, WhatsApp, email) day by day, clicks on each button and
          link, any date range, and a CSV download.
        </p>
      )}
    </div>
  );
}

function FullReport({
  report,
  range,
  onRange,
}: {
  report: AnalyticsReport;
  range: AnalyticsRange;
  onRange: (range: AnalyticsRange) => void;
}) {
  const { form, show } = useRangeForm(report, onRange);
  return (
    <>
      <form className="an-range" onSubmit={(event) => void show(event)} noValidate>
        <RangeFields form={form} />
        <Button type="submit" variant="secondary">
          Show
        </Button>
        <a
          className="button-link button-link--secondary"
          href={analyticsCsvUrl(range.from ? range : { from: report.from, to: report.to })}
          download
        >
          Download CSV
        </a>
      </form>

      <h3 className="pe-subtitle">Views per day</h3>
      <DailyChart daily={report.daily} />
      <details className="an-table-toggle">
        <summary>Show the numbers as a table</summary>
        <div className="an-scroll">
          <table className="an-table">
            <caption className="ui-visually-hidden">Views per day by source, visitors, saves, clicks and leads</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Views</th>
                {AnalyticsSources.map((s) => (
                  <th key={s} scope="col">
                    {SOURCE_LABELS[s]}
                  </th>
                ))}
                <th scope="col">Visitors</th>
                <th scope="col">Saves</th>
                <th scope="col">Clicks</th>
                <th scope="col">Leads</th>
              </tr>
            </thead>
            <tbody>
              {report.daily.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{readable(d.day)}</th>
                  <td>{d.views}</td>
                  {AnalyticsSources.map((s) => (
                    <td key={s}>{d.bySource[s]}</td>
                  ))}
                  <td>{d.visitors}</td>
                  <td>{d.saves}</td>
                  <td>{d.clicks}</td>
                  <td>{d.leads}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>

      <div className="an-lists">
        <section aria-labelledby="an-sources">
          <h3 id="an-sources" className="pe-subtitle">
            Views by source
          </h3>
          <BarList rows={AnalyticsSources.map((s) => ({ label: SOURCE_LABELS[s], value: report.bySource[s] }))} empty="No views yet." />
        </section>
        <section aria-labelledby="an-cards">
          <h3 id="an-cards" className="pe-subtitle">
            Views per NFC card
          </h3>
          <BarList rows={report.cards.map((c) => ({ label: `Card ${c.serial}`, value: c.views }))} empty="No card taps yet." />
        </section>
        <section aria-labelledby="an-clicks">
          <h3 id="an-clicks" className="pe-subtitle">
            Clicks per button and link
          </h3>
          <BarList rows={report.clicks.map((c) => ({ label: targetLabel(c.target), value: c.count }))} empty="No clicks yet." />
        </section>
      </div>
    </>
  );
}

/** Label, number and a proportional bar (decoration: the number is the content). */
function BarList({ rows, empty }: { rows: Array<{ label: string; value: number }>; empty: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  if (rows.length === 0 || rows.every((r) => r.value === 0)) return <p className="pe-list__empty">{empty}</p>;
  return (
    <ul className="an-bars">
      {rows.map((row) => (
        <li key={row.label}>
          <span className="an-bars__label">{row.label}</span>
          <span className="an-bars__value">{row.value}</span>
          <span className="an-bars__bar" style={{ width: `${(row.value / max) * 100}%` }} aria-hidden="true" />
        </li>
      ))}
    </ul>
  );
}
