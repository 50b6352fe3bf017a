// The report's exports (issue 33): each figure as a table, and the rows it is computed from (the
// tickets, the promises, the item timing log), for CSV and JSON. One read transaction per export.
import type { KitchenReportQuery } from '../../../shared/schemas/kitchen-report.ts';
import { figureTable, type ReportTable, type TableRows } from '../../../shared/kitchen-report-tables.ts';
import type { Actor } from '../../domain/actor.ts';
import { invalidRequest } from '../../domain/errors.ts';
import { keptPromise, toldAt } from '../../domain/kitchen-report/promise-report.ts';
import { formatInstant } from '../../domain/time.ts';
import type { Engine } from '../../engine.ts';
import { computeKitchenReport, preparePeriod, type ReportBasis } from './kitchen-report.ts';

/** The item timing log is exported for at most this many days at a time (its rows are many). */
export const MAX_LOG_EXPORT_DAYS = 31;

/** One table of the location's report for the query's days (one read transaction, after storing its closed days' summaries). */
export async function readKitchenReportTable(engine: Engine, actor: Actor, query: KitchenReportQuery, table: ReportTable): Promise<TableRows> {
  const period = await preparePeriod(engine, actor, query);
  return await engine.read(async (tx) => {
    if (table === 'item_timings' && period.to - period.from > MAX_LOG_EXPORT_DAYS * 86_400_000 + 3_600_000) {
      throw invalidRequest(`the item timing log is exported ${MAX_LOG_EXPORT_DAYS} days at a time at most`);
    }
    const { report, basis } = await computeKitchenReport(engine, actor, period, tx);
    if (table === 'tickets') return await ticketRows(basis);
    if (table === 'promises') return await promiseRows(basis);
    if (table === 'item_timings') return await logRows(basis);
    return figureTable(report, table);
  });
}

const instant = (ms: number | null, zone: string) => (ms === null ? null : formatInstant(ms, zone));

/** One row per ticket fired in the period: its times (ISO and epoch ms), stations (id=ms of its last line done there) and why it is left out. */
async function ticketRows(basis: ReportBasis): Promise<TableRows> {
  const zone = basis.period.zone;
  const numbers = await basis.numbers(basis.tickets.map((t) => t.order_id));
  return {
    columns: ['order_id', 'number', 'channel', 'fired_at', 'ready_at', 'cancelled_at', 'fired_ms', 'ready_ms', 'seconds', 'lines', 'stations', 'excluded'],
    rows: basis.tickets.map((t) => [
      t.order_id,
      numbers.get(t.order_id) ?? '',
      t.channel,
      instant(t.fired_at, zone),
      instant(t.ready_at, zone),
      instant(t.cancelled_at, zone),
      t.fired_at,
      t.ready_at,
      t.seconds,
      t.lines,
      [...t.stations].map(([station, done]) => `${station}=${done ?? ''}`).join(';'),
      t.excluded,
    ]),
  };
}

/** One row per order given a promise in the period. */
async function promiseRows(basis: ReportBasis): Promise<TableRows> {
  const zone = basis.period.zone;
  return {
    columns: ['order_id', 'number', 'channel', 'created_at', 'expected_ready_at', 'promised_ready_at', 'ready_at', 'created_ms', 'promised_ms', 'ready_ms', 'kept', 'lateness_seconds'],
    rows: (await basis.promises()).map((p) => {
      const record = { ...p, stations: [] };
      return [
        p.order_id,
        p.number,
        p.channel,
        instant(p.created_at, zone),
        instant(p.expected_ready_at, zone),
        instant(p.promised_ready_at, zone),
        instant(p.ready_at, zone),
        p.created_at,
        toldAt(record),
        p.ready_at,
        keptPromise(record),
        p.ready_at === null ? null : (p.ready_at - toldAt(record)) / 1000,
      ];
    }),
  };
}

/** The item timing log of the period, as it is kept (append-only; `device`: an API key's id, `kitchen` or `engine`). */
async function logRows(basis: ReportBasis): Promise<TableRows> {
  const zone = basis.period.zone;
  const log = await basis.fullLog();
  const numbers = await basis.numbers(log.map((r) => r.order_id));
  return {
    columns: ['seq', 'order_id', 'number', 'item_index', 'kind', 'source', 'station_id', 'product_id', 'quantity', 'channel', 'device', 'at', 'at_ms'],
    rows: log.map((r) => [r.seq, r.order_id, numbers.get(r.order_id) ?? '', r.item_index, r.kind, r.source, r.station_id, r.product_id, r.quantity, r.channel, r.device, instant(r.at, zone), r.at]),
  };
}
