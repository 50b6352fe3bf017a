// Busy mode's refusals (issue 33): an order a store front sent while its location was paused is
// refused, and the refusal's transaction is undone, so it cannot write a row of its own. It is noted
// here, in memory, and written by the jobs runner within a second (Engine.flushBusyRefusals, as the
// API keys' last uses are). Bounded whatever a flood of refused requests does: one entry per
// location, world and minute (a count), each listing its first REFUSALS_LISTED_PER_MINUTE orders;
// at most MAX_PENDING_MINUTES entries wait to be written (beyond, a refusal is counted nowhere: the
// writer has been failing for that long). Each note costs O(1). Pure.
import { testColumn, type World } from '../../shared/world.ts';

/** Orders listed per location and minute; the rest are counted. */
export const REFUSALS_LISTED_PER_MINUTE = 5;
/** Entries waiting to be written, at most. */
export const MAX_PENDING_MINUTES = 1_000;

/** What a report lists of a refused order (no customer data: the order was never taken). */
export interface RefusedOrder {
  at: number;
  /** The channel it came through (the API key's label). */
  channel: string;
  type: string;
  lines: number;
  /** Its total as priced, in the restaurant's currency units. */
  total: number;
}

/** One location's refusals in one minute. */
export interface RefusalMinute {
  restaurant_id: string;
  location_id: string;
  test: number;
  /** The minute's start, epoch ms. */
  minute: number;
  refused: number;
  listed: RefusedOrder[];
}

export const minuteOf = (at: number): number => Math.floor(at / 60_000) * 60_000;

/** Two tallies of one minute as one: counts added, the earliest orders listed. */
export function mergeRefusals(into: RefusalMinute, more: Pick<RefusalMinute, 'refused' | 'listed'>): RefusalMinute {
  const listed = [...into.listed, ...more.listed].sort((a, b) => a.at - b.at).slice(0, REFUSALS_LISTED_PER_MINUTE);
  return { ...into, refused: into.refused + more.refused, listed };
}

export class RefusalTally {
  private pending = new Map<string, RefusalMinute>();

  /** Notes one refused order. */
  note(restaurantId: string, locationId: string, world: World, order: RefusedOrder): void {
    const minute = minuteOf(order.at);
    const test = testColumn(world);
    const key = `${locationId}\u001f${test}\u001f${minute}`;
    let entry = this.pending.get(key);
    if (!entry) {
      if (this.pending.size >= MAX_PENDING_MINUTES) return;
      this.pending.set(key, (entry = { restaurant_id: restaurantId, location_id: locationId, test, minute, refused: 0, listed: [] }));
    }
    entry.refused += 1;
    if (entry.listed.length < REFUSALS_LISTED_PER_MINUTE) entry.listed.push(order);
  }

  /** The entries noted since the last take, handed over (the tally is empty after). */
  take(): RefusalMinute[] {
    const taken = [...this.pending.values()];
    this.pending = new Map();
    return taken;
  }

  /** Entries taken but not written (the write failed), noted again for the next try. */
  giveBack(entries: readonly RefusalMinute[]): void {
    for (const entry of entries) {
      const key = `${entry.location_id}\u001f${entry.test}\u001f${entry.minute}`;
      const current = this.pending.get(key);
      if (current) this.pending.set(key, mergeRefusals(current, entry));
      else if (this.pending.size < MAX_PENDING_MINUTES) this.pending.set(key, entry);
    }
  }
}
