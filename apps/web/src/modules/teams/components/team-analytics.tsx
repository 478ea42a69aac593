import { type AnalyticsRange, type TeamAnalyticsReport } from '@digicard/contracts';
import { Button } from '@digicard/ui';
import { useState } from 'react';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { teamAnalyticsCsvUrl } from '../api/teams';
import { useTeamAnalytics } from '../hooks/use-team';
import { RangeFields, useRangeForm } from '../../analytics/components/range-fields';
import '../../analytics/analytics.css';

const dayLabel = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeZone: 'UTC' });
const readable = (day: string): string => dayLabel.format(new Date(`${day}T00:00:00Z`));

type Rep = TeamAnalyticsReport['reps'][number];
const COLUMNS: Array<{ key: keyof TeamAnalyticsReport['totals']; label: string }> = [
  { key: 'views', label: 'Views' },
  { key: 'saves', label: 'Saved to contacts' },
  { key: 'leads', label: 'Leads' },
  { key: 'visitors', label: 'Unique visitors' },
  { key: 'clicks', label: 'Clicks' },
];

/**
 * The leader view: for the same periods as the Analytics tab (the last 30 days, or a chosen range), each rep's
 * views, Save to Contact and leads at a glance (numbers with proportional bars), the team's totals, the full numbers
 * as a table, and a CSV download (every rep). The reps come a page at a time, in the order they joined ("Load more
 * reps’ numbers"); the totals are the whole team's from the first page. No <form>: the section sits inside the editor's form.
 */
export function TeamAnalytics() {
  const [range, setRange] = useState<AnalyticsRange>({});
  const { state, retry, hasMore, more, loadMore } = useTeamAnalytics(range);
  return (
    <section aria-labelledby="tm-analytics-title" className="tm-analytics">
      <h3 id="tm-analytics-title" className="tm-title">
        Your team’s numbers
      </h3>
      {state.status === 'loading' ? (
        <p role="status">Loading...</p>
      ) : state.status === 'failed' ? (
        <LoadFailed message={state.message} retry={retry} />
      ) : (
        <>
          <Report report={state.value} range={range} onRange={setRange} />
          <LoadMore list="reps’ numbers" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
        </>
      )}
    </section>
  );
}

function Report({
  report,
  range,
  onRange,
}: {
  report: TeamAnalyticsReport;
  range: AnalyticsRange;
  onRange: (range: AnalyticsRange) => void;
}) {
  const { form, show } = useRangeForm(report, onRange);
  const max = Math.max(1, ...report.reps.map((r) => r.views));
  return (
    <>
      <p className="pe-subtitle">
        {readable(report.from)} – {readable(report.to)}
      </p>
      <div className="an-range">
        <RangeFields form={form} />
        <Button type="button" variant="secondary" onClick={() => void show()}>
          Show
        </Button>
        <a
          className="button-link button-link--secondary"
          href={teamAnalyticsCsvUrl(range.from ? range : { from: report.from, to: report.to })}
          download
        >
          Download CSV
        </a>
      </div>
      <dl className="an-totals" aria-label="Team totals">
        {COLUMNS.slice(0, 3).map(({ key, label }) => (
          <div key={key} className="an-total">
            <dt>{`Team ${label.toLowerCase()}`}</dt>
            <dd>{report.totals[key]}</dd>
          </div>
        ))}
      </dl>
      {report.reps.length === 0 ? (
        <p className="pe-list__empty">No sales reps yet: their numbers show here once you add them.</p>
      ) : (
        <>
          <ul className="tm-rep-stats" aria-label="Numbers per rep">
            {report.reps.map((rep) => (
              <RepStats key={rep.accountId} rep={rep} max={max} />
            ))}
          </ul>
          <details className="an-table-toggle">
            <summary>Show the numbers as a table</summary>
            <div className="an-scroll">
              <table className="an-table">
                <caption className="ui-visually-hidden">Views, saves, leads, unique visitors and clicks per rep</caption>
                <thead>
                  <tr>
                    <th scope="col">Rep</th>
                    {COLUMNS.map((c) => (
                      <th key={c.key} scope="col">
                        {c.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {report.reps.map((rep) => (
                    <tr key={rep.accountId}>
                      <th scope="row">{`${rep.firstName} ${rep.lastName} (${rep.username})`}</th>
                      {COLUMNS.map((c) => (
                        <td key={c.key}>{rep[c.key]}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">Team total</th>
                    {COLUMNS.map((c) => (
                      <td key={c.key}>{report.totals[c.key]}</td>
                    ))}
                  </tr>
                </tfoot>
              </table>
            </div>
          </details>
        </>
      )}
    </>
  );
}

/** One rep at a glance: name, then views (with a bar against the busiest rep), saves and leads as numbers. */
function RepStats({ rep, max }: { rep: Rep; max: number }) {
  return (
    <li className="tm-rep-stat" aria-label={`${rep.firstName} ${rep.lastName}`}>
      <span className="tm-rep-stat__name">
        {`${rep.firstName} ${rep.lastName}`} <span className="tm-rep-stat__user">{rep.username}</span>
      </span>
      <span className="tm-rep-stat__bar" style={{ width: `${(rep.views / max) * 100}%` }} aria-hidden="true" />
      <dl className="tm-rep-stat__numbers">
        {COLUMNS.slice(0, 3).map(({ key, label }) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{rep[key]}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
