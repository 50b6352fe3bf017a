// The promise: when a new order will be ready, from what every station has open, its cooks and the
// prep times. A what-if list schedule: each station's open lines, oldest fired first, go to the cook
// who frees first; the new order's lines are put behind them. Pure; services/kitchen/kitchen-promise.ts
// reads the inputs and keeps the answers.

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
}

export interface ScheduleInput {
  now: number;
  /** Cooks on shift per station (at least 1; a station missing here has 1). */
  cooks: ReadonlyMap<string, number>;
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
 * Each station's cooks and when each is next free, once the open lines fired up to `now` are placed:
 * what a line fired now waits for. Built once (queueOpenLines), then lines fired now are placed one
 * by one (fireNow), so that checking many lines against one load costs O(open × cooks + lines × cooks).
 */
export class StationQueues {
  private readonly free = new Map<string, number[]>();

  constructor(
    readonly now: number,
    private readonly cooks: ReadonlyMap<string, number>,
    private readonly freed: ReadonlyMap<string, readonly number[]> | undefined,
  ) {}

  /** The station's cooks' free times (created from its last bumps on first use). */
  cooksOf(station: string): number[] {
    let list = this.free.get(station);
    if (!list) {
      const freed = this.freed?.get(station) ?? [];
      list = Array.from({ length: Math.max(1, this.cooks.get(station) ?? 1) }, (_, k) => freed[k] ?? Number.NEGATIVE_INFINITY);
      this.free.set(station, list);
    }
    return list;
  }

  /** When a line of `seconds` fired now at `station` would be done (nothing placed). */
  finishIfFiredNow(station: string, seconds: number): number {
    const cooks = this.cooksOf(station);
    return Math.max(cooks[earliest(cooks)]!, this.now) + seconds * 1000;
  }

  /** Places a line fired now at `station` with the cook who frees first; returns when it is done. */
  fireNow(station: string, seconds: number): { start_at: number; finish_at: number } {
    const cooks = this.cooksOf(station);
    const k = earliest(cooks);
    const start = Math.max(cooks[k]!, this.now);
    const finish = start + seconds * 1000;
    cooks[k] = finish;
    return { start_at: start, finish_at: finish };
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
 * Places the open lines fired up to `now`, oldest fired first (ties in the order given), each with
 * the cook of its station who frees first, each cook free from the station's bump that freed them (so
 * a line that waited is not taken for one started when fired, and one started long ago holds its cook
 * only for what is left of it). Lines that fire later (held back to finish with their order) are left
 * out: a station takes its lines in the order they were fired, so they come after anything fired now.
 * Cost: O(open × cooks) after the sort.
 */
export function queueOpenLines(input: Omit<ScheduleInput, 'lines' | 'watch' | 'watch_all'>): QueuedOpenLines {
  const { now } = input;
  const queues = new StationQueues(now, input.cooks, input.freed);
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
  // Lines a cook marked started are on a cook since then, whatever the queue model says: placed
  // first, at their real start, each with the cook who frees first (the one who took it).
  const started = fired.filter((line) => line.started_explicit === true && line.started_at !== null).sort((a, b) => a.started_at! - b.started_at!);
  for (const line of started) {
    const cooks = queues.cooksOf(line.station_id);
    const k = earliest(cooks);
    const finish = placed(line, line.started_at!);
    cooks[k] = cooks[k]! <= line.started_at! ? finish : Math.max(cooks[k]!, finish);
  }
  const waiting = fired.filter((line) => !(line.started_explicit === true && line.started_at !== null)).sort((a, b) => a.fired_at - b.fired_at);
  for (const line of waiting) {
    const cooks = queues.cooksOf(line.station_id);
    const k = earliest(cooks);
    // A start known from its ticket is a lower bound (the ticket moved when its first line started,
    // maybe at another station): the line still waits for a cook of its own station.
    const finish = placed(line, Math.max(cooks[k]!, line.fired_at, line.started_at ?? Number.NEGATIVE_INFINITY));
    cooks[k] = Math.max(cooks[k]!, finish);
  }
  for (const [order, finish] of startedReady) if (ordersReady.get(order)! > finish) startedReady.delete(order);
  return { queues, orders_ready_at: ordersReady, orders_started_ready_at: startedReady };
}

/**
 * Schedules the open lines (queueOpenLines), then the new order's lines from now, each at its
 * station behind them. Cost: O((open + lines) × cooks) after the sort.
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
    const placed = queues.fireNow(line.station_id, line.seconds);
    lines.push({ station_id: line.station_id, ...placed });
    ready = Math.max(ready, placed.finish_at);
  }
  const watched = input.watch === undefined ? null : (ordersReady.get(input.watch) ?? null);
  return { expected_ready_at: ready, lines, watched_ready_at: watched, ...(input.watch_all ? { orders_ready_at: ordersReady } : {}) };
}

function earliest(times: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < times.length; i++) if (times[i]! < times[best]!) best = i;
  return best;
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
