import { AnalyticsSources, type AnalyticsReport, type AnalyticsSource } from '@digicard/contracts';

export const SOURCE_LABELS: Record<AnalyticsSource, string> = {
  link: 'Link',
  qr: 'QR code',
  nfc: 'NFC card',
  wa: 'WhatsApp',
  email: 'Email',
  wallet: 'Wallet pass',
};
/** Colours told apart by people with the common colour-vision deficiencies (Okabe-Ito), each with a text label. */
export const SOURCE_COLOURS: Record<AnalyticsSource, string> = {
  link: '#0072B2',
  qr: '#E69F00',
  nfc: '#009E73',
  wa: '#56B4E9',
  email: '#CC79A7',
  wallet: '#D55E00',
};

const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 32;
const BOTTOM = 22;

const shortDate = new Intl.DateTimeFormat('en-ZA', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const label = (day: string): string => shortDate.format(new Date(`${day}T00:00:00Z`));

/**
 * Views per day as stacked bars by source, drawn as plain SVG (no chart library on the wire). The picture is
 * described for screen readers; the table below it carries the same numbers.
 */
export function DailyChart({ daily }: { daily: AnalyticsReport['daily'] }) {
  const max = Math.max(1, ...daily.map((d) => d.views));
  const step = (WIDTH - LEFT) / Math.max(1, daily.length);
  const bar = Math.max(2, step * 0.7);
  const scale = (HEIGHT - BOTTOM - 8) / max;
  const every = Math.ceil(daily.length / 8);
  const total = daily.reduce((sum, d) => sum + d.views, 0);
  const busiest = daily.reduce<AnalyticsReport['daily'][number] | null>((best, d) => (!best || d.views > best.views ? d : best), null);
  const description = `Views per day from ${label(daily[0]?.day ?? '')} to ${label(daily.at(-1)?.day ?? '')}: ${total} in all${
    busiest && busiest.views > 0 ? `, most on ${label(busiest.day)} (${busiest.views})` : ''
  }.`;
  return (
    <figure className="an-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={description} preserveAspectRatio="none">
        <line x1={LEFT} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} className="an-chart__axis" />
        <text x={LEFT - 4} y={12} textAnchor="end" className="an-chart__tick">
          {max}
        </text>
        <text x={LEFT - 4} y={HEIGHT - BOTTOM} textAnchor="end" className="an-chart__tick">
          0
        </text>
        {daily.map((d, i) => {
          let y = HEIGHT - BOTTOM;
          const x = LEFT + i * step + (step - bar) / 2;
          return (
            <g key={d.day}>
              <title>{`${label(d.day)}: ${d.views} views`}</title>
              {AnalyticsSources.map((source) => {
                const h = d.bySource[source] * scale;
                if (h <= 0) return null;
                y -= h;
                return <rect key={source} x={x} y={y} width={bar} height={h} fill={SOURCE_COLOURS[source]} />;
              })}
              {i % every === 0 ? (
                <text x={x + bar / 2} y={HEIGHT - 6} textAnchor="middle" className="an-chart__tick">
                  {label(d.day)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className="an-legend">
          {AnalyticsSources.map((source) => (
            <li key={source}>
              <span className="an-legend__swatch" style={{ backgroundColor: SOURCE_COLOURS[source] }} aria-hidden="true" />
              {SOURCE_LABELS[source]}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
