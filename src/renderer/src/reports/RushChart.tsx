// The rush strip (issue 33): tickets finished per slot as bars and orders in progress as a line on
// the left axis, the median and p90 ticket time as lines on the right axis (minutes), one time axis
// in the restaurant's zone. uPlot, loaded with this screen only; its columns come from rush-series.ts.
import { memo, useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { KitchenReport } from '../../../shared/schemas/kitchen-report.ts';
import type { Language } from '../../../shared/locale.ts';
import { LOCALE_OF } from '../../../shared/locale.ts';
import type { InformesText } from './informes-text.ts';
import { rushSeries } from './rush-series.ts';

const COLORS = { finished: '#3b8cff', in_progress: '#a3adba', p50: '#2fd16b', p90: '#ffb020' };

/** Memo'd: drawn again only when its own props change (not when the screen around it does). */
export const RushChart = memo(function RushChart({ report, text, width, language }: { report: KitchenReport; text: InformesText; width: number; language: Language }) {
  const holder = useRef<HTMLDivElement | null>(null);
  const chart = useRef<uPlot | null>(null);

  useEffect(() => {
    if (!holder.current) return;
    const series = rushSeries(report.rush, report.generated_at);
    // A slot with no ticket finished has no bar (a bar of height 0 drew a stroke along the axis).
    const bars = series.finished.map((v) => (v === 0 ? null : v));
    const data = [series.x, bars, series.inProgress, series.p50, series.p90] as uPlot.AlignedData;
    // Times on the axis in the screen's language and the restaurant's zone, 24-hour ("20:30", "sáb 21").
    const days = report.slot_minutes >= 24 * 60;
    const format = new Intl.DateTimeFormat(LOCALE_OF[language], days ? { timeZone: report.time_zone, weekday: 'short', day: 'numeric' } : { timeZone: report.time_zone, hour: '2-digit', minute: '2-digit', hour12: false });
    // The canvas does not resolve CSS colours: the axes take the page's text colour as it is drawn now.
    const ink = getComputedStyle(holder.current).color || '#888';
    const barPaths = uPlot.paths.bars!({ size: [0.7, 40], align: 1 });
    const options: uPlot.Options = {
      width,
      height: 300,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), report.time_zone),
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, count: { range: (_u, _min, max) => [0, Math.max(4, max * 1.1)] }, minutes: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] } },
      axes: [
        { stroke: ink, grid: { stroke: 'rgba(128,128,128,0.2)' }, values: (_u, splits) => splits.map((ts) => format.format(new Date(ts * 1000))) },
        { scale: 'count', label: text('axis_tickets'), stroke: ink, grid: { stroke: 'rgba(128,128,128,0.2)' } },
        { scale: 'minutes', label: text('axis_minutes'), side: 1, stroke: ink, grid: { show: false } },
      ],
      series: [
        {},
        { label: text('series_finished'), scale: 'count', stroke: COLORS.finished, fill: `${COLORS.finished}99`, paths: barPaths, points: { show: false } },
        // A count taken at instants (each slot's end, now), joined by straight lines; its points shown, a lone one too.
        { label: text('series_in_progress'), scale: 'count', stroke: COLORS.in_progress, width: 2, spanGaps: false, points: { show: true, size: 5, fill: COLORS.in_progress } },
        { label: text('series_p50'), scale: 'minutes', stroke: COLORS.p50, width: 3, spanGaps: false, points: { size: 5 } },
        { label: text('series_p90'), scale: 'minutes', stroke: COLORS.p90, width: 3, dash: [8, 4], spanGaps: false, points: { size: 5 } },
      ],
    };
    chart.current?.destroy();
    chart.current = new uPlot(options, data, holder.current);
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [report, text, width, language]);

  return <div className="rush-chart" ref={holder} data-testid="rush-chart" />;
});
