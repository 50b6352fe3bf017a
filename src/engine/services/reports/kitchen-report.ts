// Informes (issue 33): how the kitchen did at one location over a day or a range, read in one read
// transaction from the item timing log, the promises, the orders and busy mode's events. The rules
// live in domain/kitchen-report/ (one module per figure) and domain/prep-times.ts (which bumps
// cannot be true); this file reads, joins and formats.
import { DateTime } from 'luxon';
import { MAX_REPORT_DAYS, type KitchenReport, type KitchenReportQuery } from '../../../shared/schemas/kitchen-report.ts';
import type { Actor } from '../../domain/actor.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import { busyTimeline, type BusyChange } from '../../domain/kitchen-report/busy-timeline.ts';
import { itemTimes } from '../../domain/kitchen-report/item-times.ts';
import { promiseReport, type PromiseRecord } from '../../domain/kitchen-report/promise-report.ts';
import { rushStrip } from '../../domain/kitchen-report/rush-strip.ts';
import { stationHourHeatmap } from '../../domain/kitchen-report/station-heatmap.ts';
import { lineKey, ticketsFromLog, type Ticket } from '../../domain/kitchen-report/tickets.ts';
import { classifySamples, DEFAULT_PREP_SECONDS, LEFT_OPEN_TICKET_MS, MIN_LEARNED_SAMPLES, type Implausible } from '../../domain/prep-times.ts';
import { formatInstant } from '../../domain/time.ts';
import type { Engine } from '../../engine.ts';
import type { ItemTimingRow } from '../../store/kitchen-timings-store.ts';
import type { ReportLogRow, ReportPromiseRow } from '../../store/kitchen-reports-store.ts';
import { cooksOnShift } from '../kitchen/kitchen-promise.ts';
import { readKitchenSettings } from '../kitchen/kitchen-settings.ts';
import { cookSamples } from '../kitchen/learn-prep-times.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';

/** The log is read from this long before the period (a station's cooks were busy with earlier lines)... */
const LOOK_BEFORE_MS = 2 * 3_600_000;
/** ...and after it (a ticket fired at its end is done within this, or left open). */
const LOOK_AFTER_MS = LEFT_OPEN_TICKET_MS;
/** Bounds on what one report reads (a quarter of a busy kitchen is far below them). */
const MAX_LOG_ROWS = 3_000_000;
const MAX_ORDERS = 500_000;
const MAX_LISTED = 500;

/** A period resolved: its local days and instants. */
export interface ReportPeriod {
  location_id: string;
  from_day: string;
  to_day: string;
  zone: string;
  from: number;
  to: number;
}

/** Everything a report is computed from, and the tickets and promises it lists (the exports'). */
export interface ReportBasis {
  period: ReportPeriod;
  rows: ReportLogRow[];
  /** The period's log rows with every column (the log's export), read on first call (inside the report's read transaction). */
  fullLog: () => ItemTimingRow[];
  tickets: Ticket[];
  promises: ReportPromiseRow[];
  /** Order numbers of every row and promise, read on first call (inside the report's read transaction). */
  numbers: () => Map<string, string>;
}

/** The period of a query, in the restaurant's zone; refused when it is not a range of 1 to MAX_REPORT_DAYS days. */
export function reportPeriod(engine: Engine, actor: Actor, query: KitchenReportQuery): ReportPeriod {
  const restaurant = restaurantOf(engine, actor);
  const locationId = query.location_id.toLowerCase();
  if (!engine.stores.locations.get(restaurant.id, locationId)) throw notFound(`location ${query.location_id} not found`);
  const zone = restaurant.time_zone;
  const first = DateTime.fromISO(query.from, { zone });
  const last = DateTime.fromISO(query.to ?? query.from, { zone });
  if (!first.isValid || !last.isValid) throw invalidRequest('from and to must be dates that exist (YYYY-MM-DD)');
  const days = Math.round(last.diff(first, 'days').days) + 1;
  if (days < 1) throw invalidRequest('to must not be before from');
  if (days > MAX_REPORT_DAYS) throw invalidRequest(`a report covers at most ${MAX_REPORT_DAYS} days`);
  return { location_id: locationId, from_day: first.toISODate()!, to_day: last.toISODate()!, zone, from: first.startOf('day').toMillis(), to: last.plus({ days: 1 }).startOf('day').toMillis() };
}

/** The rush strip's slot boundaries, on the local clock: 15 minutes for up to 2 days, an hour up to 14, a day beyond. */
export function slotBoundaries(period: ReportPeriod): { minutes: number; boundaries: number[] } {
  const days = Math.round((period.to - period.from) / 86_400_000);
  const step = days <= 2 ? { minutes: 15 } : days <= 14 ? { minutes: 60 } : { days: 1 };
  const boundaries: number[] = [];
  for (let at = DateTime.fromMillis(period.from, { zone: period.zone }); at.toMillis() <= period.to; at = at.plus(step)) boundaries.push(at.toMillis());
  if (boundaries[boundaries.length - 1] !== period.to) boundaries.push(period.to);
  return { minutes: 'days' in step ? 24 * 60 : step.minutes, boundaries };
}

/** The local hour of an instant, cached per hour of time (a report asks for thousands). */
function hourReader(zone: string): (ms: number) => number {
  const cache = new Map<number, number>();
  return (ms) => {
    const key = Math.floor(ms / 3_600_000);
    let hour = cache.get(key);
    if (hour === undefined) {
      hour = DateTime.fromMillis(key * 3_600_000, { zone }).hour;
      cache.set(key, hour);
    }
    return hour;
  };
}

function readBasis(engine: Engine, actor: Actor, period: ReportPeriod, restaurantId: string) {
  const test = actor.world === 'test' ? 1 : 0;
  const reports = engine.stores.kitchenReports;
  const rows = reports.log(restaurantId, period.location_id, test, period.from - LOOK_BEFORE_MS, period.to + LOOK_AFTER_MS, MAX_LOG_ROWS);
  const cancelledRows = reports.cancelled(restaurantId, period.location_id, test, period.from - LOOK_BEFORE_MS, period.to, MAX_ORDERS);
  const promises = reports.promises(period.location_id, test, period.from, period.to, MAX_ORDERS);
  return { rows, cancelledRows, promises };
}

/** Reads and computes the location's report for the query's days (one read transaction). */
export function readKitchenReport(engine: Engine, actor: Actor, query: KitchenReportQuery): KitchenReport {
  return engine.read(() => computeKitchenReport(engine, actor, reportPeriod(engine, actor, query)).report);
}

/** The report and what it was computed from (the exports list its tickets and promises). */
export function computeKitchenReport(engine: Engine, actor: Actor, period: ReportPeriod): { report: KitchenReport; basis: ReportBasis } {
  const restaurant = restaurantOf(engine, actor);
  const zone = period.zone;
  const at = (ms: number) => formatInstant(ms, zone);
  const now = engine.clock.now();
  const settings = readKitchenSettings(engine, restaurant.id);
  const { rows, cancelledRows, promises } = readBasis(engine, actor, period, restaurant.id);

  // Which bumps cannot be true: against the learned median where learned, else the typed time.
  const learned = new Map(
    engine.stores.kitchenTimings
      .prepStats(restaurant.id)
      .filter((s) => s.samples >= MIN_LEARNED_SAMPLES)
      .map((s) => [`${s.station_id}\u001f${s.product_id}`, s.median_seconds]),
  );
  const typed = (productId: string) => settings.prep?.product_seconds[productId] ?? DEFAULT_PREP_SECONDS;
  const samples = cookSamples(rows, cooksOnShift(engine, restaurant.id, settings));
  const reference = (productId: string) => learned.get(`${settings.product_stations[productId] ?? ''}\u001f${productId}`) ?? typed(productId);
  const verdicts = classifySamples(samples, reference);
  const lineVerdicts = new Map<string, Implausible | null>();
  samples.forEach((s, i) => lineVerdicts.set(lineKey(s.order_id!, s.item_index!), verdicts[i]!));

  const cancelledAt = new Map(cancelledRows.map((r) => [r.id, r.updated_at]));
  const tickets = ticketsFromLog(rows, period, lineVerdicts, cancelledAt, now);
  const inPeriod = new Set(tickets.map((t) => t.order_id));
  const recalls = dedupe(rows.filter((r) => r.kind === 'recalled' && inPeriod.has(r.order_id)).map((r) => ({ order_id: r.order_id, at: r.at })));
  const periodSamples = samples.map((s, i) => ({ s, v: verdicts[i]! })).filter(({ s }) => inPeriod.has(s.order_id!));
  const excludedBumps = periodSamples.filter(({ v }) => v !== null);
  const withExcludedBump = new Set(excludedBumps.map(({ s }) => s.order_id));
  const openTickets = tickets.filter((t) => t.excluded === 'left_open' && !withExcludedBump.has(t.order_id));
  const cancellations = cancelledRows.filter((r) => r.created_at >= period.from);
  const numbers = engine.stores.kitchenReports.numbers([
    ...new Set([...recalls.map((r) => r.order_id), ...excludedBumps.slice(0, MAX_LISTED).map(({ s }) => s.order_id!), ...openTickets.slice(0, MAX_LISTED).map((t) => t.order_id)]),
  ]);
  const stationName = new Map(settings.stations.map((s) => [s.id, s.name]));
  const hourOf = hourReader(zone);
  const slots = slotBoundaries(period);
  const stationsOf = new Map<string, string[]>(tickets.map((t) => [t.order_id, [...t.stations.keys()]]));

  const records: PromiseRecord[] = promises.map((p) => ({
    order_id: p.order_id,
    channel: p.channel,
    created_at: p.created_at,
    expected_ready_at: p.expected_ready_at,
    promised_ready_at: p.promised_ready_at,
    ready_at: p.ready_at,
    stations: stationsOf.get(p.order_id) ?? [],
  }));
  const bumpCounts = { mass_bump: 0, too_fast: 0, left_open: 0 };
  for (const { v } of excludedBumps) bumpCounts[v!] += 1;
  const listed = [
    ...excludedBumps.map(({ s, v }) => ({
      order_id: s.order_id!,
      number: '',
      item_index: s.item_index!,
      station_id: s.station_id,
      product_id: s.product_id,
      reason: v!,
      seconds: Math.round(s.seconds),
      at: s.done_at,
    })),
    ...openTickets.map((t) => ({
      order_id: t.order_id,
      number: '',
      item_index: null,
      station_id: null,
      product_id: null,
      reason: 'left_open' as const,
      seconds: Math.round(((t.ready_at ?? now) - t.fired_at) / 1000),
      at: t.fired_at,
    })),
  ];

  const report: KitchenReport = {
    location_id: period.location_id,
    from: period.from_day,
    to: period.to_day,
    time_zone: zone,
    generated_at: at(now),
    slot_minutes: slots.minutes,
    tickets: {
      fired: tickets.length,
      counted: tickets.filter((t) => t.excluded === null && t.ready_at !== null && t.cancelled_at === null).length,
      open: tickets.filter((t) => t.ready_at === null && t.cancelled_at === null).length,
      cancelled: tickets.filter((t) => t.cancelled_at !== null).length,
      left_out: tickets.filter((t) => t.excluded !== null && t.cancelled_at === null).length,
    },
    rush: rushStrip(tickets, slots.boundaries).map((s) => ({ ...s, start: at(s.start), end: at(s.end) })),
    heatmap: stationHourHeatmap(tickets, hourOf).map((c) => ({ ...c, station_name: stationName.get(c.station_id) ?? c.station_id })),
    items: itemTimes(
      periodSamples.map(({ s }) => s),
      periodSamples.map(({ v }) => v),
      typed,
      (station, product) => learned.get(`${station}\u001f${product}`) ?? null,
    ).map((item) => ({ ...item, product_name: engine.stores.catalogue.product(restaurant.id, item.product_id)?.name ?? item.product_id })),
    promises: promiseReport(records, settings.promise_quantile ?? 0.9, hourOf),
    busy: busyStretches(engine, restaurant.id, period).map((b) => ({ ...b, from: at(b.from), to: b.to === null ? null : at(b.to) })),
    recalls: recalls.map((r) => ({ order_id: r.order_id, number: numbers.get(r.order_id) ?? '', at: at(r.at) })),
    cancellations: cancellations.map((c) => ({ order_id: c.id, number: c.number, created_at: at(c.created_at), cancelled_at: at(c.updated_at), reached_kitchen: inPeriod.has(c.id) })),
    excluded: {
      bumps: bumpCounts,
      tickets_left_open: openTickets.length,
      list: listed.slice(0, MAX_LISTED).map((e) => ({ ...e, number: numbers.get(e.order_id) ?? '', at: at(e.at) })),
      list_truncated: listed.length > MAX_LISTED,
    },
  };
  // The exports' order numbers, read only when an export asks for them.
  let allNumbers: Map<string, string> | null = null;
  const numbersOfAll = () => (allNumbers ??= engine.stores.kitchenReports.numbers([...new Set([...rows.map((r) => r.order_id), ...promises.map((p) => p.order_id)])]));
  const test = actor.world === 'test' ? 1 : 0;
  const fullLog = () => engine.stores.kitchenReports.fullLog(restaurant.id, period.location_id, test, period.from, period.to, MAX_LOG_ROWS);
  return { report, basis: { period, rows, fullLog, tickets, promises, numbers: numbersOfAll } };
}

function dedupe(list: { order_id: string; at: number }[]): { order_id: string; at: number }[] {
  const seen = new Set<string>();
  return list.filter((r) => {
    const key = `${r.order_id}\u001f${r.at}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Busy mode's paused stretches at the location from its `location.updated` events. */
function busyStretches(engine: Engine, restaurantId: string, period: ReportPeriod) {
  const changeOf = (row: { created_at: number; data: string }): BusyChange | null => {
    const data = JSON.parse(row.data) as { location_id?: string; kitchen_busy?: { paused: boolean; reason: string; wait_minutes: number } };
    if (data.location_id !== period.location_id || !data.kitchen_busy) return null;
    return { at: row.created_at, paused: data.kitchen_busy.paused, reason: data.kitchen_busy.reason, wait_minutes: data.kitchen_busy.wait_minutes };
  };
  const reports = engine.stores.kitchenReports;
  const before = reports.locationUpdatesBefore(restaurantId, period.from, 200).map(changeOf).find((c) => c !== null) ?? null;
  const changes = reports.locationUpdates(restaurantId, period.from, period.to, MAX_ORDERS).map(changeOf).filter((c): c is BusyChange => c !== null);
  return busyTimeline(changes, before, period.from);
}
