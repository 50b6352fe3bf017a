// When a restaurant's kitchen screens were last live, on the engine's clock: each live feed's
// heartbeat (the desktop window's, and every paired kitchen tablet's stream) notes it. Kept in
// memory: after a start, no screen has been seen yet, so fallback printing counts from the start.
// A pickup screen is not a kitchen screen and notes nothing.

export class ScreenPresence {
  private readonly lastSeen = new Map<string, number>();

  /** A kitchen screen of the restaurant is live at `at` (engine clock). */
  note(restaurantId: string, at: number): void {
    const known = this.lastSeen.get(restaurantId);
    if (known === undefined || at > known) this.lastSeen.set(restaurantId, at);
  }

  /** When one of its kitchen screens was last live; null when none has been since the engine started. */
  lastLive(restaurantId: string): number | null {
    return this.lastSeen.get(restaurantId) ?? null;
  }
}
