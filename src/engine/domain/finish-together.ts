// Firing an order's lines so that they finish together (issue 32). A line whose station would have
// it done long before the order's slowest line is held back, and fired when its station's queue says
// it must start to be done by then. Pure: services/kitchen/held-lines.ts reads the load and writes the log.
import type { QueuedOpenLines, ScheduleResult } from './kitchen-promise.ts';

/**
 * A line is held only when it would otherwise be done at least this long before the order's slowest
 * line: a shorter hold buys nothing a cook would notice, and each hold is a firing the jobs must make.
 */
export const MIN_HOLD_MS = 90_000;

/**
 * A held line fires once its predicted finish, fired now, is within this of the order's target: the
 * jobs look every second on a hub (every 30 s in the simulator), and firing a little early costs
 * a line waiting on the pass, firing late costs the order's promise.
 */
export const FIRE_AHEAD_MS = 30_000;

/**
 * A line is never held longer than this after its order reached the kitchen. Past it, a prediction
 * of the order's slowest line is mostly queue (its errors grow with the wait), and a line missing
 * from its station's screen for an hour reads as a lost ticket: with nobody bumping at a demo's rush,
 * lines were held two hours ahead ("retenido hasta 22:06" at 19:59). It then fires at that time and
 * waits on the pass, as it would without holding.
 */
export const MAX_HOLD_MS = 30 * 60_000;

export interface HoldPlan {
  index: number;
  /** When the line is planned to fire: the order's expected ready time minus what the line needs from its firing. */
  fire_at: number;
  /** When the order's slowest line is expected done. */
  target_ready_at: number;
}

/**
 * The lines of a new order to hold, from its what-if schedule made at `now` (lines in the order's
 * order, `schedule.lines[i]` for line i): each line with a station whose expected finish is at least
 * MIN_HOLD_MS before the order's expected ready time is held by that slack, MAX_HOLD_MS at most. Lines without a station
 * (handed over at the counter) are never held.
 */
export function planHolds(now: number, schedule: ScheduleResult): HoldPlan[] {
  const plans: HoldPlan[] = [];
  schedule.lines.forEach((line, index) => {
    if (line.station_id === null) return;
    const slack = schedule.expected_ready_at - line.finish_at;
    if (slack < MIN_HOLD_MS) return;
    plans.push({ index, fire_at: now + Math.min(slack, MAX_HOLD_MS), target_ready_at: schedule.expected_ready_at });
  });
  return plans;
}

/**
 * Whether a held line fires now: its planned time has come (it never fires later than the screen
 * says), or fired now its station's queue would have it done no earlier than FIRE_AHEAD_MS before
 * the order's target: the later of its planned target and its other lines' predicted finish, or,
 * once the order's slowest fired line was started at its station (`startedReadyAt`), its finish
 * from that real start alone (start plus its mean: earlier or later than planned, the queue that
 * delayed or hurried it is then known, not guessed).
 */
export function firesNow(now: number, held: { fire_at: number; target_ready_at: number }, finishIfFiredNow: number, othersReadyAt: number | null, startedReadyAt: number | null = null): boolean {
  if (now >= held.fire_at) return true;
  const target = startedReadyAt ?? Math.max(held.target_ready_at, othersReadyAt ?? Number.NEGATIVE_INFINITY);
  return finishIfFiredNow >= target - FIRE_AHEAD_MS;
}

/**
 * A held line's plan moves only when its order's fired lines are predicted this much later than its
 * target: each move is an event every screen redraws, and a prediction moves a little all the time.
 */
export const REPLAN_MS = 60_000;

/** How much later a held line's firing and target move (0: not at all), given its order's other lines' predicted finish. */
export function replanShift(held: { target_ready_at: number }, othersReadyAt: number | null): number {
  if (othersReadyAt === null || othersReadyAt - held.target_ready_at < REPLAN_MS) return 0;
  return othersReadyAt - held.target_ready_at;
}

/** A line held back, as the firing decision needs it. */
export interface HeldLine {
  order_id: string;
  station_id: string;
  /** Expected seconds for the whole line once started. */
  seconds: number;
  /** The station's slots it takes at once (a station that cooks several units at once); 1 when absent. */
  units?: number;
  fire_at: number;
  target_ready_at: number;
  /** When it was held (a line held earlier): its plan never moves past this plus MAX_HOLD_MS. */
  held_at?: number;
}

/** What becomes of a held line now: its plan moved `shift` ms later (0: not), and whether it fires. */
export interface HeldDecision<T extends HeldLine> {
  line: T;
  shift: number;
  fires: boolean;
}

/**
 * Decides every held line against one placing of the fired lines (`queued`, queueOpenLines at
 * now), soonest planned first: its plan moves when its order's fired lines run late (replanShift),
 * and it fires when firesNow says so, placed then in its station's queue (the next one waits behind
 * it) and counted in its order's predicted finish. One pass: O(held × cooks), whatever the load.
 */
export function decideHeldLines<T extends HeldLine>(queued: QueuedOpenLines, held: readonly T[]): HeldDecision<T>[] {
  const { queues, orders_ready_at: ordersReady, orders_started_ready_at: startedReady } = queued;
  const sorted = [...held].sort((a, b) => a.fire_at - b.fire_at);
  return sorted.map((line) => {
    const others = ordersReady.get(line.order_id) ?? null;
    const latest = line.held_at === undefined ? Number.POSITIVE_INFINITY : line.held_at + MAX_HOLD_MS;
    const shift = Math.min(replanShift(line, others), Math.max(0, latest - line.fire_at));
    const planned = { fire_at: line.fire_at + shift, target_ready_at: line.target_ready_at + shift };
    const fires = firesNow(queues.now, planned, queues.finishIfFiredNow(line.station_id, line.seconds, line.units), others, startedReady.get(line.order_id) ?? null);
    if (fires) {
      const { finish_at: finish } = queues.fireNow(line.station_id, line.seconds);
      ordersReady.set(line.order_id, Math.max(others ?? finish, finish));
    }
    return { line, shift, fires };
  });
}
