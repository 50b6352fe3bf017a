// The rush strip (issue 33): per slot (15 minutes for a day), the tickets finished, the median (p50)
// and p90 of their times, and the orders in progress at the slot's end, on one time axis. Pure.
import { quantiles } from '../prep-times.ts';
import { countedTickets, type Ticket } from './tickets.ts';

export const RUSH_SLOT_MS = 15 * 60_000;

export interface RushSlot {
  start: number;
  end: number;
  /** Counted tickets (plausible, not cancelled) whose last line was done in the slot. */
  finished: number;
  /** Median and p90 of those tickets' times, whole seconds; null for none. */
  p50_seconds: number | null;
  p90_seconds: number | null;
  /**
   * Every ticket fired before the slot's end and neither done nor cancelled by then (left-out ones
   * too: they were on the board); for the slot holding `now`, at `now`; null for a slot not begun
   * (what will be in progress at 23:45 is not known at 13:20).
   */
  in_progress: number | null;
}

/** How many of the ascending `values` are below `limit` (at or below it with `orAt`). */
function countBelow(values: ArrayLike<number>, limit: number, orAt = false): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid]! < limit || (orAt && values[mid] === limit)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The strip over consecutive slots given by their `boundaries` (ascending instants: slot i is
 * [boundaries[i], boundaries[i + 1])), so a day's slots follow the local clock. O(tickets log
 * tickets): each counted ticket's time goes to its slot by a binary search over the boundaries, and
 * the instants are sorted as typed arrays (a 90-day range has ~45,000 tickets; sorting their objects
 * by a comparator cost more than the rest of the strip).
 */
export function rushStrip(tickets: readonly Ticket[], boundaries: readonly number[], now: number): RushSlot[] {
  const slotTimes: number[][] = Array.from({ length: Math.max(0, boundaries.length - 1) }, () => []);
  for (const t of countedTickets(tickets)) {
    const slot = countBelow(boundaries, t.ready_at, true) - 1;
    if (slot >= 0 && slot < slotTimes.length) slotTimes[slot]!.push(t.seconds);
  }
  const fired = Float64Array.from(tickets, (t) => t.fired_at).sort();
  let ends = 0;
  for (const t of tickets) if ((t.ready_at ?? t.cancelled_at) !== null) ends++;
  const ended = new Float64Array(ends);
  ends = 0;
  for (const t of tickets) {
    const end = t.ready_at ?? t.cancelled_at;
    if (end !== null) ended[ends++] = end;
  }
  ended.sort();
  return slotTimes.map((times, i) => {
    const start = boundaries[i]!;
    const end = boundaries[i + 1]!;
    const [p50, p90] = quantiles(times, [0.5, 0.9]);
    return {
      start,
      end,
      finished: times.length,
      p50_seconds: times.length ? Math.round(p50!) : null,
      p90_seconds: times.length ? Math.round(p90!) : null,
      in_progress: start >= now ? null : countBelow(fired, Math.min(end, now)) - countBelow(ended, Math.min(end, now)),
    };
  });
}
