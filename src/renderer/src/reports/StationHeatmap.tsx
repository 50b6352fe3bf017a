// The station × hour heatmap (issue 33): one row per station, one column per local hour with
// finished tickets, each cell the p90 station time, darker when slower. A small SVG: no library.
import { memo } from 'react';
import type { KitchenReport } from '../../../shared/schemas/kitchen-report.ts';
import type { Language } from '../../../shared/locale.ts';
import type { InformesText } from './informes-text.ts';
import { minutes } from './report-format.ts';

const CELL_W = 52;
const CELL_H = 40;
const LABEL_W = 120;
const HEAD_H = 26;

/** Memo'd: drawn again only when its own props change (not when the screen around it does). */
export const StationHeatmap = memo(function StationHeatmap({ report, text, language }: { report: KitchenReport; text: InformesText; language: Language }) {
  const cells = report.heatmap;
  if (cells.length === 0) return <p className="muted">{text('none')}</p>;
  const stations = [...new Map(cells.map((c) => [c.station_id, c.station_name])).entries()];
  const hours = cells.map((c) => c.hour);
  const first = Math.min(...hours);
  const last = Math.max(...hours);
  const columns = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const slowest = Math.max(...cells.map((c) => c.p90_seconds));
  const width = LABEL_W + columns.length * CELL_W;
  const height = HEAD_H + stations.length * CELL_H;
  return (
    <svg className="heatmap" data-testid="heatmap" viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={text('heatmap_title')}>
      {columns.map((hour, i) => (
        <text key={hour} x={LABEL_W + i * CELL_W + CELL_W / 2} y={18} textAnchor="middle" className="heatmap-hour">
          {String(hour).padStart(2, '0')}
        </text>
      ))}
      {stations.map(([id, name], row) => (
        <g key={id}>
          <text x={LABEL_W - 8} y={HEAD_H + row * CELL_H + CELL_H / 2 + 5} textAnchor="end" className="heatmap-station">
            {name}
          </text>
          {columns.map((hour, i) => {
            const cell = cells.find((c) => c.station_id === id && c.hour === hour);
            if (!cell) return <rect key={hour} x={LABEL_W + i * CELL_W + 1} y={HEAD_H + row * CELL_H + 1} width={CELL_W - 2} height={CELL_H - 2} className="heatmap-empty" />;
            const depth = 0.15 + 0.85 * (cell.p90_seconds / slowest);
            const label = text('heatmap_cell', { station: name, hour: String(hour).padStart(2, '0'), minutes: minutes(cell.p90_seconds, language), tickets: cell.tickets });
            return (
              <g key={hour} data-testid="heatmap-cell">
                <title>{label}</title>
                <rect x={LABEL_W + i * CELL_W + 1} y={HEAD_H + row * CELL_H + 1} width={CELL_W - 2} height={CELL_H - 2} fill={`rgba(255, 77, 77, ${depth.toFixed(2)})`} rx={4} />
                <text x={LABEL_W + i * CELL_W + CELL_W / 2} y={HEAD_H + row * CELL_H + CELL_H / 2 + 5} textAnchor="middle" className="heatmap-value">
                  {minutes(cell.p90_seconds, language)}
                </text>
              </g>
            );
          })}
        </g>
      ))}
    </svg>
  );
});
