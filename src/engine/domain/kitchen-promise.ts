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
  /** Expected seconds for the whole line. */
  seconds: number;
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
}

/**
 * A line still open past its expected finish is given this share of its time more: the cook is on
 * it, nearly done (the schedule never puts work in the past).
 */
const OVERDUE_REMAINING_SHARE = 0.15;

/**
 * Schedules the open lines from the oldest one's firing, each cook free from the station's bump
 * that freed them (so a line that waited is not taken for one started when fired, and one started
 * long ago holds its cook only for what is left of it), then the new order's lines from now.
 * Cost: O(open × cooks).
 */
export function scheduleOrder(input: ScheduleInput): ScheduleResult {
  const { now } = input;
  const free = new Map<string, number[]>();
  const cooksOf = (station: string): number[] => {
    let list = free.get(station);
    if (!list) {
      const freed = input.freed?.get(station) ?? [];
      list = Array.from({ length: Math.max(1, input.cooks.get(station) ?? 1) }, (_, k) => freed[k] ?? Number.NEGATIVE_INFINITY);
      free.set(station, list);
    }
    return list;
  };
  const open = [...input.open].sort((a, b) => a.fired_at - b.fired_at);
  for (const line of open) {
    const cooks = cooksOf(line.station_id);
    const k = earliest(cooks);
    // A start known from its ticket is a lower bound (the ticket moved when its first line started,
    // maybe at another station): the line still waits for a cook of its own station.
    const start = Math.max(cooks[k]!, line.fired_at, line.started_at ?? Number.NEGATIVE_INFINITY);
    let finish = start + line.seconds * 1000;
    if (finish < now) finish = now + line.seconds * 1000 * OVERDUE_REMAINING_SHARE;
    cooks[k] = Math.max(cooks[k]!, finish);
  }
  const lines: ScheduledLine[] = [];
  let ready = now;
  for (const line of input.lines) {
    if (line.station_id === null) {
      lines.push({ station_id: null, start_at: now, finish_at: now });
      continue;
    }
    const cooks = cooksOf(line.station_id);
    const k = earliest(cooks);
    const start = Math.max(cooks[k]!, now);
    const finish = start + line.seconds * 1000;
    cooks[k] = finish;
    lines.push({ station_id: line.station_id, start_at: start, finish_at: finish });
    ready = Math.max(ready, finish);
  }
  return { expected_ready_at: ready, lines };
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
