import type { Database, Statement } from 'better-sqlite3';
import type { ItemTimingRow, OrderPromiseRow } from './kitchen-timings-store.ts';
import { testColumn, type World } from '../../shared/world.ts';

/** What a report reads of a log row: the columns its figures are computed from (fewer columns, far fewer bytes to build per row over a long range). */
/** A range of time [from, to), epoch ms: a local day of a report. */
export interface DayRange {
  from: number;
  to: number;
}

export type ReportLogRow = Pick<ItemTimingRow, 'seq' | 'order_id' | 'item_index' | 'kind' | 'station_id' | 'product_id' | 'quantity' | 'channel' | 'at'>;

/** An order's promise as the reports read it: with its channel. */
export type ReportPromiseRow = OrderPromiseRow & { number: string; channel: string | null };

export interface ReportOrderRow {
  id: string;
  number: string;
  created_at: number;
  updated_at: number;
}

/** A `location.updated` event (busy mode's pauses and resumes are among them). */
export interface LocationUpdateRow {
  created_at: number;
  data: string;
}

/**
 * What the reports (issue 33, services/reports/kitchen-report.ts) read by time, for one location and one
 * world (a live key's reports never count a sandbox's test orders): the item timing log, the promises, the cancelled
 * orders and busy mode's records. Reads only; each bounded by a limit.
 */
export class KitchenReportsStore {
  private readonly logRange: Statement<[string, number, number, string, number, number], ReportLogRow>;
  private readonly fullLogRange: Statement<[string, number, number, string, number, number], ItemTimingRow>;
  private readonly promisesRange: Statement<[string, number, number, number, number], ReportPromiseRow>;
  private readonly cancelledRange: Statement<[string, number, string, number, number, number], ReportOrderRow>;
  private readonly numbersOf: Statement<[string], { id: string; number: string }>;
  private readonly updatesRange: Statement<[string, number, number, number], LocationUpdateRow>;
  private readonly updatesBefore: Statement<[string, number, number], LocationUpdateRow>;
  private readonly activity: Statement<[string, number, number, string, number, string, number, number, number], { active: number }>;

  constructor(db: Database) {
    // Measured over 90 days × 500 orders (bench row 12): reading every column cost about 40% more than these (seq orders a day's bumps among the next day's).
    this.logRange = db.prepare(
      `SELECT t.seq, t.order_id, t.item_index, t.kind, t.station_id, t.product_id, t.quantity, t.channel, t.at FROM kitchen_item_timings t JOIN orders o ON o.id = t.order_id
       WHERE t.restaurant_id = ? AND t.at >= ? AND t.at < ? AND t.location_id = ? AND o.test = ? ORDER BY t.at, t.seq LIMIT ?`,
    );
    this.fullLogRange = db.prepare(
      `SELECT t.* FROM kitchen_item_timings t JOIN orders o ON o.id = t.order_id
       WHERE t.restaurant_id = ? AND t.at >= ? AND t.at < ? AND t.location_id = ? AND o.test = ? ORDER BY t.at, t.seq LIMIT ?`,
    );
    this.promisesRange = db.prepare(
      `SELECT p.*, o.number, c.channel FROM order_promises p JOIN orders o ON o.id = p.order_id
       LEFT JOIN kitchen_order_channels c ON c.order_id = p.order_id
       WHERE p.location_id = ? AND p.created_at >= ? AND p.created_at < ? AND o.test = ? ORDER BY p.created_at, p.order_id LIMIT ?`,
    );
    // By status (the few cancelled orders), not by location (every order of the period; bench row 12: 90 ms over 90 days).
    this.cancelledRange = db.prepare(
      `SELECT id, number, created_at, updated_at FROM orders
       WHERE restaurant_id = ? AND test = ? AND +location_id = ? AND created_at >= ? AND created_at < ? AND status = 'cancelado'
       ORDER BY created_at, id LIMIT ?`,
    );
    this.numbersOf = db.prepare('SELECT id, number FROM orders WHERE id IN (SELECT value FROM json_each(?))');
    this.updatesRange = db.prepare(
      `SELECT created_at, data FROM events WHERE restaurant_id = ? AND type = 'location.updated' AND created_at >= ? AND created_at < ?
       ORDER BY created_at, seq LIMIT ?`,
    );
    this.updatesBefore = db.prepare(
      `SELECT created_at, data FROM events WHERE restaurant_id = ? AND type = 'location.updated' AND created_at < ?
       ORDER BY created_at DESC, seq DESC LIMIT ?`,
    );
    this.activity = db.prepare(
      `SELECT EXISTS (SELECT 1 FROM kitchen_item_timings t JOIN orders o ON o.id = t.order_id
                      WHERE t.restaurant_id = ? AND t.at >= ? AND t.at < ? AND t.location_id = ? AND o.test = ?)
           OR EXISTS (SELECT 1 FROM order_promises p JOIN orders o ON o.id = p.order_id
                      WHERE p.location_id = ? AND p.created_at >= ? AND p.created_at < ? AND o.test = ?) AS active`,
    );
  }

  /** The location's log rows (of one world) with `at` in [from, to), by time then as written (the index's order), at most `limit`. */
  log(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): ReportLogRow[] {
    return this.logRange.all(restaurantId, from, to, locationId, testColumn(world), limit);
  }

  /** The same rows as `log`, every column (the log's export). */
  fullLog(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): ItemTimingRow[] {
    return this.fullLogRange.all(restaurantId, from, to, locationId, testColumn(world), limit);
  }

  /** The location's promises (live orders) made in [from, to), at most `limit`. */
  promises(locationId: string, world: World, from: number, to: number, limit: number): ReportPromiseRow[] {
    return this.promisesRange.all(locationId, from, to, testColumn(world), limit);
  }

  /** The location's live orders created in [from, to) and cancelled (updated_at: when, for a cancelled order). */
  cancelled(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): ReportOrderRow[] {
    return this.cancelledRange.all(restaurantId, testColumn(world), locationId, from, to, limit);
  }

  /** Order numbers by id. */
  numbers(orderIds: readonly string[]): Map<string, string> {
    return new Map(this.numbersOf.all(JSON.stringify(orderIds)).map((r) => [r.id, r.number]));
  }

  /** The restaurant's `location.updated` events in [from, to), oldest first. */
  locationUpdates(restaurantId: string, from: number, to: number, limit: number): LocationUpdateRow[] {
    return this.updatesRange.all(restaurantId, from, to, limit);
  }

  /** The restaurant's last `limit` `location.updated` events before `at`, latest first. */
  locationUpdatesBefore(restaurantId: string, at: number, limit: number): LocationUpdateRow[] {
    return this.updatesBefore.all(restaurantId, at, limit);
  }

  /**
   * For each range [from, to), whether the location logged anything or made a promise in it for an
   * order of one world (on PostgreSQL one statement for them all: the report-days job asks of every day).
   */
  activeIn(restaurantId: string, locationId: string, world: World, ranges: readonly DayRange[]): boolean[] {
    const test = testColumn(world);
    return ranges.map(({ from, to }) => this.activity.get(restaurantId, from, to, locationId, test, locationId, from, to, test)!.active === 1);
  }
}
