// The promise: when a new order will be ready, from what every station has open, its cooks and the
// prep times. A what-if list schedule: each station's open lines, oldest fired first, go to the
// slots (a cook, or the units a cook or an oven has on at once) that free first; the new order's
// lines are put behind them. Pure; services/kitchen/kitchen-promise.ts
// reads the inputs and keeps the answers.
import { stationCapacity, type StationCapacity, type StationUnits } from './station-capacity.ts';

/** A line the station already has: fired, maybe started, not done. */
export interface OpenLine {
  station_id: string;
  fired_at: number;
  /** When it is known to have started (the ticket moved to en_preparacion, or an explicit start). */
  started_at: number | null;
  /**
   * `started_at` is the line's own start, marked at its station (issue 32): a cook is on it since
   * then. Otherwise it is a lower bound at most (its ticket's move, maybe for a line at another station).
   */
  started_explicit?: boolean;
  /** Expected seconds for the whole line. */
  seconds: number;
  /** Units of its station it has on at once (lineUnits, domain/station-capacity.ts); absent: 1. */
  units?: number;
  /** Its order and position, when the caller wants that order's predicted finish (`ScheduleInput.watch`). */
  order_id?: string;
  item_index?: number;
}

/** A line of the order being promised. */
export interface NewLine {
  /** null: no station prepares it (handed over at the counter), ready at once. */
  station_id: string | null;
  seconds: number;
  p90_seconds: number;
  /** Units of its station it has on at once; absent: 1. */
  units?: number;
}

export interface ScheduleInput {
  now: number;
  /** Cooks on shift per station (at least 1; a station missing here has 1). */
  cooks: ReadonlyMap<string, number>;
  /** Units at once per station (domain/station-capacity.ts); a station missing here cooks one line per cook. */
  units?: ReadonlyMap<string, StationUnits>;
  open: readonly OpenLine[];
  /** Per station, when its cooks were last free: its last bumps, latest first (none known: free since ever). */
  freed?: ReadonlyMap<string, readonly number[]>;
  lines: readonly NewLine[];
  /** An order whose open lines' predicted finish is wanted (`ScheduleResult.watched_ready_at`). */
  watch?: string;
  /** Every order's open lines' predicted finish is wanted (`ScheduleResult.orders_ready_at`). */
  watch_all?: boolean;
}

export interface ScheduledLine {
  station_id: string | null;
  /** When a cook is expected to take it. */
  start_at: number;
  finish_at: number;
}

export interface ScheduleResult {
  /** When the last of the new order's lines is expected done (now for an order no station prepares). */
  expected_ready_at: number;
  lines: ScheduledLine[];
  /** When the last open line of `ScheduleInput.watch` is predicted done; null: it has none open (or none was asked). */
  watched_ready_at: number | null;
  /** With `watch_all`: per order, when its last fired line is predicted done. */
  orders_ready_at?: Map<string, number>;
}

/**
 * A line still open past its expected finish is given this share of its time more: the cook is on
 * it, nearly done (the schedule never puts work in the past).
 */
const OVERDUE_REMAINING_SHARE = 0.15;

/**
 * Each station's units at once and when each is next free, once the open lines fired up to `now` are
 * placed: what a line fired now waits for. A station has as many slots as units it cooks at once
 * (domain/station-capacity.ts: one per cook when the restaurant file says nothing); a line takes as
 * many slots as its units on at once, all from the same moment (its units go on together and come off
 * together). Built once (queueOpenLines), then lines fired now are placed one by one (fireNow). Each
 * station's free times are a min-heap: a line costs O(its units × log slots), so checking many lines
 * against one load costs O(open + lines) for stations of bounded size.
 */
export class StationQueues {
  private readonly free = new Map<string, number[]>();

  constructor(
    readonly now: number,
    private readonly cooks: ReadonlyMap<string, number>,
    private readonly freed: ReadonlyMap<string, readonly number[]> | undefined,
    private readonly units?: ReadonlyMap<string, StationUnits>,
  ) {}

  /** The station's capacity with its cooks on shift: its slots and the most one line takes. */
  capacityOf(station: string): StationCapacity {
    return stationCapacity(this.cooks.get(station) ?? 1, this.units?.get(station));
  }

  /** The station's slots' free times, a min-heap (created from its last bumps on first use). */
  private slotsOf(station: string): number[] {
    let heap = this.free.get(station);
    if (!heap) {
      const freed = this.freed?.get(station) ?? [];
      // Latest first: the slots freed longest ago (or never) are at the front, a valid min-heap once reversed.
      heap = Array.from({ length: this.capacityOf(station).slots }, (_, k) => freed[k] ?? Number.NEGATIVE_INFINITY).reverse();
      heapify(heap);
      this.free.set(station, heap);
    }
    return heap;
  }

  /** When `units` slots of the station are all free (the `units`-th earliest), nothing placed. */
  private freeFor(station: string, units: number): number {
    const heap = this.slotsOf(station);
    const k = Math.min(Math.max(1, units), heap.length);
    if (k === 1) return heap[0]!;
    const taken: number[] = [];
    for (let i = 0; i < k; i++) taken.push(popMin(heap));
    for (const t of taken) push(heap, t);
    return taken[k - 1]!;
  }

  /**
   * Takes the `units` slots that free first and gives them `finishOf(free)`, where `free` is when the
   * last of them frees; returns that free time and the finish. A slot already busy past the finish
   * (a line the model placed beside one a cook really started) keeps its own time.
   */
  take(station: string, units: number, finishOf: (free: number) => number): { free: number; finish: number } {
    const heap = this.slotsOf(station);
    const k = Math.min(Math.max(1, units), heap.length);
    const taken: number[] = [];
    for (let i = 0; i < k; i++) taken.push(popMin(heap));
    const free = taken[k - 1]!;
    const finish = finishOf(free);
    for (const t of taken) push(heap, Math.max(t, finish));
    return { free, finish };
  }

  /** When a line of `seconds` and `units` at once fired now at `station` would be done (nothing placed). */
  finishIfFiredNow(station: string, seconds: number, units = 1): number {
    return Math.max(this.freeFor(station, units), this.now) + seconds * 1000;
  }

  /** Places a line fired now at `station` on the slots that free first; returns when it starts and is done. */
  fireNow(station: string, seconds: number, units = 1): { start_at: number; finish_at: number } {
    const { free, finish } = this.take(station, units, (at) => Math.max(at, this.now) + seconds * 1000);
    return { start_at: Math.max(free, this.now), finish_at: finish };
  }
}

/** The open lines placed (queueOpenLines): the stations' queues, and when each order's placed lines are predicted done. */
export interface QueuedOpenLines {
  queues: StationQueues;
  /** Per order (lines given an `order_id`), when its last open line is predicted done. */
  orders_ready_at: Map<string, number>;
  /**
   * Per order whose slowest open line (the last predicted done) was started at its station
   * (explicitly): when it is expected done, from that real start (start plus its mean), no queue
   * guessed in it. Absent while a line not started is predicted done later.
   */
  orders_started_ready_at: Map<string, number>;
}

/**
 * Places the open lines fired up to `now`, oldest fired first (ties in the order given), each on
 * the slots of its station that free first (one per unit it has on at once: a cook's, when the
 * station cooks one line per cook), each slot free from the station's bump that freed it (so a line
 * that waited is not taken for one started when fired, and one started long ago holds its slots only
 * for what is left of it). Lines that fire later (held back to finish with their order) are left
 * out: a station takes its lines in the order they were fired, so they come after anything fired now.
 * Cost: O(open × units × log slots) after the sort: O(open) for stations of bounded size.
 */
export function queueOpenLines(input: Omit<ScheduleInput, 'lines' | 'watch' | 'watch_all'>): QueuedOpenLines {
  const { now } = input;
  const queues = new StationQueues(now, input.cooks, input.freed, input.units);
  const ordersReady = new Map<string, number>();
  const startedReady = new Map<string, number>();
  const placed = (line: OpenLine, start: number) => {
    let finish = start + line.seconds * 1000;
    if (finish < now) finish = now + line.seconds * 1000 * OVERDUE_REMAINING_SHARE;
    if (line.order_id !== undefined) {
      ordersReady.set(line.order_id, Math.max(ordersReady.get(line.order_id) ?? finish, finish));
      if (line.started_explicit === true) startedReady.set(line.order_id, Math.max(startedReady.get(line.order_id) ?? finish, finish));
    }
    return finish;
  };
  const fired = input.open.filter((line) => line.fired_at <= now);
  // Lines a cook marked started are on the station since then, whatever the queue model says: placed
  // first, at their real start, on the slots that free first (those the cook took).
  const started = fired.filter((line) => line.started_explicit === true && line.started_at !== null).sort((a, b) => a.started_at! - b.started_at!);
  for (const line of started) queues.take(line.station_id, line.units ?? 1, () => placed(line, line.started_at!));
  const waiting = fired.filter((line) => !(line.started_explicit === true && line.started_at !== null)).sort((a, b) => a.fired_at - b.fired_at);
  for (const line of waiting) {
    // A start known from its ticket is a lower bound (the ticket moved when its first line started,
    // maybe at another station): the line still waits for slots of its own station.
    queues.take(line.station_id, line.units ?? 1, (free) => placed(line, Math.max(free, line.fired_at, line.started_at ?? Number.NEGATIVE_INFINITY)));
  }
  for (const [order, finish] of startedReady) if (ordersReady.get(order)! > finish) startedReady.delete(order);
  return { queues, orders_ready_at: ordersReady, orders_started_ready_at: startedReady };
}

/**
 * Schedules the open lines (queueOpenLines), then the new order's lines from now, each at its
 * station behind them. Cost: O((open + lines) × units × log slots) after the sort.
 */
export function scheduleOrder(input: ScheduleInput): ScheduleResult {
  const { now } = input;
  const { queues, orders_ready_at: ordersReady } = queueOpenLines(input);
  const lines: ScheduledLine[] = [];
  let ready = now;
  for (const line of input.lines) {
    if (line.station_id === null) {
      lines.push({ station_id: null, start_at: now, finish_at: now });
      continue;
    }
    const placed = queues.fireNow(line.station_id, line.seconds, line.units);
    lines.push({ station_id: line.station_id, ...placed });
    ready = Math.max(ready, placed.finish_at);
  }
  const watched = input.watch === undefined ? null : (ordersReady.get(input.watch) ?? null);
  return { expected_ready_at: ready, lines, watched_ready_at: watched, ...(input.watch_all ? { orders_ready_at: ordersReady } : {}) };
}

function heapify(heap: number[]): void {
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
}

function siftDown(heap: number[], from: number): void {
  let i = from;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && heap[l]! < heap[m]!) m = l;
    if (r < heap.length && heap[r]! < heap[m]!) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
}

function popMin(heap: number[]): number {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    siftDown(heap, 0);
  }
  return top;
}

function push(heap: number[], value: number): void {
  heap.push(value);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= heap[i]!) return;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

/** The margin added to the expected time to make the promise, and how it was found. */
export interface PromiseMargin {
  seconds: number;
  basis: 'calibrated' | 'prior';
}

/** Ready orders of a location kept to calibrate the margin; fewer than MIN_CALIBRATION use the prior. */
export const CALIBRATION_WINDOW = 200;
export const MIN_CALIBRATION = 30;

/**
 * Errors grow with the wait (a longer queue adds more lines' spread): lateness is calibrated per
 * second of wait, plus this many seconds so that a short wait keeps a margin of its own.
 */
export const MARGIN_SCALE_OFFSET_SECONDS = 60;

/**
 * Recent orders' lateness understates the next ones' in a rush that is getting worse (errors come
 * in runs): the quantile is aimed this share of the way closer to 1 (0.9 is aimed at 0.93). Set on
 * the simulator's training seeds 1–30 (docs/kitchen-promises.md), never on the reported ones.
 */
export const QUANTILE_HEADROOM = 0.3;

/**
 * The margin for the `quantile` of lateness: calibrated from the location's last ready orders once
 * there are MIN_CALIBRATION of them (each one's lateness over its expected wait plus the offset; the
 * quantile of those, times this order's), before, a prior: the order's slowest line's p90 minus its
 * mean, plus a tenth of the wait.
 */
export function promiseMargin(
  outcomes: readonly { lateness_seconds: number; wait_seconds: number }[],
  quantileOf: (values: readonly number[], q: number) => number,
  q: number,
  prior: { lines: readonly NewLine[]; wait_seconds: number },
): PromiseMargin {
  if (outcomes.length >= MIN_CALIBRATION) {
    const scaled = outcomes.map((o) => o.lateness_seconds / (Math.max(0, o.wait_seconds) + MARGIN_SCALE_OFFSET_SECONDS));
    const aimed = q + (1 - q) * QUANTILE_HEADROOM;
    return { seconds: Math.max(0, quantileOf(scaled, aimed) * (Math.max(0, prior.wait_seconds) + MARGIN_SCALE_OFFSET_SECONDS)), basis: 'calibrated' };
  }
  const spread = prior.lines.reduce((max, line) => Math.max(max, line.p90_seconds - line.seconds), 0);
  return { seconds: spread + 0.1 * prior.wait_seconds, basis: 'prior' };
}
