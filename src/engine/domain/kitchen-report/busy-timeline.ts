// Busy mode's timeline (issue 33): the stretches a location was paused (store fronts' orders
// refused), from its pause and resume records in order, and why. Pure.

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
