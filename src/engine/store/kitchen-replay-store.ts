import type { Database, Statement } from 'better-sqlite3';
import type { ItemTimingRow } from './kitchen-timings-store.ts';
import { testColumn, type World } from '../../shared/world.ts';

/** An order's state as one of its events announced it. */
export interface OrderStateRow {
  order_id: string;
  number: string;
  status: string;
  at: number;
}

export interface ReplayPromiseRow {
  order_id: string;
  promised_ready_at: number;
  ready_at: number | null;
}

/**
 * What the replay of a service (issue 33, services/reports/kitchen-replay.ts) reads for one location, one
 * world and a time range: the item timing log, the orders' states from their `order.created` and
 * `order.updated` events, and the promises. Reads only; each bounded by a limit.
 */
export class KitchenReplayStore {
  private readonly logRange: Statement<[string, number, number, string, number, number], ItemTimingRow>;
  private readonly statesRange: Statement<[string, string, number, number, string, number], OrderStateRow>;
  private readonly promisesOf: Statement<[string], ReplayPromiseRow>;

  constructor(db: Database) {
    this.logRange = db.prepare(
      `SELECT t.* FROM kitchen_item_timings t JOIN orders o ON o.id = t.order_id
       WHERE t.restaurant_id = ? AND t.at >= ? AND t.at < ? AND t.location_id = ? AND o.test = ? ORDER BY t.at, t.seq LIMIT ?`,
    );
    this.statesRange = db.prepare(
      `SELECT json_extract(data, '$.id') AS order_id, json_extract(data, '$.number') AS number, json_extract(data, '$.status') AS status, created_at AS at
       FROM events WHERE restaurant_id = ? AND world = ? AND type IN ('order.created', 'order.updated') AND created_at >= ? AND created_at < ?
         AND json_extract(data, '$.location_id') = ?
       ORDER BY created_at, seq LIMIT ?`,
    );
    this.promisesOf = db.prepare(
      'SELECT order_id, promised_ready_at, ready_at FROM order_promises WHERE order_id IN (SELECT value FROM json_each(?))',
    );
  }

  /** The location's log rows (of one world) with `at` in [from, to), by time then as written, at most `limit`. */
  log(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): ItemTimingRow[] {
    return this.logRange.all(restaurantId, from, to, locationId, testColumn(world), limit);
  }

  /** The states the location's orders (of one world) were announced in during [from, to), oldest first, at most `limit`. */
  orderStates(restaurantId: string, world: 'live' | 'test', locationId: string, from: number, to: number, limit: number): OrderStateRow[] {
    return this.statesRange.all(restaurantId, world, from, to, locationId, limit);
  }

  /** The promises of these orders (those that have one). */
  promises(orderIds: readonly string[]): ReplayPromiseRow[] {
    return this.promisesOf.all(JSON.stringify(orderIds));
  }
}
