import { mapInOrder } from '../../../shared/in-order.ts';
// Informes (issue 33): how the kitchen did at one location over a day or a range, read in one read
// transaction from each day's summary of the item timing log and the promises
// (services/reports/kitchen-report-days.ts), the orders and busy mode's events. The rules live in domain/kitchen-report/ (one module
// per figure) and domain/prep-times.ts (which bumps cannot be true); this file reads, joins and formats.
import { DateTime } from 'luxon';
import { MAX_REPORT_DAYS, type KitchenReport, type KitchenReportQuery } from '../../../shared/schemas/kitchen-report.ts';
import type { Actor } from '../../domain/actor.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import { busyRefusalsIn, busyTimeline, type BusyChange } from '../../domain/kitchen-report/busy-timeline.ts';
import { judgeDays, logOrder, sampleRow, verdictReason, type JudgedDays } from '../../domain/kitchen-report/judge-days.ts';
import { itemTimes } from '../../domain/kitchen-report/item-times.ts';
import { promiseReport, type PromiseRecord } from '../../domain/kitchen-report/promise-report.ts';
import { rushStrip } from '../../domain/kitchen-report/rush-strip.ts';
import { stationHourHeatmap } from '../../domain/kitchen-report/station-heatmap.ts';
import type { Ticket } from '../../domain/kitchen-report/tickets.ts';
import { DEFAULT_PREP_SECONDS, MIN_LEARNED_SAMPLES } from '../../domain/prep-times.ts';
import { formatInstant } from '../../domain/time.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { ItemTimingRow } from '../../store/kitchen-timings-store.ts';
import type { ReportPromiseRow } from '../../store/kitchen-reports-store.ts';
import type { KitchenSettings } from '../../domain/kitchen-settings.ts';
import { readKitchenSettings } from '../kitchen/kitchen-settings.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';
import { daySummaries, keepClosedDays, LOOK_BEFORE_MS, type DaysScope } from './kitchen-report-days.ts';

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
  /** The period's log rows with every column (the log's export), read on first call (inside the report's read transaction). */
  fullLog: () => Promise<ItemTimingRow[]>;
  tickets: Ticket[];
  /** The period's promises with their order numbers, read on first call (inside the report's read transaction). */
  promises: () => Promise<ReportPromiseRow[]>;
  /** Order numbers of the orders given, read inside the report's read transaction. */
  numbers: (orderIds: readonly string[]) => Promise<Map<string, string>>;
}

/** The period of a query, in the restaurant's zone; refused when it is not a range of 1 to MAX_REPORT_DAYS days. */
export async function reportPeriod(engine: Engine, actor: Actor, query: KitchenReportQuery, callerTx?: ReadTransaction): Promise<ReportPeriod> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const locationId = query.location_id.toLowerCase();
    if (!await tx.stores.locations.get(restaurant.id, locationId)) throw notFound(`location ${query.location_id} not found`);
    const zone = restaurant.time_zone;
    const first = DateTime.fromISO(query.from, { zone });
    const last = DateTime.fromISO(query.to ?? query.from, { zone });
    if (!first.isValid || !last.isValid) throw invalidRequest('from and to must be dates that exist (YYYY-MM-DD)');
    const days = Math.round(last.diff(first, 'days').days) + 1;
    if (days < 1) throw invalidRequest('to must not be before from');
    if (days > MAX_REPORT_DAYS) throw invalidRequest(`a report covers at most ${MAX_REPORT_DAYS} days`);
    return { location_id: locationId, from_day: first.toISODate()!, to_day: last.toISODate()!, zone, from: first.startOf('day').toMillis(), to: last.plus({ days: 1 }).startOf('day').toMillis() };
  });
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

/**
 * The local hour of an instant, cached per hour of time (a report asks for thousands; one Intl
 * formatter, a Luxon DateTime per hour of a 90-day period cost ~50 ms).
 */
function hourReader(zone: string): (ms: number) => number {
  const cache = new Map<number, number>();
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' });
  return (ms) => {
    const key = Math.floor(ms / 3_600_000);
    let hour = cache.get(key);
    if (hour === undefined) {
      hour = Number(format.format(key * 3_600_000)) % 24;
      cache.set(key, hour);
    }
    return hour;
  };
}

/** The days a period reads: the location's, in the actor's world. */
function daysScope(period: ReportPeriod, restaurantId: string, actor: Actor): DaysScope {
  return { restaurant_id: restaurantId, location_id: period.location_id, world: actor.world, zone: period.zone, from_day: period.from_day, to_day: period.to_day };
}

/**
 * Resolves the query's period and stores the summaries of its closed days not stored yet (short
 * write transactions of their own, before the report's read). Returns the period.
 */
export async function preparePeriod(engine: Engine, actor: Actor, query: KitchenReportQuery): Promise<ReportPeriod> {
  const { period, scope } = await engine.read(async (tx) => {
    const period = await reportPeriod(engine, actor, query, tx);
    return { period, scope: daysScope(period, (await restaurantOf(engine, actor, tx)).id, actor) };
  });
  await keepClosedDays(engine, scope);
  return period;
}

/** Reads and computes the location's report for the query's days (one read transaction, after storing its closed days' summaries). */
export async function readKitchenReport(engine: Engine, actor: Actor, query: KitchenReportQuery): Promise<KitchenReport> {
  const period = await preparePeriod(engine, actor, query);
  return await engine.read(async (tx) => (await computeKitchenReport(engine, actor, period, tx)).report);
}

/** The learned median of one unit per station and product, where learned from enough samples (by `station\u001fproduct`). */
async function learnedMedians(engine: Engine, tx: ReadTransaction, restaurantId: string): Promise<Map<string, number>> {
  return new Map(
    (await tx.stores.kitchenTimings
      .prepStats(restaurantId))
      .filter((s) => s.samples >= MIN_LEARNED_SAMPLES)
      .map((s) => [`${s.station_id}\u001f${s.product_id}`, s.median_seconds]),
  );
}

/**
 * What every figure of the period is computed from, judged now: its tickets (with `cancelledAt`),
 * their lines' cook samples and which bumps cannot be true (against the learned median where
 * learned, else the typed time), their recalls. Read from the days' summaries, inside the caller's read.
 */
export async function judgePeriod(
  engine: Engine,
  actor: Actor,
  period: ReportPeriod,
  cancelledAt: ReadonlyMap<string, number>,
  callerTx?: ReadTransaction,
  known?: { restaurantId: string; settings: KitchenSettings; learned: ReadonlyMap<string, number> },
): Promise<JudgedDays> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurantId = known?.restaurantId ?? (await restaurantOf(engine, actor, tx)).id;
    const settings = known?.settings ?? (await readKitchenSettings(engine, restaurantId, tx));
    const learned = known?.learned ?? (await learnedMedians(engine, tx, restaurantId));
    const typed = (productId: string) => settings.prep?.product_seconds[productId] ?? DEFAULT_PREP_SECONDS;
    const reference = (productId: string) => learned.get(`${settings.product_stations[productId] ?? ''}\u001f${productId}`) ?? typed(productId);
    return judgeDays(await daySummaries(engine, tx, daysScope(period, restaurantId, actor)), reference, cancelledAt, engine.clock.now());
  });
}

/** The report and what it was computed from (the exports list its tickets and promises). */
export async function computeKitchenReport(engine: Engine, actor: Actor, period: ReportPeriod, callerTx?: ReadTransaction): Promise<{ report: KitchenReport; basis: ReportBasis }> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const zone = period.zone;
    const at = (ms: number) => formatInstant(ms, zone);
    const now = engine.clock.now();
    const settings = await readKitchenSettings(engine, restaurant.id, tx);
    const world = actor.world;
    const reports = tx.stores.kitchenReports;
    const cancelledRows = await reports.cancelled(restaurant.id, period.location_id, world, period.from - LOOK_BEFORE_MS, period.to, MAX_ORDERS);

    const cancelledAt = new Map(cancelledRows.map((r) => [r.id, r.updated_at]));
    const learned = await learnedMedians(engine, tx, restaurant.id);
    const judged = await judgePeriod(engine, actor, period, cancelledAt, tx, { restaurantId: restaurant.id, settings, learned });
    const typed = (productId: string) => settings.prep?.product_seconds[productId] ?? DEFAULT_PREP_SECONDS;
    const tickets = judged.tickets;
    const ticketOf = new Map(tickets.map((t) => [t.order_id, t]));
    const recalls = judged.recalls;
    const samples = judged.samples;
    // The bumps left out, counted by reason, listed in the log's order; a sample object is built only
    // for those listed (a 90-day report can leave out ~25,000 bumps and lists MAX_LISTED).
    const bumpCounts = { mass_bump: 0, too_fast: 0, left_open: 0 };
    const excludedIndexes: number[] = [];
    const ticketWithExcludedBump = new Uint8Array(tickets.length);
    for (let i = 0; i < samples.length; i++) {
      const reason = verdictReason(samples.verdict[i]!);
      if (reason === null) continue;
      bumpCounts[reason] += 1;
      excludedIndexes.push(i);
      ticketWithExcludedBump[samples.ticket[i]!] = 1;
    }
    const excludedBumps = logOrder(samples, excludedIndexes)
      .slice(0, MAX_LISTED)
      .map((i) => ({ s: sampleRow(judged, i), v: verdictReason(samples.verdict[i]!)! }));
    const openTickets = tickets.filter((t, i) => t.excluded === 'left_open' && ticketWithExcludedBump[i] === 0);
    const ticketCounts = { fired: tickets.length, counted: 0, open: 0, cancelled: 0, left_out: 0 };
    for (const t of tickets) {
      if (t.cancelled_at !== null) ticketCounts.cancelled += 1;
      else if (t.excluded !== null) ticketCounts.left_out += 1;
      if (t.cancelled_at === null && t.ready_at === null) ticketCounts.open += 1;
      if (t.cancelled_at === null && t.excluded === null && t.ready_at !== null) ticketCounts.counted += 1;
    }
    const cancellations = cancelledRows.filter((r) => r.created_at >= period.from);
    const numbers = await tx.stores.kitchenReports.numbers([
      ...new Set([...recalls.map((r) => r.order_id), ...excludedBumps.slice(0, MAX_LISTED).map(({ s }) => s.order_id), ...openTickets.slice(0, MAX_LISTED).map((t) => t.order_id)]),
    ]);
    const stationName = new Map(settings.stations.map((s) => [s.id, s.name]));
    const hourOf = hourReader(zone);
    const slots = slotBoundaries(period);
    // The period's promises are this report's own objects: each is given its ticket's stations in place.
    const records: PromiseRecord[] = judged.promises.map((p) => Object.assign(p, { stations: ticketOf.get(p.order_id)?.stations.keys() ?? [] }));
    const listed = [
      ...excludedBumps.map(({ s, v }) => ({
        order_id: s.order_id,
        number: '',
        item_index: s.item_index,
        station_id: s.station_id,
        product_id: s.product_id,
        reason: v,
        seconds: Math.round(s.seconds),
        at: s.done_at,
      })),
      ...openTickets.slice(0, Math.max(0, MAX_LISTED - excludedBumps.length)).map((t) => ({
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

    const busy = busyRefusalsIn(await busyStretches(engine, tx, restaurant.id, period), await tx.stores.busyRefusals.between(restaurant.id, period.location_id, world, period.from, period.to, MAX_ORDERS));
    const report: KitchenReport = {
      location_id: period.location_id,
      from: period.from_day,
      to: period.to_day,
      time_zone: zone,
      generated_at: at(now),
      slot_minutes: slots.minutes,
      tickets: ticketCounts,
      rush: rushStrip(tickets, slots.boundaries, now).map((s) => ({ ...s, start: at(s.start), end: at(s.end) })),
      heatmap: stationHourHeatmap(tickets, hourOf).map((c) => ({ ...c, station_name: stationName.get(c.station_id) ?? c.station_id })),
      items: await mapInOrder(
        itemTimes(samples, typed, (station, product) => learned.get(`${station}\u001f${product}`) ?? null),
        async (item) => ({ ...item, product_name: (await tx.stores.catalogue.product(restaurant.id, item.product_id))?.name ?? item.product_id }),
      ),
      promises: promiseReport(records, settings.promise_quantile ?? 0.9, hourOf),
      busy: busy.stretches.map((b) => ({ ...b, from: at(b.from), to: b.to === null ? null : at(b.to) })),
      busy_refusals: { refused: busy.refused, list: busy.listed.slice(0, MAX_LISTED).map((r) => ({ ...r, at: at(r.at) })), list_truncated: busy.truncated || busy.listed.length > MAX_LISTED },
      recalls: recalls.map((r) => ({ order_id: r.order_id, number: numbers.get(r.order_id) ?? '', at: at(r.at) })),
      cancellations: cancellations.map((c) => ({ order_id: c.id, number: c.number, created_at: at(c.created_at), cancelled_at: at(c.updated_at), reached_kitchen: ticketOf.has(c.id) })),
      excluded: {
        bumps: bumpCounts,
        tickets_left_open: openTickets.length,
        list: listed.map((e) => ({ ...e, number: numbers.get(e.order_id) ?? '', at: at(e.at) })),
        list_truncated: excludedIndexes.length + openTickets.length > MAX_LISTED,
      },
    };
    const fullLog = async () => await tx.stores.kitchenReports.fullLog(restaurant.id, period.location_id, world, period.from, period.to, MAX_LOG_ROWS);
    const numbersOf = async (orderIds: readonly string[]) => await tx.stores.kitchenReports.numbers([...new Set(orderIds)]);
    const promises = async () => await reports.promises(period.location_id, world, period.from, period.to, MAX_ORDERS);
    return { report, basis: { period, fullLog, tickets, promises, numbers: numbersOf } };
  });
}

/** Busy mode's paused stretches at the location from its `location.updated` events. */
async function busyStretches(engine: Engine, tx: ReadTransaction, restaurantId: string, period: ReportPeriod) {
  const changeOf = (row: { created_at: number; data: string }): BusyChange | null => {
    const data = JSON.parse(row.data) as { location_id?: string; kitchen_busy?: { paused: boolean; reason: string; wait_minutes: number } };
    if (data.location_id !== period.location_id || !data.kitchen_busy) return null;
    return { at: row.created_at, paused: data.kitchen_busy.paused, reason: data.kitchen_busy.reason, wait_minutes: data.kitchen_busy.wait_minutes };
  };
  const reports = tx.stores.kitchenReports;
  const before = (await reports.locationUpdatesBefore(restaurantId, period.from, 200)).map(changeOf).find((c) => c !== null) ?? null;
  const changes = (await reports.locationUpdates(restaurantId, period.from, period.to, MAX_ORDERS)).map(changeOf).filter((c): c is BusyChange => c !== null);
  return busyTimeline(changes, before, period.from);
}
