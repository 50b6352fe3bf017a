// Promises (issue 33): the share kept against the share asked, the lateness histogram (a small SVG),
// and the shares by channel, hour and station.
import { memo } from 'react';
import type { KitchenReport } from '../../../shared/schemas/kitchen-report.ts';
import type { Language } from '../../../shared/locale.ts';
import { periodWords, type InformesText } from './informes-text.ts';
import { minutes, percent } from './report-format.ts';

const BAR_W = 44;
const CHART_H = 140;
/** The narrowest the histogram is drawn (its words at 11 px), in CSS pixels. */
const MIN_W = 520;

function Histogram({ bins, text }: { bins: KitchenReport['promises']['histogram']; text: InformesText }) {
  const most = Math.max(1, ...bins.map((b) => b.orders));
  const width = bins.length * BAR_W;
  return (
    // Shrinks to its card down to MIN_W (at 1280×800 its last bars were behind a sideways scroll), scrolls below that (a phone).
    <svg
      className="histogram"
      data-testid="lateness-histogram"
      viewBox={`0 0 ${width} ${CHART_H + 40}`}
      width={width}
      height={CHART_H + 40}
      style={{ width: `clamp(${Math.min(MIN_W, width)}px, 100%, ${width}px)`, height: 'auto' }}
      role="img"
      aria-label={text('promises_title')}
    >
      {bins.map((bin, i) => {
        const h = (bin.orders / most) * CHART_H;
        const late = bin.from_minutes !== null && bin.from_minutes >= 0;
        const edge = bin.from_minutes === null ? `<${bin.to_minutes}` : bin.to_minutes === null ? `≥${bin.from_minutes}` : String(bin.from_minutes);
        return (
          <g key={i}>
            <title>{text('histogram_bin', { from: bin.from_minutes ?? '−∞', to: bin.to_minutes ?? '∞', orders: bin.orders })}</title>
            <rect x={i * BAR_W + 4} y={CHART_H - h + 16} width={BAR_W - 8} height={h} className={late ? 'bar-late' : 'bar-early'} rx={3} />
            {bin.orders > 0 && (
              <text x={i * BAR_W + BAR_W / 2} y={CHART_H - h + 12} textAnchor="middle" className="bar-count">
                {bin.orders}
              </text>
            )}
            <text x={i * BAR_W + BAR_W / 2} y={CHART_H + 34} textAnchor="middle" className="bar-edge">
              {edge}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Shares({ title, rows, text, label }: { title: string; rows: KitchenReport['promises']['by_channel']; text: InformesText; label: (key: string) => string }) {
  return (
    <table className="report-table shares">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th />
          <th>{text('ready_count')}</th>
          <th>{text('share_kept')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">{label(r.key)}</th>
            <td>{r.ready}</td>
            {/* kept / ready: with no order ready in the row there is no share, and the cell says why (not "— %"). */}
            <td data-testid="share">{r.share === null ? <span className="muted">{text('share_none')}</span> : `${percent(r.share)} %`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Memo'd: drawn again only when its own props change (not when the screen around it does). */
export const PromisePanel = memo(function PromisePanel({ report, text, language, stationName }: { report: KitchenReport; text: InformesText; language: Language; stationName: (id: string) => string }) {
  const p = report.promises;
  // No order given a promise: the rule and a plain sentence, not "— %", an empty histogram and tables of headers only.
  if (p.ready === 0 && p.not_ready === 0)
    return (
      <div className="promise-panel" data-testid="promises">
        <p className="figure-rule">{text('promises_rule_none', { asked: percent(p.asked_quantile) })}</p>
        <p className="muted" data-testid="promises-none">
          {text('promises_none', { period: periodWords(text, report) })}
        </p>
      </div>
    );
  // Promised orders, none ready yet: how many were promised, without lateness figures of nothing.
  if (p.ready === 0)
    return (
      <div className="promise-panel" data-testid="promises">
        <p className="figure-rule">{text('promises_rule_none', { asked: percent(p.asked_quantile) })}</p>
        <p className="figure-big" data-testid="promises-summary">
          {text('promises_none_ready', { not_ready: p.not_ready })}
        </p>
      </div>
    );
  return (
    <div className="promise-panel" data-testid="promises">
      <p className="figure-rule">{text('promises_rule', { asked: percent(p.asked_quantile), got: percent(p.kept_share) })}</p>
      <p className="figure-big" data-testid="promises-summary">
        {/* "Not ready", not "never ready": on today's report most of them are still cooking. */}
        {[text('promises_summary', { kept: p.kept, ready: p.ready }), ...(p.not_ready > 0 ? [text('promises_not_ready', { not_ready: p.not_ready })] : [])].join(' · ')}
      </p>
      <p>{text('lateness_p50', { value: minutes(p.lateness_p50_seconds, language), p90: minutes(p.lateness_p90_seconds, language) })}</p>
      {/* Scrolls on its own on a narrow screen (a phone): its 14 bars are wider than the card. */}
      <div className="scroll-x">
        <Histogram bins={p.histogram} text={text} />
      </div>
      <div className="shares-row">
        <Shares title={text('by_channel')} rows={p.by_channel} text={text} label={(k) => k || text('no_channel')} />
        <Shares title={text('by_hour')} rows={p.by_hour} text={text} label={(k) => `${k} h`} />
        <Shares title={text('by_station')} rows={p.by_station} text={text} label={stationName} />
      </div>
    </div>
  );
});
