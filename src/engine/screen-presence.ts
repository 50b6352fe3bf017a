// When a restaurant's kitchen screens were last live, per station, on the engine's clock: each live
// feed's heartbeat (the desktop window's, and every paired kitchen tablet's stream) notes it for
// the stations its screen shows. A screen showing every station (expo, an unfiltered board) counts
// for each of them; a grill tablet only for the grill, so a live expo screen never hides a dead
// grill tablet from the grill's fallback printer. Kept in memory: after a start, no screen has been
// seen yet, so fallback printing counts from the start. A pickup screen is not a kitchen screen and
// notes nothing. Keys are the restaurant's known station ids (screen-stations.ts checks them), so
// what is kept is bounded by the restaurant's stations.

/** The key of the screens that show every station. */
const EVERY_STATION = '*';

export class ScreenPresence {
  private readonly lastSeen = new Map<string, Map<string, number>>();

  /**
   * A kitchen screen of the restaurant showing `stations` (null: every station; []: none of the
   * restaurant's, e.g. one it no longer has) is live at `at` (engine clock).
   */
  note(restaurantId: string, stations: readonly string[] | null, at: number): void {
    let seen = this.lastSeen.get(restaurantId);
    if (!seen) {
      seen = new Map();
      this.lastSeen.set(restaurantId, seen);
    }
    for (const key of stations ?? [EVERY_STATION]) {
      const known = seen.get(key);
      if (known === undefined || at > known) seen.set(key, at);
    }
  }

  /**
   * Since when every one of `stations` has had a live screen: the earliest of their last live times,
   * each counting the screens that show every station ([]: a printer of every station, which only
   * a screen showing every station covers). Null when one of them has had none since the start.
   */
  lastLive(restaurantId: string, stations: readonly string[]): number | null {
    const seen = this.lastSeen.get(restaurantId);
    if (!seen) return null;
    const everyStation = seen.get(EVERY_STATION);
    if (stations.length === 0) return everyStation ?? null;
    let earliest = Number.POSITIVE_INFINITY;
    for (const station of stations) {
      const own = seen.get(station);
      const live = own === undefined ? everyStation : everyStation === undefined ? own : Math.max(own, everyStation);
      if (live === undefined) return null;
      earliest = Math.min(earliest, live);
    }
    return earliest;
  }
}
