// Busy mode (issue 32): a location whose promised wait stays above a threshold for a few minutes
// stops taking store fronts' orders, and takes them again on its own once the wait falls below the
// threshold minus a margin. It cannot flap (at most `max_pauses_per_hour` pauses in any hour), and
// a manager's override from the hub wins until it is cleared. Paused by the wait, it refuses the
// store fronts' orders that would wait longer than the threshold themselves (their own promise), and
// the heavy ones (more work at the slow stations than one dish): a cart for a station with no
// queue is still taken, so a pause refuses the work the kitchen cannot cook in time, the heaviest
// first, and not a share of all orders. It
// resumes by its projected queue: the wait with the lines it refused lately counted as if taken
// (domain/refused-demand.ts). Pure: services/kitchen/busy-mode.ts keeps it.

export interface BusyModeSettings {
  /** Pause when the promised wait is above this many minutes... */
  threshold_minutes: number;
  /** ...for this many minutes in a row. */
  after_minutes: number;
  /** Resume once the wait is below the threshold minus this. */
  margin_minutes: number;
  max_pauses_per_hour: number;
}

export type BusyOverride = 'pause' | 'resume' | null;

export interface BusyState {
  paused: boolean;
  changed_at: number;
  above_since: number | null;
  wait_minutes: number;
  /** When the last pauses began (the last hour's, at most). */
  recent_pauses: number[];
  override: BusyOverride;
}

export const NOT_BUSY: BusyState = { paused: false, changed_at: 0, above_since: null, wait_minutes: 0, recent_pauses: [], override: null };

const MIN = 60_000;
const HOUR = 60 * MIN;

/** The next state from the current wait; `change` says whether it paused or resumed just now. */
export function nextBusyState(
  state: BusyState,
  waitMinutes: number,
  now: number,
  settings: BusyModeSettings,
): { state: BusyState; change: 'paused' | 'resumed' | null } {
  const recent = state.recent_pauses.filter((t) => now - t < HOUR);
  const above = waitMinutes > settings.threshold_minutes;
  const aboveSince = above ? (state.above_since ?? now) : null;
  let paused = state.paused;
  if (state.override === 'pause') paused = true;
  else if (state.override === 'resume') paused = false;
  else if (!state.paused) {
    paused = aboveSince !== null && now - aboveSince >= settings.after_minutes * MIN && recent.length < settings.max_pauses_per_hour;
  } else paused = waitMinutes >= settings.threshold_minutes - settings.margin_minutes;
  const change = paused === state.paused ? null : paused ? 'paused' : 'resumed';
  return {
    state: {
      paused,
      changed_at: change ? now : state.changed_at,
      above_since: aboveSince,
      wait_minutes: waitMinutes,
      recent_pauses: change === 'paused' && state.override === null ? [...recent, now] : recent,
      override: state.override,
    },
    change,
  };
}

/** Seconds a refused store front should wait before asking again: until the wait could be below the margin, 1 to 30 minutes. */
export function retryAfterSeconds(state: BusyState, settings: BusyModeSettings): number {
  const over = state.wait_minutes - (settings.threshold_minutes - settings.margin_minutes);
  return Math.round(Math.min(30, Math.max(1, over)) * 60);
}

/**
 * What a store front's order would cost the kitchen while the location is paused by its wait: its own
 * promised wait (minutes, unrounded); its work at the slow stations (those whose wait is within the
 * margin of the threshold, or over it), in minutes per cook there; and the same for one dish, the
 * longest single unit any slow station makes: the yardstick of a light order.
 */
export interface OrderBusyCost {
  own_wait: number;
  slow_station_minutes: number;
  one_dish_minutes: number;
}

/**
 * Whether a store front's order is refused now. Paused by a manager: every one. Paused by the wait:
 * - one whose own promised wait is above the threshold (the stations it needs are the slow ones);
 * - one that costs the slow stations more than one dish. A kitchen over its capacity must turn
 *   away so many minutes of work at its slow stations, and the fewer orders carry them, the fewer
 *   customers are refused: a pause sheds the heaviest work first, and the light orders (and the
 *   POS's, which are never refused) find the queue within the threshold.
 * `cost` is only asked for in that case (it costs a read of the load).
 */
export function refusesStoreFrontOrder(state: BusyState, settings: BusyModeSettings | undefined, cost: () => OrderBusyCost): boolean {
  if (!state.paused) return false;
  if (state.override === 'pause' || !settings) return true;
  const order = cost();
  return order.own_wait > settings.threshold_minutes || order.slow_station_minutes > order.one_dish_minutes;
}

/** A station is slow, for busy mode, while its wait is within the margin of the threshold or over it (where busy mode would not resume). */
export const isSlowStation = (waitMinutes: number, settings: BusyModeSettings): boolean => waitMinutes >= settings.threshold_minutes - settings.margin_minutes;

/**
 * How long a refused order's lines count in busy mode's projected queue (domain/refused-demand.ts):
 * the threshold, the wait the kitchen promises to keep; demand refused longer ago than a whole
 * promised wait would have been cooked by now.
 */
export const refusedDemandWindowMs = (settings: BusyModeSettings): number => settings.threshold_minutes * MIN;

/** Retry-After for a refused order whose own wait is known: until it could be within the threshold, 1 to 30 minutes. */
export function orderRetryAfterSeconds(orderWaitMinutes: number, settings: BusyModeSettings): number {
  return Math.round(Math.min(30, Math.max(1, orderWaitMinutes - settings.threshold_minutes)) * 60);
}
