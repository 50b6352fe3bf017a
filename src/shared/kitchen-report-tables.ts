// The report's tables (issue 33): what the CSV and JSON exports hold, one table per figure plus the
// tickets, the promises and the item timing log they are computed from. Shared so that the screen's
// "Exportar" and the API write the same columns.
import type { CsvCell } from './csv.ts';
import { REPORT_TABLE_NAMES } from './schemas/kitchen-report-query.ts';
import type { KitchenReport } from './schemas/kitchen-report.ts';

export const REPORT_TABLES = REPORT_TABLE_NAMES;
export type ReportTable = (typeof REPORT_TABLES)[number];

/** The tables computed from the report alone; the last three are read from the engine's rows. */
export type FigureTable = Exclude<ReportTable, 'tickets' | 'promises' | 'item_timings'>;

export interface TableRows {
  columns: string[];
  rows: CsvCell[][];
}

/** A figure table of the report, as columns and rows. */
export function figureTable(report: KitchenReport, table: FigureTable): TableRows {
  switch (table) {
    case 'rush':
      return { columns: ['start', 'end', 'finished', 'p50_seconds', 'p90_seconds', 'in_progress'], rows: report.rush.map((s) => [s.start, s.end, s.finished, s.p50_seconds, s.p90_seconds, s.in_progress]) };
    case 'heatmap':
      return { columns: ['station_id', 'station_name', 'hour', 'p90_seconds', 'tickets'], rows: report.heatmap.map((c) => [c.station_id, c.station_name, c.hour, c.p90_seconds, c.tickets]) };
    case 'items':
      return {
        columns: ['station_id', 'product_id', 'product_name', 'count', 'excluded', 'median_seconds', 'p90_seconds', 'typed_seconds', 'learned_seconds'],
        rows: report.items.map((i) => [i.station_id, i.product_id, i.product_name, i.count, i.excluded, i.median_seconds, i.p90_seconds, i.typed_seconds, i.learned_seconds]),
      };
    case 'promise_shares':
      return {
        columns: ['by', 'key', 'ready', 'kept', 'share'],
        rows: (['channel', 'hour', 'station'] as const).flatMap((by) => report.promises[`by_${by}`].map((s) => [by, s.key, s.ready, s.kept, s.share])),
      };
    case 'histogram':
      return { columns: ['from_minutes', 'to_minutes', 'orders'], rows: report.promises.histogram.map((b) => [b.from_minutes, b.to_minutes, b.orders]) };
    case 'busy':
      return { columns: ['from', 'to', 'reason', 'wait_minutes', 'refused'], rows: report.busy.map((b) => [b.from, b.to, b.reason, b.wait_minutes, b.refused]) };
    case 'busy_refusals':
      return { columns: ['at', 'channel', 'type', 'lines', 'total'], rows: report.busy_refusals.list.map((r) => [r.at, r.channel, r.type, r.lines, r.total]) };
    case 'recalls':
      return { columns: ['order_id', 'number', 'at'], rows: report.recalls.map((r) => [r.order_id, r.number, r.at]) };
    case 'cancellations':
      return { columns: ['order_id', 'number', 'created_at', 'cancelled_at', 'reached_kitchen'], rows: report.cancellations.map((c) => [c.order_id, c.number, c.created_at, c.cancelled_at, c.reached_kitchen]) };
    case 'excluded':
      return {
        columns: ['order_id', 'number', 'item_index', 'station_id', 'product_id', 'reason', 'seconds', 'at'],
        rows: report.excluded.list.map((e) => [e.order_id, e.number, e.item_index, e.station_id, e.product_id, e.reason, e.seconds, e.at]),
      };
  }
}
