// Busy mode's timeline (issue 33): the period as one lane, each paused stretch a block on it, listed
// below with its reason, the wait that caused it and the orders it refused; then those orders. A small SVG.
import { memo } from 'react';
import type { KitchenReport } from '../../../shared/schemas/kitchen-report.ts';
import type { Language } from '../../../shared/locale.ts';
import { periodWords, type InformesText } from './informes-text.ts';
import { clockOf } from './report-format.ts';
import { formatMoney } from '../format.ts';

const WIDTH = 900;

/** Memo'd: drawn again only when its own props change (not when the screen around it does). */
export const BusyLanes = memo(function BusyLanes({ report, text, language }: { report: KitchenReport; text: InformesText; language: Language }) {
  const refusals = report.busy_refusals;
  if (report.busy.length === 0 && refusals.refused === 0) return <p className="muted" data-testid="busy-none">{text('busy_none', { period: periodWords(text, report) })}</p>;
  const start = Date.parse(report.rush[0]!.start);
  const end = Date.parse(report.rush[report.rush.length - 1]!.end);
  const x = (ms: number) => ((ms - start) / (end - start)) * WIDTH;
  const many = report.from !== report.to;
  return (
    <div data-testid="busy">
      <svg className="busy-lane" viewBox={`0 0 ${WIDTH} 36`} width="100%" height={36} preserveAspectRatio="none" role="img" aria-label={text('busy_title')}>
        <rect x={0} y={8} width={WIDTH} height={20} className="lane-bg" />
        {report.busy.map((b) => (
          <rect key={b.from} x={x(Date.parse(b.from))} y={8} width={Math.max(2, x(b.to === null ? end : Date.parse(b.to)) - x(Date.parse(b.from)))} height={20} className="lane-paused" />
        ))}
      </svg>
      <ul className="report-list">
        {report.busy.map((b) => (
          <li key={b.from}>
            {text('busy_stretch', {
              from: clockOf(b.from, report.time_zone, language, many),
              to: b.to === null ? text('still_paused') : clockOf(b.to, report.time_zone, language, many),
              reason: b.reason === 'manager' ? text('busy_reason_manager') : text('busy_reason_kitchen_wait'),
              wait: b.wait_minutes,
              refused: b.refused,
            })}
          </li>
        ))}
      </ul>
      <p data-testid="busy-refused">{text('busy_refused', { count: refusals.refused })}</p>
      {refusals.list.length > 0 && (
        <ul className="report-list" data-testid="busy-refused-list">
          {refusals.list.map((r, i) => (
            <li key={`${r.at}-${i}`}>
              {text('busy_refused_order', {
                at: clockOf(r.at, report.time_zone, language, many),
                channel: r.channel,
                type: r.type === 'retiro' ? text('order_type_retiro') : r.type === 'delivery' ? text('order_type_delivery') : r.type,
                lines: r.lines,
                total: formatMoney(r.total, language),
              })}
            </li>
          ))}
        </ul>
      )}
      {refusals.list_truncated && <p className="muted">{text('busy_refused_truncated')}</p>}
    </div>
  );
});
