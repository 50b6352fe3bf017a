// Busy mode's projected queue (issue 32): the store fronts' orders a paused location refused lately
// are work it would have again the moment it re-opened (the same customers order again, or others
// like them). Busy mode weighs its wait with that work at its stations as if it had been taken, so a
// location resumes when the queue it would have drains, not when refusing kept the real one short: a
// resume that the refused demand would undo within minutes is a flap, and after `max_pauses_per_hour`
// the next overload could not be paused at all. Kept in memory (a refusal's own transaction is
// undone, and a restarted hub simply forgets it: it then resumes by its real queue, as before).
// Bounded whatever a flood of refusals does: each note costs O(lines), each location keeps at most
// MAX_REFUSED_LINES lines, dropped oldest first. Pure.

/** A line of a refused order: its station and expected seconds, as the promise scheduled it. */
export interface RefusedLine {
  at: number;
  station_id: string;
  seconds: number;
}

/** Lines kept per location, at most (past that, the oldest are forgotten). */
export const MAX_REFUSED_LINES = 500;

export class RefusedDemand {
  private readonly byLocation = new Map<string, RefusedLine[]>();

  /** Notes a refused order's lines at `at` (lines no station prepares are not work). */
  note(locationId: string, at: number, lines: readonly { station_id: string | null; seconds: number }[]): void {
    let kept = this.byLocation.get(locationId);
    if (!kept) this.byLocation.set(locationId, (kept = []));
    for (const line of lines) if (line.station_id !== null && line.seconds > 0) kept.push({ at, station_id: line.station_id, seconds: line.seconds });
    if (kept.length > MAX_REFUSED_LINES) kept.splice(0, kept.length - MAX_REFUSED_LINES);
  }

  /** The lines refused in the `windowMs` up to `now` (older ones are forgotten). */
  recent(locationId: string, now: number, windowMs: number): readonly RefusedLine[] {
    const kept = this.byLocation.get(locationId);
    if (!kept) return [];
    let old = 0;
    while (old < kept.length && kept[old]!.at <= now - windowMs) old++;
    if (old > 0) kept.splice(0, old);
    if (kept.length === 0) this.byLocation.delete(locationId);
    return kept.filter((line) => line.at <= now);
  }
}
