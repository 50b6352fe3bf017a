// The replay of a past service (issue 33): the timeline the engine reads once (services/reports/kitchen-replay.ts)
// and the state of the kitchen at any instant of it, computed on the page for each frame of the
// scrubber. Pure: shared by the engine's tests and the Informes screen.
import type { OrderStatus } from './order-states.ts';

/** One order of the service: its states as they changed (oldest first) and its promise. */
export interface ReplayOrder {
  id: string;
  number: string;
  /** [instant (ms), state entered] pairs, oldest first. */
  states: [number, OrderStatus][];
  promised_ready_at: number | null;
  /** When it was ready (its promise's record, else its move to `listo`), or null. */
  ready_at: number | null;
}

/**
 * One line's stint at a station: from when it reached the kitchen to when it was marked done, with
 * the cook lane it was given (services reads the log; domain/kitchen-report/replay-lines.ts assigns).
 */
export interface ReplayLine {
  /** Index into `orders`. */
  order: number;
  station_id: string;
  product: string;
  quantity: number;
  fired_at: number;
  /** When a cook took it: the latest of its firing, its start tap and a cook of its station freed. */
  work_from: number;
  /** Null: never marked done in the timeline. */
  done_at: number | null;
  /** The cook lane (0-based) it was cooked in; null when never done. */
  lane: number | null;
}

export interface ReplayStation {
  station_id: string;
  name: string;
  /** Cook lanes drawn (the cooks on shift; more when the log needs more). */
  lanes: number;
}

export interface KitchenReplay {
  location_id: string;
  day: string;
  time_zone: string;
  /** The span to scrub (ms): the first to the last moment something happened in the range. */
  start: number;
  end: number;
  orders: ReplayOrder[];
  lines: ReplayLine[];
  stations: ReplayStation[];
  /** True when a bound on what one replay reads was reached (the timeline is incomplete). */
  truncated: boolean;
}

/** The board's columns, in the board's order. */
export const REPLAY_COLUMNS = ['programado', 'recibido', 'en_preparacion', 'listo', 'en_reparto'] as const satisfies readonly OrderStatus[];
export type ReplayColumn = (typeof REPLAY_COLUMNS)[number];

export interface BoardCard {
  order: number;
  number: string;
  /** When it entered the state it is in. */
  since: number;
  promised_ready_at: number | null;
  ready_at: number | null;
  /** Past its promise at this instant without being ready. */
  late: boolean;
}

export interface LaneBar {
  lane: number;
  product: string;
  quantity: number;
  number: string;
  from: number;
  /** The bar's end at this instant: its done time, or the instant itself while still cooking. */
  to: number;
  cooking: boolean;
}

export interface StationFrame {
  station_id: string;
  lanes: number;
  bars: LaneBar[];
  /** Lines fired and waiting for a cook at this instant. */
  queue: number;
}

export interface ReplayFrame {
  at: number;
  columns: Record<ReplayColumn, BoardCard[]>;
  stations: StationFrame[];
  /** Lines waiting for a cook, all stations. */
  queue: number;
}

const KITCHEN_STATES: ReadonlySet<OrderStatus> = new Set(['recibido', 'en_preparacion']);

/** The state an order was in at `at` and since when; null before its first known state. */
export function stateAt(order: ReplayOrder, at: number): [number, OrderStatus] | null {
  let found: [number, OrderStatus] | null = null;
  for (const state of order.states) {
    if (state[0] > at) break;
    found = state;
  }
  return found;
}

/**
 * The kitchen at instant `at`: each order in the column of the state it was in (cards oldest first),
 * each station's cook lanes with the lines cooked in the `window` ms up to `at` (a line still cooking
 * ends at `at`), and the queue: lines fired, not yet taken by a cook, of orders still in the kitchen.
 */
export function replayFrame(replay: KitchenReplay, at: number, window: number): ReplayFrame {
  const columns = Object.fromEntries(REPLAY_COLUMNS.map((c) => [c, [] as BoardCard[]])) as Record<ReplayColumn, BoardCard[]>;
  const inKitchen: boolean[] = [];
  replay.orders.forEach((order, index) => {
    const state = stateAt(order, at);
    inKitchen.push(state !== null && KITCHEN_STATES.has(state[1]));
    if (state === null || !(REPLAY_COLUMNS as readonly string[]).includes(state[1])) return;
    const ready = order.ready_at !== null && order.ready_at <= at;
    columns[state[1] as ReplayColumn].push({
      order: index,
      number: order.number,
      since: state[0],
      promised_ready_at: order.promised_ready_at,
      ready_at: order.ready_at,
      late: !ready && order.promised_ready_at !== null && at > order.promised_ready_at,
    });
  });
  for (const cards of Object.values(columns)) cards.sort((a, b) => a.since - b.since || a.order - b.order);
  const stations = new Map<string, StationFrame>(replay.stations.map((s) => [s.station_id, { station_id: s.station_id, lanes: s.lanes, bars: [], queue: 0 }]));
  let queue = 0;
  for (const line of replay.lines) {
    const station = stations.get(line.station_id);
    if (!station || line.fired_at > at) continue;
    if (at < line.work_from || (line.lane === null && line.done_at === null)) {
      if (inKitchen[line.order]) {
        station.queue++;
        queue++;
      }
      continue;
    }
    if (line.lane === null || (line.done_at !== null && line.done_at < at - window)) continue;
    const cooking = line.done_at === null || line.done_at > at;
    station.bars.push({ lane: line.lane, product: line.product, quantity: line.quantity, number: replay.orders[line.order]!.number, from: line.work_from, to: cooking ? at : line.done_at!, cooking });
  }
  return { at, columns, stations: [...stations.values()], queue };
}

/**
 * Whether two frames' boards draw the same (the same cards in each column, each as late and as
 * ready): while playing, the board changes only when an order moves, is ready or passes its
 * promise, a few times a minute of service, so a frame that draws the same board keeps the one
 * already drawn (the screen skips it: at 60× a frame is one second of service).
 */
export function sameBoard(a: Record<ReplayColumn, BoardCard[]>, b: Record<ReplayColumn, BoardCard[]>, aAt: number, bAt: number): boolean {
  for (const column of REPLAY_COLUMNS) {
    const x = a[column];
    const y = b[column];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      const p = x[i]!;
      const q = y[i]!;
      if (p.order !== q.order || p.late !== q.late || p.since !== q.since || shownReady(p, aAt) !== shownReady(q, bAt)) return false;
    }
  }
  return true;
}

/** A card's ready time once the instant reached it, else null. */
export const shownReady = (card: BoardCard, at: number): number | null => (card.ready_at !== null && card.ready_at <= at ? card.ready_at : null);

/** A station's bars read once from the replay: every line cooked in a lane, by start, to find those of any instant by binary search. */
export interface StationLaneIndex {
  station_id: string;
  lanes: number;
  /** Sorted by `from` (then lane). */
  bars: { lane: number; product: string; quantity: number; number: string; from: number; done: number }[];
  /** The longest bar (ms): a bar shown at `at` started at most this long before the window. */
  longest: number;
}

/**
 * Each station's lane bars indexed once per replay (what a frame drew by scanning every line): a
 * frame played at 60× then finds its bars with a binary search and a walk over the window alone.
 */
export function laneIndex(replay: KitchenReplay): StationLaneIndex[] {
  const stations = new Map<string, StationLaneIndex>(replay.stations.map((s) => [s.station_id, { station_id: s.station_id, lanes: s.lanes, bars: [], longest: 0 }]));
  for (const line of replay.lines) {
    const station = stations.get(line.station_id);
    if (!station || line.lane === null || line.done_at === null) continue;
    station.bars.push({ lane: line.lane, product: line.product, quantity: line.quantity, number: replay.orders[line.order]!.number, from: line.work_from, done: line.done_at });
    station.longest = Math.max(station.longest, line.done_at - line.work_from);
  }
  for (const station of stations.values()) station.bars.sort((a, b) => a.from - b.from || a.lane - b.lane);
  return [...stations.values()];
}

/**
 * The bars of a station at instant `at`, as replayFrame draws them (cooked in the `window` ms up to
 * `at`; one still cooking ends at `at`), in the same order: lines that started by `at` and were done
 * no earlier than `at - window`.
 */
export function barsAt(station: StationLaneIndex, at: number, window: number): LaneBar[] {
  const { bars } = station;
  // The first bar starting after `at`.
  let low = 0;
  let high = bars.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (bars[middle]!.from <= at) low = middle + 1;
    else high = middle;
  }
  const earliest = at - window - station.longest;
  const shown: LaneBar[] = [];
  for (let i = low - 1; i >= 0 && bars[i]!.from >= earliest; i--) {
    const bar = bars[i]!;
    if (bar.done < at - window) continue;
    const cooking = bar.done > at;
    shown.push({ lane: bar.lane, product: bar.product, quantity: bar.quantity, number: bar.number, from: bar.from, to: cooking ? at : bar.done, cooking });
  }
  return shown.reverse();
}

/**
 * Every instant at which what replayFrame draws can change (sorted, each once): an order's state
 * changes, its ready time and its promise (late once past it); a line's firing, its start and its
 * end, and its end plus the lanes' `window` (it leaves the lanes). Between two of these instants the
 * board, the queues and each station's bars are the same (only the bars' lengths grow), so a played
 * frame that crosses none needs no React render: changeKey tells.
 */
export function changeInstants(replay: KitchenReplay, window: number): number[] {
  const instants: number[] = [];
  for (const order of replay.orders) {
    for (const [instant] of order.states) instants.push(instant);
    if (order.ready_at !== null) instants.push(order.ready_at);
    if (order.promised_ready_at !== null) instants.push(order.promised_ready_at);
  }
  for (const line of replay.lines) {
    instants.push(line.fired_at, line.work_from);
    if (line.done_at !== null) instants.push(line.done_at, line.done_at + window);
  }
  instants.sort((a, b) => a - b);
  return instants.filter((instant, i) => i === 0 || instant !== instants[i - 1]);
}

/**
 * Which stretch between change instants `at` is in: equal keys, same frame but for the bars'
 * lengths. It counts the instants before `at` and those at or before it, so that a comparison of
 * `at` with any change instant (<, <=, >, >=) comes out the same for two instants of one key.
 */
export function changeKey(instants: readonly number[], at: number): number {
  let low = 0;
  let high = instants.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (instants[middle]! < at) low = middle + 1;
    else high = middle;
  }
  return 2 * low + (low < instants.length && instants[low] === at ? 1 : 0);
}
