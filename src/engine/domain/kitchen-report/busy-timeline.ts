// Busy mode's timeline (issue 33): the stretches a location was paused (store fronts' orders
// refused), from its pause and resume records in order, and why; and the orders it refused
// (domain/busy-refusals.ts), counted per stretch and listed. Pure.
import { REFUSALS_LISTED_PER_MINUTE, type RefusalMinute, type RefusedOrder } from '../busy-refusals.ts';

export interface BusyChange {
  at: number;
  paused: boolean;
  /** 'kitchen_wait' (the wait stayed above the threshold), 'manager' (the hub's override), 'none'. */
  reason: string;
  wait_minutes: number;
}

export interface BusyStretch {
  from: number;
  /** When it resumed; null: still paused at the report's end. */
  to: number | null;
  reason: string;
  /** The kitchen's wait when it paused, minutes. */
  wait_minutes: number;
}

/** Consecutive changes folded into paused stretches: a stretch runs from a pause to the next resume; one paused before `from` starts at `from`. */
export function busyTimeline(changes: readonly BusyChange[], pausedAtStart: BusyChange | null, from: number): BusyStretch[] {
  const stretches: BusyStretch[] = [];
  let open: BusyStretch | null = pausedAtStart?.paused ? { from, to: null, reason: pausedAtStart.reason, wait_minutes: pausedAtStart.wait_minutes } : null;
  for (const change of [...changes].sort((a, b) => a.at - b.at)) {
    if (change.paused && open === null) open = { from: change.at, to: null, reason: change.reason, wait_minutes: change.wait_minutes };
    else if (!change.paused && open !== null) {
      stretches.push({ ...open, to: change.at });
      open = null;
    }
  }
  if (open) stretches.push(open);
  return stretches;
}

/**
 * The stretches with the refusals each holds (a minute counts for the stretch it overlaps: refusals
 * come only while paused), every refusal of the period counted, and the orders listed (by time).
 * `truncated`: a minute had more refusals than it lists.
 */
export function busyRefusalsIn(
  stretches: readonly BusyStretch[],
  minutes: readonly RefusalMinute[],
): { stretches: (BusyStretch & { refused: number })[]; refused: number; listed: RefusedOrder[]; truncated: boolean } {
  const counted = stretches.map((s) => ({ ...s, refused: 0 }));
  let refused = 0;
  let truncated = false;
  const listed: RefusedOrder[] = [];
  for (const minute of minutes) {
    refused += minute.refused;
    const stretch = counted.find((s) => minute.minute < (s.to ?? Number.POSITIVE_INFINITY) && minute.minute + 60_000 > s.from);
    if (stretch) stretch.refused += minute.refused;
    listed.push(...minute.listed);
    if (minute.refused > minute.listed.length || minute.listed.length > REFUSALS_LISTED_PER_MINUTE) truncated = true;
  }
  return { stretches: counted, refused, listed: listed.sort((a, b) => a.at - b.at), truncated };
}
