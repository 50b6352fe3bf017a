// The promise (issue 32): when an order will be ready, from the lines open at the location's
// stations, the cooks on shift and the prep times (learned, else typed). The schedule itself is
// domain/kitchen-promise.ts; this reads its inputs, keeps each order's promise and answers quotes.
import {
  CALIBRATION_WINDOW,
  MIN_CALIBRATION,
  promiseMargin,
  queueOpenLines,
  scheduleOrder,
  type NewLine,
  type OpenLine,
  type ScheduleResult,
} from '../../domain/kitchen-promise.ts';
import { decideHeldLines, planHolds, type HeldDecision as LineDecision, type HeldLine, type HoldPlan } from '../../domain/finish-together.ts';
import type { KitchenSettings } from '../../domain/kitchen-settings.ts';
import { linePrepSeconds, quantile, type LearnedPrep, type PrepLine } from '../../domain/prep-times.ts';
import { lineUnits, stationCapacity, unitsPerLine, type StationUnits } from '../../domain/station-capacity.ts';
import { DEFAULT_TIME_ZONE, formatInstant } from '../../domain/time.ts';
import { cooksAt, type CooksOverride } from '../../domain/cooks-schedule.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { LocationRow } from '../../store/locations-store.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { HeldItemRow, PromiseOutcome } from '../../store/kitchen-timings-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import { logOrderFired } from './kitchen-timing-log.ts';
import { kitchenLoadRows, type KitchenLoadRows } from './kitchen-load-rows.ts';
import { heldLinesAt, openLinesAt } from './kept-kitchen-lines.ts';
import { readKitchenSettings } from './kitchen-settings.ts';
import type { OrderItemView } from '../orders/order-view.ts';
import { worldOf, type World } from '../../../shared/world.ts';

export const DEFAULT_PROMISE_QUANTILE = 0.9;

/**
 * A line open longer than this is a ticket forgotten on the screen, not work ahead of a new order;
 * and no kitchen has more than MAX_OPEN_LINES lines ahead (past that, the promise is already hours
 * away): each promise reads a bounded number of rows whatever was left open.
 */
export const OPEN_LINE_HORIZON_MS = 6 * 3_600_000;
export const MAX_OPEN_LINES = 1000;

/** What the kitchen knows at one moment about one location: enough to promise any number of orders. */
export interface KitchenLoad {
  now: number;
  settings: KitchenSettings;
  learned: Map<string, LearnedPrep>;
  cooks: Map<string, number>;
  /** Units at once per station, as the restaurant file gives them (domain/station-capacity.ts); a station missing here cooks one line per cook. */
  units: ReadonlyMap<string, StationUnits>;
  /** The lines ahead of a new order: those at their stations, then the held ones from when they fire. */
  open: OpenLine[];
  /** The lines at their stations (fired, not done); shared with other calls on the same kept rows: not to be changed. */
  fired: readonly OpenLine[];
  /** The lines held back to finish with their order (all, or those due: readKitchenLoad), soonest to fire first, with their expected seconds. */
  held: (HeldItemRow & HeldLine & { units: number })[];
  freed: Map<string, number[]>;
  quantile: number;
  outcomes: PromiseOutcome[];
}

/** A promise as the API answers it. */
export interface PromiseView {
  expected_ready_at: string;
  promised_ready_at: string;
  /** Minutes from now to the promised time, rounded up. */
  wait_minutes: number;
  quantile: number;
  margin_basis: 'calibrated' | 'prior';
}

export interface KitchenPromise {
  expected_ready_at: number;
  promised_ready_at: number;
  margin_basis: 'calibrated' | 'prior';
  schedule: ScheduleResult;
  lines: NewLine[];
}

/** A held line of the location as decided now (domain/finish-together.ts). */
export type HeldDecision = LineDecision<HeldItemRow & HeldLine>;

const learnedKey = (station: string, product: string) => `${station}\u001f${product}`;

/**
 * The cooks on shift per station at `now`: the hub's "+ / −" where set since the station's schedule
 * last changed its count, else the restaurant file's schedule for the local hour, else its default
 * (domain/cooks-schedule.ts). `timeZone` is the restaurant's (read when a schedule needs it and it is not given).
 */
export async function cooksOnShift(
  engine: Engine,
  restaurantId: string,
  settings: KitchenSettings,
  overrides?: readonly CooksOverride[],
  callerTx?: ReadTransaction,
  now: number = engine.clock.now(),
  timeZone?: string,
): Promise<Map<string, number>> {
  return await engine.readWithin(callerTx, async (tx) => {
    const hub = overrides ?? (await tx.stores.kitchenTimings.stationCooks(restaurantId));
    const schedules = settings.station_cooks_by_hour ?? {};
    const zone = Object.keys(schedules).length === 0 ? DEFAULT_TIME_ZONE : (timeZone ?? (await tx.stores.restaurants.get(restaurantId))?.time_zone ?? DEFAULT_TIME_ZONE);
    return cooksAt(settings.station_cooks ?? {}, schedules, hub, now, zone);
  });
}

/** The restaurant file's units at once by station (empty when it gives none). */
const unitsOf = (settings: KitchenSettings): ReadonlyMap<string, StationUnits> => new Map(Object.entries(settings.station_units ?? {}));

/** A line's expected seconds and the units it has on at once at its station. */
const lineTime = (settings: KitchenSettings, learned: Map<string, LearnedPrep>, row: { station_id: string; product_id: string | null; quantity: number }) => {
  const perLine = unitsPerLine(settings.station_units?.[row.station_id]);
  const seconds = linePrepSeconds(
    { product_id: row.product_id, quantity: row.quantity, modifiers: [] },
    settings.prep,
    row.product_id === null ? undefined : learned.get(learnedKey(row.station_id, row.product_id)),
    perLine,
  ).mean;
  return { seconds, units: lineUnits(row.quantity, perLine).units };
};

/** What every call on the same kept rows would build again: the learned times by station and product, the open lines with their expected seconds. */
function deriveLoad(rows: KitchenLoadRows): NonNullable<KitchenLoadRows['derived']> {
  const learned = new Map<string, LearnedPrep>();
  for (const row of rows.prep_stats) learned.set(learnedKey(row.station_id, row.product_id), row.learned);
  const open: OpenLine[] = rows.open.map((row) => ({
    station_id: row.station_id,
    fired_at: row.fired_at,
    started_at: row.started_at,
    started_explicit: row.started_explicit === 1,
    ...lineTime(rows.settings, learned, row),
    order_id: row.order_id,
    item_index: row.item_index,
  }));
  return { learned, open };
}

/** Reads what a promise needs of the location, as kitchenLoadRows keeps it (the open lines from `now` minus the horizon). */
async function readLoadRows(engine: Engine, tx: ReadTransaction, restaurantId: string, locationId: string, now: number, world: World): Promise<KitchenLoadRows> {
  const settings = await readKitchenSettings(engine, restaurantId, tx);
  const station_cooks = await tx.stores.kitchenTimings.stationCooks(restaurantId);
  // The restaurant's zone only where a schedule by the hour needs it (each call reads the hour).
  const time_zone = settings.station_cooks_by_hour === undefined ? DEFAULT_TIME_ZONE : ((await tx.stores.restaurants.get(restaurantId))?.time_zone ?? DEFAULT_TIME_ZONE);
  const cooks = await cooksOnShift(engine, restaurantId, settings, station_cooks, tx, now, time_zone);
  // Reads that do not depend on each other are asked at once (issue 34): on PostgreSQL they go out
  // together, one round trip while the restaurant's clock row is held instead of one each; on SQLite
  // they run one after another as before. The open lines are kept in memory between kitchen changes
  // (kept-kitchen-lines.ts), not read per order; the held lines are asked after them, so the kept
  // lines are built once when they were not.
  const [open, prepStats, outcomes] = await Promise.all([
    openLinesAt(engine, tx, locationId, world === 'test', now - OPEN_LINE_HORIZON_MS, MAX_OPEN_LINES),
    tx.stores.kitchenTimings.prepStats(restaurantId),
    tx.stores.kitchenTimings.outcomes(locationId, CALIBRATION_WINDOW),
  ]);
  const held = await heldLinesAt(engine, tx, locationId, world === 'test', MAX_OPEN_LINES);
  // As many bumps as the station has slots (units at once), each freeing one.
  const stations = [...new Set([...open.map((o) => o.station_id), ...held.map((h) => h.station_id)])];
  const done = await Promise.all(stations.map((station) =>
    tx.stores.kitchenTimings.lastDoneAt(locationId, station, stationCapacity(cooks.get(station) ?? 1, settings.station_units?.[station]).slots)));
  const last_done = new Map<string, number[]>(stations.map((station, i) => [station, done[i]!]));
  return {
    read_at: now,
    settings,
    prep_stats: prepStats.map((row) => ({
      station_id: row.station_id,
      product_id: row.product_id,
      learned: { mean: row.mean_seconds, median: row.median_seconds, p90: row.p90_seconds, samples: row.samples },
    })),
    station_cooks,
    time_zone,
    open,
    held,
    last_done,
    outcomes,
  };
}

/**
 * The location's load at `now`: open lines, cooks, learned times and the recent lateness. Of the held
 * lines, those planned to fire by now (`held: 'due'`, what a promise needs: a line that fires later is
 * behind a new order), or all of them (`'all'`, what the jobs decide). The rows are read once per
 * kitchen change (kitchenLoadRows); only the moment's part is done per call: O(open lines).
 */
export async function readKitchenLoad(engine: Engine, restaurantId: string, locationId: string, now: number, world: World, held: 'due' | 'all' = 'due', callerTx?: ReadTransaction): Promise<KitchenLoad> {
  return await engine.readWithin(callerTx, async (tx) => {
    let rows = await kitchenLoadRows(engine, locationId, world, now, async () => await readLoadRows(engine, tx, restaurantId, locationId, now, world));
    // Kept rows cut at MAX_OPEN_LINES may leave out lines a read now would take: read again.
    if (rows.read_at !== now && rows.open.length >= MAX_OPEN_LINES) rows = await readLoadRows(engine, tx, restaurantId, locationId, now, world);
    const { settings } = rows;
    const { learned, open: openLines } = (rows.derived ??= deriveLoad(rows));
    // The open lines are oldest fired first: those past the horizon since they were read are a prefix.
    const since = now - OPEN_LINE_HORIZON_MS;
    let past = 0;
    while (past < openLines.length && openLines[past]!.fired_at < since) past++;
    const fired = past === 0 ? openLines : openLines.slice(past);
    // Lines held back to finish with their order (issue 32) are work ahead too, from when they fire.
    const heldRows = held === 'all' ? rows.held : rows.held.filter((row) => row.fire_at <= now);
    const heldLines = heldRows.map((row) => ({ ...row, ...lineTime(settings, learned, row) }));
    const open = [
      ...fired,
      ...heldLines.map((row) => ({ station_id: row.station_id, fired_at: Math.max(now, row.fire_at), started_at: null, seconds: row.seconds, units: row.units, order_id: row.order_id, item_index: row.item_index })),
    ];
    return {
      now,
      settings,
      learned,
      cooks: await cooksOnShift(engine, restaurantId, settings, rows.station_cooks, tx, now, rows.time_zone),
      units: unitsOf(settings),
      open,
      fired,
      held: heldLines,
      freed: rows.last_done,
      quantile: settings.promise_quantile ?? DEFAULT_PROMISE_QUANTILE,
      outcomes: rows.outcomes,
    };
  });
}

/** The lines to schedule for order lines: each one's station and its expected and p90 seconds. */
export function newLines(load: KitchenLoad, lines: readonly PrepLine[]): NewLine[] {
  return lines.map((line) => {
    const station = line.product_id === null ? null : (load.settings.product_stations[line.product_id] ?? null);
    if (station === null) return { station_id: null, seconds: 0, p90_seconds: 0 };
    const learned = line.product_id === null ? undefined : load.learned.get(learnedKey(station, line.product_id));
    const perLine = unitsPerLine(load.units.get(station));
    const time = linePrepSeconds(line, load.settings.prep, learned, perLine);
    return { station_id: station, seconds: time.mean, p90_seconds: time.p90, units: lineUnits(line.quantity, perLine).units };
  });
}

/** The promise for order lines given the load (pure given `load`: what the bench and the quote call). */
export function promiseFor(load: KitchenLoad, lines: readonly PrepLine[]): KitchenPromise {
  const scheduled = newLines(load, lines);
  const schedule = scheduleOrder({ now: load.now, cooks: load.cooks, units: load.units, open: load.open, freed: load.freed, lines: scheduled });
  const wait = (schedule.expected_ready_at - load.now) / 1000;
  const margin = promiseMargin(load.outcomes, quantile, load.quantile, { lines: scheduled, wait_seconds: wait });
  return {
    expected_ready_at: schedule.expected_ready_at,
    promised_ready_at: Math.round(schedule.expected_ready_at + margin.seconds * 1000),
    margin_basis: margin.basis,
    schedule,
    lines: scheduled,
  };
}

export function toPromiseView(promise: KitchenPromise, load: KitchenLoad, timeZone: string): PromiseView {
  return {
    expected_ready_at: formatInstant(promise.expected_ready_at, timeZone),
    promised_ready_at: formatInstant(promise.promised_ready_at, timeZone),
    wait_minutes: Math.max(0, Math.ceil((promise.promised_ready_at - load.now) / 60_000)),
    quantile: load.quantile,
    margin_basis: promise.margin_basis,
  };
}

/**
 * An order just written: its promise (kept in `order_promises`, to be compared with when it is
 * ready) and, when it goes to the kitchen at once, its lines fired to their stations, those that
 * would be done well before its slowest line held (services/kitchen/held-lines.ts fires them later). Call
 * inside the order's transaction, after its row. A scheduled order gets no promise here: its time is
 * the one the customer chose. Returns the promise for the order's answer, and the location's held
 * lines due by now, to fire in the same transaction (applyHeldDecisions); one read of the load serves both.
 */
export async function promiseAndFire(engine: Engine, tx: WriteTransaction, restaurant: RestaurantRow, location: LocationRow, order: OrderRow, device: string, now: number): Promise<{ view: PromiseView | null; held: HeldDecision[] }> {
  let view: PromiseView | null = null;
  let holds: HoldPlan[] = [];
  let held: HeldDecision[] = [];
  if (order.scheduled_for === null) {
    const load = await readKitchenLoad(engine, restaurant.id, location.id, now, worldOf(order.test === 1), undefined, tx);
    const promise = promiseFor(load, JSON.parse(order.items) as OrderItemView[]);
    await tx.stores.kitchenTimings.putOrderPromise({
      order_id: order.id,
      restaurant_id: restaurant.id,
      location_id: location.id,
      created_at: now,
      expected_ready_at: promise.expected_ready_at,
      promised_ready_at: promise.promised_ready_at,
      ready_at: null,
    });
    view = toPromiseView(promise, load, restaurant.time_zone);
    if (order.status === 'recibido') {
      // Fired to finish together: the lines that would be done well before the slowest are held...
      const plans = planHolds(now, promise.schedule);
      // ...unless, with the order's other lines at their stations, one must go at once; the
      // location's held lines due by now fire with them (the jobs decide the others on their next pass).
      const planned = new Set(plans.map((p) => p.index));
      const queued = queueOpenLines({ now, cooks: load.cooks, units: load.units, freed: load.freed, open: load.fired });
      promise.lines.forEach((line, index) => {
        if (line.station_id === null || planned.has(index)) return;
        const { finish_at: finish } = queued.queues.fireNow(line.station_id, line.seconds, line.units);
        queued.orders_ready_at.set(order.id, Math.max(queued.orders_ready_at.get(order.id) ?? finish, finish));
      });
      const mine = plans.map((plan) => ({ plan, order_id: order.id, station_id: promise.lines[plan.index]!.station_id!, seconds: promise.lines[plan.index]!.seconds, units: promise.lines[plan.index]!.units, fire_at: plan.fire_at, target_ready_at: plan.target_ready_at }));
      const decided = decideHeldLines<HeldLine & { plan?: HoldPlan; item_index?: number }>(queued, [...load.held.filter((h) => h.test === order.test), ...mine]);
      holds = decided.filter((d) => d.line.plan !== undefined && !d.fires).map((d) => d.line.plan!);
      held = decided.filter((d) => d.line.plan === undefined && (d.fires || d.shift > 0)) as HeldDecision[];
    }
  }
  if (order.status === 'recibido') await logOrderFired(engine, tx, order, device, now, holds);
  return { view, held };
}

/** The promise an order has now (made at its creation, or moved later since), as the API answers it at `now`; null when it has none. */
export async function keptPromiseView(engine: Engine, tx: WriteTransaction, orderId: string, timeZone: string, now: number): Promise<PromiseView | null> {
  const made = await tx.stores.kitchenTimings.orderPromise(orderId);
  if (!made) return null;
  // Its current promise: the last time it was moved later (services/kitchen/promise-slips.ts), else the one made.
  const moved = (await tx.stores.kitchenTimings.promiseUpdates(orderId)).at(-1);
  const kept = moved ? { ...made, expected_ready_at: moved.expected_ready_at, promised_ready_at: moved.promised_ready_at } : made;
  const settings = await readKitchenSettings(engine, kept.restaurant_id, tx);
  const outcomes = await tx.stores.kitchenTimings.outcomes(kept.location_id, CALIBRATION_WINDOW);
  return {
    expected_ready_at: formatInstant(kept.expected_ready_at, timeZone),
    promised_ready_at: formatInstant(kept.promised_ready_at, timeZone),
    wait_minutes: Math.max(0, Math.ceil((kept.promised_ready_at - now) / 60_000)),
    quantile: settings.promise_quantile ?? DEFAULT_PROMISE_QUANTILE,
    margin_basis: outcomes.length >= MIN_CALIBRATION ? 'calibrated' : 'prior',
  };
}

/** Each station's wait: the promise for one typical line there (the station's product of median expected time), by station. */
export function stationWaits(load: KitchenLoad): Map<string, { line: PrepLine; expected_ready_at: number; promised_ready_at: number }> {
  const byStation = new Map<string, string[]>();
  for (const [product, station] of Object.entries(load.settings.product_stations)) {
    const products = byStation.get(station) ?? [];
    products.push(product);
    byStation.set(station, products);
  }
  const waits = new Map<string, { line: PrepLine; expected_ready_at: number; promised_ready_at: number }>();
  for (const [station, products] of byStation) {
    const timed = products
      .map((product_id) => ({ product_id, seconds: newLines(load, [{ product_id, quantity: 1, modifiers: [] }])[0]!.seconds }))
      .sort((a, b) => a.seconds - b.seconds);
    const line = { product_id: timed[Math.floor((timed.length - 1) / 2)]!.product_id, quantity: 1, modifiers: [] };
    const promise = promiseFor(load, [line]);
    waits.set(station, { line, expected_ready_at: promise.expected_ready_at, promised_ready_at: promise.promised_ready_at });
  }
  return waits;
}

/** The location's current wait: the promise, in minutes, for one typical line at the station that frees last (stations run side by side). */
export function currentWait(load: KitchenLoad): { wait_minutes: number; expected_ready_at: number; promised_ready_at: number } {
  let worst: { expected_ready_at: number; promised_ready_at: number } | null = null;
  for (const wait of stationWaits(load).values()) if (worst === null || wait.promised_ready_at > worst.promised_ready_at) worst = wait;
  if (!worst) return { wait_minutes: 0, expected_ready_at: load.now, promised_ready_at: load.now };
  return {
    wait_minutes: Math.max(0, Math.ceil((worst.promised_ready_at - load.now) / 60_000)),
    expected_ready_at: worst.expected_ready_at,
    promised_ready_at: worst.promised_ready_at,
  };
}

/** The load with lines taken now (at their stations, fired now): what a new order, or a refused one counted as taken, leaves behind it. */
export function loadWithLines(load: KitchenLoad, lines: readonly { station_id: string | null; seconds: number; units?: number; fired_at?: number }[]): KitchenLoad {
  const taken = lines.flatMap((line) =>
    line.station_id === null || line.seconds <= 0 ? [] : [{ station_id: line.station_id, fired_at: line.fired_at ?? load.now, started_at: null, seconds: line.seconds, units: line.units ?? 1 }],
  );
  return taken.length === 0 ? load : { ...load, open: [...load.open, ...taken] };
}
