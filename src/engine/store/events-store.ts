import type { Database, Statement } from 'better-sqlite3';
import { bound } from './bound.ts';
import type { World } from '../../shared/world.ts';

/** An event is seen by one world's feed, or by both (a location or stock change). */
export type EventWorld = World | 'both';

/**
 * Events of the kitchen's own data (item bumps, recalls) share the feed so every screen gets them
 * live, but they are not part of the public API: the API's listing skips this prefix.
 */
export const KITCHEN_EVENT_PREFIX = 'kitchen.';

export interface EventRow {
  seq: number;
  type: string;
  created_at: number;
  data: string;
}

export class EventsStore {
  private readonly insertStatement: Statement<[string, EventWorld, string, number, string]>;
  private readonly after: Statement<[string, number, string, number], EventRow>;
  private readonly last: Statement<[string], { seq: number | null }>;
  /** `appended`: told of each event's restaurant (the Engine wakes its feed once the write commits). */
  constructor(
    db: Database,
    private readonly appended: (restaurantId: string) => void,
  ) {
    this.insertStatement = db.prepare(
      'INSERT INTO events (restaurant_id, world, type, created_at, data) VALUES (?, ?, ?, ?, ?)',
    );
    this.after = db.prepare(
      `SELECT seq, type, created_at, data FROM events
       WHERE restaurant_id = ${bound()} AND seq > ${bound()} AND world IN (${bound()}, 'both')
       AND type NOT LIKE '${KITCHEN_EVENT_PREFIX}%' ORDER BY seq LIMIT ?`,
    );
    // Through events_by_restaurant (restaurant_id, seq): one index step, however long the history.
    this.last = db.prepare('SELECT MAX(seq) AS seq FROM events WHERE restaurant_id = ?');
  }

  /** Appends an event; call inside the transaction of the change it reports. */
  append(restaurantId: string, world: EventWorld, type: string, createdAt: number, data: unknown): number {
    const result = this.insertStatement.run(restaurantId, world, type, createdAt, JSON.stringify(data));
    this.appended(restaurantId);
    return Number(result.lastInsertRowid);
  }

  /**
   * Appends an event whose seq the caller does not read: the same row as `append` (on PostgreSQL
   * sent without waiting for its answer inside a transaction, a round trip fewer under the clock row).
   */
  appendWithoutSeq(restaurantId: string, world: EventWorld, type: string, createdAt: number, data: unknown): void {
    this.append(restaurantId, world, type, createdAt, data);
  }

  list(restaurantId: string, world: World, afterSeq: number, limit: number): EventRow[] {
    return this.after.all(restaurantId, afterSeq, world, limit);
  }

  /**
   * The restaurant's last event (0 before its first): a "from now" cursor for its feed. Per
   * restaurant on both databases: on PostgreSQL each restaurant's feed is numbered on its own
   * (postgres/stores/events-store.ts), and one meaning serves both.
   */
  lastSeq(restaurantId: string): number {
    return this.last.get(restaurantId)?.seq ?? 0;
  }

}
