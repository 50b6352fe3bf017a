import { filterInOrder } from '../../src/shared/in-order.ts';
// One simulated service (one seed) against the real engine: customers' orders through the HTTP API
// with each channel's key, cooks as servers per station who start lines oldest first and bump them
// through the kitchen door's dispatch (the tablet's path), expo bumping each ticket listo when its
// last line is done. Time is the engine's ManualClock, moved from event to event.
import { DateTime } from 'luxon';
import { Agent, fetch } from 'undici';
import type { ManualClock } from '../../src/engine/clock.ts';
import type { EngineServer } from '../../src/host/start-engine-server.ts';
import { dispatch } from '../../src/engine/screen/dispatch.ts';
import { createKitchenHandlers } from '../../src/engine/screen/kitchen-handlers.ts';
import { busyWait, readBusyState } from '../../src/engine/services/kitchen/busy-mode.ts';
import { heldLinesOf } from '../../src/engine/services/kitchen/held-lines.ts';
import type { ChannelKind, Profile } from './profile.ts';
import { Random } from './random.ts';
import { lineUnits } from '../../src/engine/domain/station-capacity.ts';

const MIN = 60_000;

/**
 * The store fronts' connections: an idle one is closed after 100 ms, long before the engine's 5 s
 * keep-alive ends it (a reused socket the server had just closed fails the request on a busy machine).
 */
const connections = new Agent({ keepAliveTimeout: 100, keepAliveMaxTimeout: 100 });

export interface SimulatedOrder {
  seed: number;
  channel: ChannelKind;
  created_at: number;
  /** The engine's answer: refused orders (busy mode) have `refused` and no kitchen times. */
  refused: string | null;
  /** A refusal's words (busy mode says why: the order's own wait, or its size). */
  refused_message?: string;
  expected_ready_at: number | null;
  promised_ready_at: number | null;
  ready_at: number | null;
  /** Per line: its product's slug, quantity, typed minutes and true finish (and, taken, the seconds it truly took). */
  lines: { slug: string; quantity: number; typed_minutes: number; finished_at: number | null; trace?: LineTrace; true_seconds?: number }[];
  in_peak: boolean;
  /** Busy mode as the order found it (where the profile sets it): what a refusal is read against. */
  busy?: { paused: boolean; wait_minutes: number };
}

/**
 * Where a line's time went (for `--orders`, to find where the finish-together gap comes from): its
 * station, when the engine planned to fire it when the order came (null: fired at once), when the
 * cooks could take it (fired), when a cook took it, and its true cooking seconds.
 */
export interface LineTrace {
  station: string;
  held_until: number | null;
  fired_at: number | null;
  started_at: number | null;
  seconds: number;
}

interface Line {
  order: LiveOrder;
  index: number;
  station: string;
  seconds: number;
  /** Units of its station it has on at once (1 where the station cooks one line per cook). */
  units: number;
  started_at: number | null;
  finished_at: number | null;
}

interface LiveOrder {
  id: string;
  record: SimulatedOrder;
  lines: Line[];
  tapped: boolean;
  ready: boolean;
}

type Event =
  | { at: number; seq: number; kind: 'arrival' }
  | { at: number; seq: number; kind: 'finish'; line: Line; station: string; cook: number }
  | { at: number; seq: number; kind: 'bump'; line: Line }
  | { at: number; seq: number; kind: 'cook_back'; station: string }
  | { at: number; seq: number; kind: 'tick' }
  | { at: number; seq: number; kind: 'held_check' };

/** The engine's jobs run on every clock move; the hub's 1 s tick is this in the simulation. */
const TICK_MS = 30_000;

/** What busy mode did in one service, as the simulator saw it every tick. */
export interface BusyLog {
  /** When each pause began. */
  pauses: number[];
  /** For each resume, how long after the wait (measured apart from busy mode) first fell below the threshold minus the margin. */
  resume_delays_ms: number[];
}

/** A min-heap of events by time, then by when they were scheduled. */
class Events {
  private readonly heap: Event[] = [];
  private seq = 0;

  push(event: NewEvent): void {
    const e = { ...event, seq: this.seq++ } as Event;
    this.heap.push(e);
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(this.heap[i]!, this.heap[parent]!)) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent]!, this.heap[i]!];
      i = parent;
    }
  }

  pop(): Event | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (this.heap.length > 0 && last) {
      this.heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.heap.length && before(this.heap[l]!, this.heap[m]!)) m = l;
        if (r < this.heap.length && before(this.heap[r]!, this.heap[m]!)) m = r;
        if (m === i) break;
        [this.heap[i], this.heap[m]] = [this.heap[m]!, this.heap[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** An event to schedule: its kind's fields without `seq` (given on push). */
type NewEvent = Event extends infer E ? (E extends Event ? Omit<E, 'seq'> : never) : never;

const before = (a: Event, b: Event) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

export interface SimulationContext {
  server: EngineServer;
  clock: ManualClock;
  restaurantId: string;
  locationId: string;
  productIds: Record<string, string>;
  /** API keys by channel label. */
  keys: Record<string, string>;
  /**
   * Cooks mark each line started on the board as they take it (`items:set-started`, issue 32), so
   * the engine knows its real start; false: they only bump (the board before the per-line start).
   */
  lineStarts: boolean;
  /**
   * The orders (arrivals, carts, channels) and their lines' true times drawn from a stream of their
   * own, so every rule meets the same customers on a seed (`--common-arrivals`): from the one shared
   * stream, a refused order draws no cooking times and the next arrivals change with it. Off: the
   * draws of earlier rounds, unchanged.
   */
  commonArrivals?: boolean;
}

/** When the seed's service starts: its own day (seeds are days), at the profile's local start time. */
export function serviceStart(profile: Profile, day: number): number {
  const [hour, minute] = profile.start_local.split(':').map(Number) as [number, number];
  return DateTime.fromObject({ year: 2026, month: 1, day: 1, hour, minute }, { zone: profile.time_zone }).plus({ days: day }).toMillis();
}

/** Runs one seed's service to its end (every order ready) and returns its orders and what busy mode did. */
export async function simulateService(context: SimulationContext, profile: Profile, seed: number, day: number): Promise<{ orders: SimulatedOrder[]; busy: BusyLog }> {
  const random = new Random(seed);
  const demand = context.commonArrivals ? new Random(DEMAND_STREAM + seed) : random;
  const start = serviceStart(profile, day);
  const end = start + profile.duration_minutes * MIN;
  const events = new Events();
  const engine = context.server.engine;
  const handlers = createKitchenHandlers({ engine, commands: context.server.commands, restaurantId: context.restaurantId });
  const kitchen = async (channel: string, request: unknown) => {
    const result = await dispatch({ reach: 'kitchen', handlers }, channel, request);
    if (!result.ok) throw new Error(`kitchen ${channel} refused: ${result.error.code} ${result.error.message}`);
  };
  const orders: SimulatedOrder[] = [];
  const queues = new Map(profile.stations.map((s) => [s.id, [] as Line[]]));
  // Each cook has `units_at_once` units of room (1: one line at a time), the station at most its bound.
  const cooks = new Map(profile.stations.map((s) => [s.id, Array.from({ length: s.cooks }, () => ({ away: false, used: 0 }))]));
  const room = new Map(profile.stations.map((s) => [s.id, { each: s.units_at_once ?? 1, bound: s.max_units_at_once ?? Number.POSITIVE_INFINITY, used: 0 }]));
  const sweeps = new Map(profile.stations.map((s) => [s.id, sweepWindows(random, profile, start, end + 90 * MIN)]));

  const rateAt = (t: number) => {
    const minute = (t - start) / MIN;
    return profile.arrivals.find((a) => minute >= a.from_minute && minute < a.to_minute)?.per_hour ?? 0;
  };
  const peakRate = Math.max(...profile.arrivals.map((a) => a.per_hour));
  // Arrivals by thinning a Poisson process at the peak rate.
  const nextArrival = (t: number): number | null => {
    let at = t;
    for (;;) {
      at += demand.exponential(peakRate / 60) * MIN;
      if (at >= end) return null;
      if (demand.next() * peakRate < rateAt(at)) return Math.round(at);
    }
  };
  const absent = (station: string, cook: number, t: number): number | null => {
    // The station's last cook is the one who leaves.
    if (cook !== cooks.get(station)!.length - 1) return null;
    const away = profile.absences.find((a) => a.station === station && t >= start + a.from_minute * MIN && t < start + a.to_minute * MIN);
    return away ? start + away.to_minute * MIN : null;
  };

  const startLines = async (station: string, t: number) => {
    const queue = queues.get(station)!;
    const crew = cooks.get(station)!;
    const space = room.get(station)!;
    // The oldest line goes on with the first cook who has room for all its units (and the station too);
    // lines are taken in order: one that does not fit yet waits, and so do those behind it.
    for (let c = 0; c < crew.length && queue.length > 0; ) {
      const cook = crew[c]!;
      const need = queue[0]!.units;
      if (cook.away || cook.used + need > space.each || space.used + need > space.bound) {
        c++;
        continue;
      }
      const back = absent(station, c, t);
      if (back !== null) {
        cook.away = true;
        events.push({ at: back, kind: 'cook_back', station });
        c++;
        continue;
      }
      const line = queue.shift()!;
      cook.used += need;
      space.used += need;
      line.started_at = t;
      traceOf(line).started_at = t;
      // The cook's first tap on the line (the second, at the bump, strikes it).
      if (context.lineStarts) await kitchen('items:set-started', { order_id: line.order.id, item_index: line.index, started: true });
      const finish = t + Math.round(line.seconds * 1000);
      events.push({ at: finish, kind: 'finish', line, station, cook: c });
      events.push({ at: bumpTime(random, profile, sweeps.get(station)!, t, finish), kind: 'bump', line });
      if (!line.order.tapped && random.next() < profile.noise.start_tap_share) {
        line.order.tapped = true;
        await kitchen('orders:transition', { order_id: line.order.id, target: 'en_preparacion' });
      }
    }
  };

  const busy: BusyLog = { pauses: [], resume_delays_ms: [] };
  let paused = false;
  let belowSince: number | null = null;
  const watchBusyMode = async (t: number) => {
    if (!profile.busy_mode) return;
    const state = await readBusyState(engine, context.locationId);
    const now = state.paused;
    // The wait busy mode goes by (its projected queue: the refused orders' lines as if taken).
    const wait = await busyWait(engine, context.restaurantId, context.locationId, t, profile.busy_mode);
    const below = wait < profile.busy_mode.threshold_minutes - profile.busy_mode.margin_minutes;
    // When the engine paused (its jobs may have run between two of the simulator's looks).
    if (now && !paused) busy.pauses.push(state.changed_at ?? t);
    if (!now && paused) busy.resume_delays_ms.push(belowSince === null ? 0 : t - belowSince);
    belowSince = now && below ? (belowSince ?? t) : null;
    paused = now;
  };
  const first = nextArrival(start);
  if (first !== null) events.push({ at: first, kind: 'arrival' });
  events.push({ at: start + TICK_MS, kind: 'tick' });
  let open = 0;
  // Lines the engine holds back to finish with their order: the station's screen shows them "en
  // espera" and no cook takes one until the engine fires it (its jobs run on every clock move).
  let held: Line[] = [];
  // The lines the engine fired since the last look (held ones it let go, and `atOnce`, a new order's
  // lines fired with it) join their stations' queues in the order the engine fired them (the log's
  // seq, `fire_seq`): lines fired in one pass or one order's transaction reach the screen together,
  // and the engine's schedule takes them in that order.
  const takeFired = async (t: number, atOnce: Line[] = []) => {
    if (held.length === 0 && atOnce.length === 0) return;
    const stillHeld = new Map<string, Map<number, number>>();
    const heldOf = async (orderId: string) => {
      let lines = stillHeld.get(orderId);
      if (!lines) stillHeld.set(orderId, (lines = await heldLinesOf(engine, orderId)));
      return lines;
    };
    const fired = [...(await filterInOrder(held, async (line) => !(await heldOf(line.order.id)).has(line.index))), ...atOnce];
    if (fired.length === 0) return;
    held = (await filterInOrder(held, async (line) => (await heldOf(line.order.id)).has(line.index)));
    const seqOf = new Map<Line, number>();
    for (const line of fired) {
      const open = (await engine.stores.kitchenTimings.openOf(line.order.id)).find((row) => row.item_index === line.index);
      seqOf.set(line, open?.fire_seq ?? Number.POSITIVE_INFINITY);
    }
    for (const line of fired.sort((a, b) => seqOf.get(a)! - seqOf.get(b)!)) {
      traceOf(line).fired_at = t;
      queues.get(line.station)!.push(line);
    }
    for (const station of new Set(fired.map((l) => l.station))) await startLines(station, t);
  };
  for (let event = events.pop(); event; event = events.pop()) {
    if (event.at > context.clock.now()) context.clock.set(event.at);
    const t = event.at;
    await takeFired(t);
    if (event.kind === 'arrival') {
      const next = nextArrival(t);
      if (next !== null) events.push({ at: next, kind: 'arrival' });
      const order = await placeOrder(context, profile, random, demand, t, seed, start);
      orders.push(order.record);
      if (!order.live) continue;
      open++;
      const holding = await heldLinesOf(engine, order.live.id);
      const atOnce: Line[] = [];
      for (const line of order.live.lines) {
        const fireAt = holding.get(line.index);
        traceOf(line).held_until = fireAt ?? null;
        if (fireAt === undefined) {
          atOnce.push(line);
          continue;
        }
        events.push({ at: fireAt, kind: 'held_check' });
      }
      // With the other orders' held lines its transaction fired, in the engine's order.
      await takeFired(t, atOnce);
      held.push(...order.live.lines.filter((line) => holding.has(line.index)));
      for (const station of new Set(order.live.lines.map((l) => l.station))) await startLines(station, t);
    } else if (event.kind === 'cook_back') {
      const crew = cooks.get(event.station)!;
      crew[crew.length - 1]!.away = false;
      await startLines(event.station, t);
    } else if (event.kind === 'finish') {
      const cook = cooks.get(event.station)![event.cook]!;
      cook.used -= event.line.units;
      room.get(event.station)!.used -= event.line.units;
      event.line.finished_at = t;
      const order = event.line.order;
      order.record.lines[event.line.index]!.finished_at = t;
      if (order.lines.every((l) => l.finished_at !== null)) {
        // Expo sends it out: the ticket goes listo (through en preparación when no cook tapped it).
        if (!order.tapped) await kitchen('orders:transition', { order_id: order.id, target: 'en_preparacion' });
        order.tapped = true;
        await kitchen('orders:transition', { order_id: order.id, target: 'listo' });
        order.ready = true;
        order.record.ready_at = t;
        open--;
      }
      await startLines(event.station, t);
    } else if (event.kind === 'tick') {
      // The hub's jobs run every second: the pass this clock move started (busy mode among them) is
      // over before the tick looks, as it would be a second later on a hub. Not awaited, a pass still
      // under way for an earlier move left busy mode a move behind, and resumes looked minutes late.
      await context.server.jobs.databaseJobs();
      await watchBusyMode(t);
      if (t < end || open > 0) events.push({ at: t + TICK_MS, kind: 'tick' });
    } else if (event.kind === 'bump') {
      // A bump after expo sent the ticket out is too late: the ticket did it.
      if (!event.line.order.ready) await kitchen('items:set-done', { order_id: event.line.order.id, item_index: event.line.index, done: true });
    }
  }
  return { orders, busy };
}

/** The line's trace in its order's record (made with the order). */
function traceOf(line: Line): LineTrace {
  return line.order.record.lines[line.index]!.trace!;
}

/** Windows in which a station's cook stops bumping, then sweeps the screen at their end. */
/** Added to a seed for its orders' own stream (`commonArrivals`): any constant apart from the seeds' range. */
const DEMAND_STREAM = 7_919_000;

function sweepWindows(random: Random, profile: Profile, from: number, to: number): [number, number][] {
  const windows: [number, number][] = [];
  if (profile.noise.sweeps_per_hour <= 0) return windows;
  for (let t = from + random.exponential(profile.noise.sweeps_per_hour / 60) * MIN; t < to; t += random.exponential(profile.noise.sweeps_per_hour / 60) * MIN) {
    windows.push([t, t + profile.noise.sweep_minutes * MIN]);
  }
  return windows;
}

/** When the cook bumps a line: on time, late or early by a few minutes, or in a sweep. */
function bumpTime(random: Random, profile: Profile, sweeps: [number, number][], started: number, finished: number): number {
  const [low, high] = profile.noise.bump_shift_minutes;
  let at = finished;
  const r = random.next();
  if (r < profile.noise.late_bump_share) at += random.between(low, high) * MIN;
  else if (r < profile.noise.late_bump_share + profile.noise.early_bump_share) at = Math.max(started + 5000, at - random.between(low, high) * MIN);
  const sweep = sweeps.find(([a, b]) => at >= a && at < b);
  if (sweep) at = sweep[1] + Math.round(random.between(0, 5000));
  return Math.round(at);
}

async function placeOrder(
  context: SimulationContext,
  profile: Profile,
  random: Random,
  demand: Random,
  t: number,
  seed: number,
  start: number,
): Promise<{ record: SimulatedOrder; live: LiveOrder | null }> {
  const counts = Object.keys(profile.lines_per_order);
  const count = Number(counts[demand.pick(counts.map((c) => profile.lines_per_order[c]!))]);
  const chosen = Array.from({ length: count }, () => {
    const item = profile.menu[demand.pick(profile.menu.map((m) => m.weight))]!;
    const quantity = demand.next() < profile.multi_unit_share ? 1 + Math.floor(demand.next() * profile.max_quantity) : 1;
    return { item, quantity };
  });
  const channel = profile.channels[demand.pick(profile.channels.map((c) => c.share))]!;
  // A line's true seconds (its units at once on one cook, rounds past the first adding half a unit's time).
  const unitsOf = (item: Profile['menu'][number], quantity: number) => {
    const station = profile.stations.find((s) => s.id === item.station)!;
    return lineUnits(quantity, Math.min(station.units_at_once ?? 1, station.max_units_at_once ?? Number.POSITIVE_INFINITY));
  };
  const trueSeconds = (from: Random, item: Profile['menu'][number], quantity: number) =>
    from.logNormal(item.true_minutes * 60, item.spread) * (1 + 0.5 * (unitsOf(item, quantity).batches - 1));
  // With common arrivals every order's lines are drawn now, refused or not; else only a taken order's, below.
  const drawn = context.commonArrivals ? chosen.map(({ item, quantity }) => trueSeconds(demand, item, quantity)) : null;
  // Read apart from the random stream: the orders drawn do not change.
  const busyState = profile.busy_mode ? await readBusyState(context.server.engine, context.locationId) : null;
  const record: SimulatedOrder = {
    seed,
    channel: channel.kind,
    created_at: t,
    refused: null,
    expected_ready_at: null,
    promised_ready_at: null,
    ready_at: null,
    lines: chosen.map(({ item, quantity }) => ({ slug: item.slug, quantity, typed_minutes: item.typed_minutes, finished_at: null })),
    in_peak: t >= start + profile.peak.from_minute * MIN && t < start + profile.peak.to_minute * MIN,
    ...(busyState ? { busy: { paused: busyState.paused, wait_minutes: busyState.wait_minutes } } : {}),
  };
  const request = {
    dispatcher: connections,
    method: 'POST',
    // A store front retries a request the network lost with the same key: never a second order.
    headers: { authorization: `Bearer ${context.keys[channel.label]}`, 'content-type': 'application/json', 'idempotency-key': `sim-${seed}-${t}-${random.next()}` },
    body: JSON.stringify({
      location_id: context.locationId,
      type: 'retiro',
      customer: { name: 'Cliente simulado' },
      items: chosen.map(({ item, quantity }) => ({ product_id: context.productIds[item.slug], quantity })),
    }),
  };
  let response: Awaited<ReturnType<typeof fetch>> | null = null;
  for (let attempt = 1; response === null; attempt++) {
    try {
      response = await fetch(`${context.server.baseUrl}/orders`, request);
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
  const body = (await response.json()) as { id?: string; promise?: { expected_ready_at: string; promised_ready_at: string }; error?: { code: string; message?: string } };
  if (response.status !== 201) {
    record.refused = body.error?.code ?? String(response.status);
    if (body.error?.message) record.refused_message = body.error.message;
    return { record, live: null };
  }
  record.expected_ready_at = body.promise ? DateTime.fromISO(body.promise.expected_ready_at).toMillis() : null;
  record.promised_ready_at = body.promise ? DateTime.fromISO(body.promise.promised_ready_at).toMillis() : null;
  const live: LiveOrder = { id: body.id!, record, lines: [], tapped: false, ready: false };
  live.lines = chosen.map(({ item, quantity }, index) => {
    // A station that cooks several units at once has a line's units on together, up to one cook's room.
    return {
      order: live,
      index,
      station: item.station,
      seconds: drawn?.[index] ?? trueSeconds(random, item, quantity),
      units: unitsOf(item, quantity).units,
      started_at: null,
      finished_at: null,
    };
  });
  for (const line of live.lines) record.lines[line.index]!.trace = { station: line.station, held_until: null, fired_at: null, started_at: null, seconds: line.seconds };
  live.lines.forEach((line, index) => (record.lines[index]!.true_seconds = Math.round(line.seconds)));
  return { record, live };
}
