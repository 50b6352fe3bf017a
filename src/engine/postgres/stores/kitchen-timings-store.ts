// Issue 34: KitchenTimingsStore (store/kitchen-timings-store.ts) on PostgreSQL. Many orders at once
// are a text array (`= ANY ($1::text[])`) where SQLite reads a JSON array; seconds are computed as
// `double precision` (SQLite's `/ 1000.0` is a REAL; PostgreSQL's would be `numeric`, read as text).
// What differs, on purpose, with several nodes under READ COMMITTED:
// - `replacePrepStats` deletes a restaurant's stats, then inserts the new ones in one statement,
//   after a transaction lock on the restaurant: two nodes learning at once write one after the
//   other, the second's stats replacing the first's, where two interleaved delete-then-inserts
//   would collide on the key (a delete in a WITH does not free the key for its own statement);
// - the open and held lines and the promise are upserts or conditional updates, one statement each.
import type { AsyncStore } from '../../store/async-store.ts';
import type {
  HeldItemRow, ItemTimingRow, KitchenTimingsStore, NewItemTiming, OpenItemRow, OpenLineAtStation, OpenPromiseRow,
  OrderPromiseRow, PrepStatRow, PromiseOutcome, PromiseUpdateRow,
} from '../../store/kitchen-timings-store.ts';
import { firstRow, rowsOf, sendWrite, type PostgresQueryable } from './queryable.ts';

const TIMING_COLUMNS = [
  'restaurant_id', 'order_id', 'location_id', 'item_index', 'kind', 'source', 'station_id', 'product_id', 'quantity', 'channel', 'device', 'at',
] as const satisfies readonly (keyof NewItemTiming)[];
const OPEN_COLUMNS = [
  'order_id', 'item_index', 'location_id', 'test', 'station_id', 'product_id', 'quantity', 'fired_at', 'started_at', 'started_explicit', 'fire_seq',
] as const satisfies readonly (keyof OpenItemRow)[];
const STAT_COLUMNS = [
  'restaurant_id', 'station_id', 'product_id', 'mean_seconds', 'median_seconds', 'p90_seconds', 'samples', 'excluded', 'learned_at',
] as const satisfies readonly (keyof PrepStatRow)[];
const PROMISE_COLUMNS = [
  'order_id', 'restaurant_id', 'location_id', 'created_at', 'expected_ready_at', 'promised_ready_at', 'ready_at',
] as const satisfies readonly (keyof OrderPromiseRow)[];
const HELD_COLUMNS = [
  'order_id', 'item_index', 'location_id', 'test', 'station_id', 'product_id', 'quantity', 'held_at', 'fire_at', 'target_ready_at',
] as const satisfies readonly (keyof HeldItemRow)[];
const PROMISE_UPDATE_COLUMNS = [
  'order_id', 'at', 'previous_promised_ready_at', 'expected_ready_at', 'promised_ready_at',
] as const satisfies readonly (keyof PromiseUpdateRow)[];

const values = (columns: readonly string[], offset = 0) => columns.map((_, i) => `$${i + 1 + offset}`).join(', ');
const insertInto = (table: string, columns: readonly string[]) => `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values(columns)})`;

/** An order's current promise: its last update, else the one made at creation. */
const CURRENT_PROMISE = `COALESCE((SELECT u.promised_ready_at FROM order_promise_updates u WHERE u.order_id = p.order_id ORDER BY u.seq DESC LIMIT 1), p.promised_ready_at)`;

const SQL = {
  append: `${insertInto('kitchen_item_timings', TIMING_COLUMNS)} RETURNING seq`,
  logOf: 'SELECT * FROM kitchen_item_timings WHERE order_id = $1 ORDER BY seq',
  logSince: 'SELECT * FROM kitchen_item_timings WHERE restaurant_id = $1 AND at >= $2 ORDER BY seq LIMIT $3',
  anyAfter: 'SELECT 1 AS found FROM kitchen_item_timings WHERE restaurant_id = $1 AND at > $2 LIMIT 1',
  lastDone: `SELECT at FROM kitchen_item_timings WHERE location_id = $1 AND station_id = $2 AND kind = 'done' ORDER BY seq DESC LIMIT $3`,
  putOpen: `${insertInto('kitchen_open_items', OPEN_COLUMNS)}
    ON CONFLICT (order_id, item_index) DO UPDATE SET fired_at = excluded.fired_at, started_at = excluded.started_at, started_explicit = excluded.started_explicit, fire_seq = excluded.fire_seq`,
  dropOpen: 'DELETE FROM kitchen_open_items WHERE order_id = $1 AND item_index = $2',
  dropOpenOfOrder: 'DELETE FROM kitchen_open_items WHERE order_id = $1',
  startOpen: 'UPDATE kitchen_open_items SET started_at = $1 WHERE order_id = $2 AND started_at IS NULL',
  startOpenLine: 'UPDATE kitchen_open_items SET started_at = $1, started_explicit = $2 WHERE order_id = $3 AND item_index = $4',
  openAt: `SELECT order_id, item_index, station_id, product_id, quantity, fired_at, started_at, started_explicit FROM kitchen_open_items
    WHERE location_id = $1 AND fired_at >= $2 AND test <= $3 AND station_id IS NOT NULL ORDER BY fired_at, fire_seq, order_id, item_index LIMIT $4`,
  openOfOrder: 'SELECT * FROM kitchen_open_items WHERE order_id = $1 ORDER BY item_index',
  statsOf: 'SELECT * FROM kitchen_prep_stats WHERE restaurant_id = $1',
  lockStats: `SELECT pg_advisory_xact_lock(hashtextextended('kitchen_prep_stats:' || $1, 0))`,
  dropStats: 'DELETE FROM kitchen_prep_stats WHERE restaurant_id = $1',
  // $1 the rows as JSON: every insert in one statement.
  insertStats: `INSERT INTO kitchen_prep_stats (${STAT_COLUMNS.join(', ')})
    SELECT ${STAT_COLUMNS.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(
      restaurant_id text, station_id text, product_id text, mean_seconds bigint, median_seconds bigint, p90_seconds bigint,
      samples bigint, excluded bigint, learned_at bigint)`,
  cooksOf: 'SELECT station_id, cooks, set_at FROM kitchen_station_cooks WHERE restaurant_id = $1',
  putCooks: `INSERT INTO kitchen_station_cooks (restaurant_id, station_id, cooks, set_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (restaurant_id, station_id) DO UPDATE SET cooks = excluded.cooks, set_at = excluded.set_at`,
  putPromise: `${insertInto('order_promises', PROMISE_COLUMNS)}
    ON CONFLICT (order_id) DO UPDATE SET expected_ready_at = excluded.expected_ready_at, promised_ready_at = excluded.promised_ready_at`,
  promiseOf: 'SELECT * FROM order_promises WHERE order_id = $1',
  readyPromise: 'UPDATE order_promises SET ready_at = $1 WHERE order_id = $2 AND ready_at IS NULL',
  latenessAt: `SELECT (ready_at - expected_ready_at) / 1000.0::double precision AS lateness_seconds,
      (expected_ready_at - created_at) / 1000.0::double precision AS wait_seconds
    FROM order_promises WHERE location_id = $1 AND ready_at IS NOT NULL ORDER BY ready_at DESC LIMIT $2`,
  putHeld: `${insertInto('kitchen_held_items', HELD_COLUMNS)}
    ON CONFLICT (order_id, item_index) DO UPDATE SET fire_at = excluded.fire_at, target_ready_at = excluded.target_ready_at`,
  dropHeld: 'DELETE FROM kitchen_held_items WHERE order_id = $1 AND item_index = $2',
  dropHeldOfOrder: 'DELETE FROM kitchen_held_items WHERE order_id = $1',
  heldOfOrder: 'SELECT * FROM kitchen_held_items WHERE order_id = $1 ORDER BY item_index',
  heldAt: 'SELECT * FROM kitchen_held_items WHERE location_id = $1 AND test <= $2 ORDER BY fire_at, order_id, item_index LIMIT $3',
  dueHeldAt: 'SELECT * FROM kitchen_held_items WHERE location_id = $1 AND fire_at <= $2 AND test <= $3 ORDER BY fire_at LIMIT $4',
  putPromiseUpdate: insertInto('order_promise_updates', PROMISE_UPDATE_COLUMNS),
  promiseUpdatesOf: `SELECT ${PROMISE_UPDATE_COLUMNS.join(', ')} FROM order_promise_updates WHERE order_id = $1 ORDER BY seq`,
  openPromisesAt: `SELECT p.order_id, o.test, p.created_at, ${CURRENT_PROMISE} AS promised_ready_at
    FROM order_promises p JOIN orders o ON o.id = p.order_id
    WHERE p.location_id = $1 AND p.ready_at IS NULL AND p.created_at >= $2 AND o.status IN ('recibido', 'en_preparacion')
    ORDER BY p.created_at LIMIT $3`,
  currentPromisesOfMany: `SELECT p.order_id, ${CURRENT_PROMISE} AS promised_ready_at
    FROM order_promises p WHERE p.order_id = ANY ($1::text[])`,
  heldOfMany: 'SELECT * FROM kitchen_held_items WHERE order_id = ANY ($1::text[])',
  heldLocationList: 'SELECT DISTINCT location_id FROM kitchen_held_items',
  everyOpen: 'SELECT * FROM kitchen_open_items ORDER BY fired_at, fire_seq, order_id, item_index LIMIT $1',
  everyHeld: 'SELECT * FROM kitchen_held_items ORDER BY fire_at, order_id, item_index LIMIT $1',
};

export class PostgresKitchenTimingsStore implements AsyncStore<KitchenTimingsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async updatePromise(row: PromiseUpdateRow): Promise<void> {
    await this.db.query(SQL.putPromiseUpdate, PROMISE_UPDATE_COLUMNS.map((c) => row[c]));
  }

  currentPromisesOf(orderIds: readonly string[]): Promise<{ order_id: string; promised_ready_at: number }[]> {
    return rowsOf<{ order_id: string; promised_ready_at: number }>(this.db, SQL.currentPromisesOfMany, [[...orderIds]]);
  }

  promiseUpdates(orderId: string): Promise<PromiseUpdateRow[]> {
    return rowsOf<PromiseUpdateRow>(this.db, SQL.promiseUpdatesOf, [orderId]);
  }

  openPromises(locationId: string, since: number, limit: number): Promise<OpenPromiseRow[]> {
    return rowsOf<OpenPromiseRow>(this.db, SQL.openPromisesAt, [locationId, since, limit]);
  }

  allOpenLines(limit: number): Promise<OpenItemRow[]> {
    return rowsOf<OpenItemRow>(this.db, SQL.everyOpen, [limit]);
  }

  allHeldLines(limit: number): Promise<HeldItemRow[]> {
    return rowsOf<HeldItemRow>(this.db, SQL.everyHeld, [limit]);
  }

  async hold(row: HeldItemRow): Promise<void> {
    await this.db.query(SQL.putHeld, HELD_COLUMNS.map((c) => row[c]));
  }

  async unhold(orderId: string, itemIndex: number): Promise<void> {
    await this.db.query(SQL.dropHeld, [orderId, itemIndex]);
  }

  async unholdOrder(orderId: string): Promise<void> {
    await this.db.query(SQL.dropHeldOfOrder, [orderId]);
  }

  heldOf(orderId: string): Promise<HeldItemRow[]> {
    return rowsOf<HeldItemRow>(this.db, SQL.heldOfOrder, [orderId]);
  }

  heldOfOrders(orderIds: readonly string[]): Promise<HeldItemRow[]> {
    return rowsOf<HeldItemRow>(this.db, SQL.heldOfMany, [[...orderIds]]);
  }

  heldAtLocation(locationId: string, withTest: boolean, limit: number): Promise<HeldItemRow[]> {
    return rowsOf<HeldItemRow>(this.db, SQL.heldAt, [locationId, withTest ? 1 : 0, limit]);
  }

  dueHeldAtLocation(locationId: string, withTest: boolean, now: number, limit: number): Promise<HeldItemRow[]> {
    return rowsOf<HeldItemRow>(this.db, SQL.dueHeldAt, [locationId, now, withTest ? 1 : 0, limit]);
  }

  async heldLocations(): Promise<string[]> {
    return (await rowsOf<{ location_id: string }>(this.db, SQL.heldLocationList)).map((r) => r.location_id);
  }

  async log(row: NewItemTiming): Promise<number> {
    const inserted = await firstRow<{ seq: number }>(this.db, SQL.append, TIMING_COLUMNS.map((c) => row[c]));
    if (!inserted) throw new Error(`no timing row written for order ${row.order_id}`);
    return inserted.seq;
  }

  logOfOrder(orderId: string): Promise<ItemTimingRow[]> {
    return rowsOf<ItemTimingRow>(this.db, SQL.logOf, [orderId]);
  }

  logFrom(restaurantId: string, since: number, limit: number): Promise<ItemTimingRow[]> {
    return rowsOf<ItemTimingRow>(this.db, SQL.logSince, [restaurantId, since, limit]);
  }

  async loggedAfter(restaurantId: string, at: number): Promise<boolean> {
    return (await firstRow(this.db, SQL.anyAfter, [restaurantId, at])) !== undefined;
  }

  async lastDoneAt(locationId: string, stationId: string, count: number): Promise<number[]> {
    return (await rowsOf<{ at: number }>(this.db, SQL.lastDone, [locationId, stationId, count])).map((r) => r.at);
  }

  async open(row: OpenItemRow): Promise<void> {
    await sendWrite(this.db, SQL.putOpen, OPEN_COLUMNS.map((c) => row[c]));
  }

  async close(orderId: string, itemIndex: number): Promise<void> {
    await this.db.query(SQL.dropOpen, [orderId, itemIndex]);
  }

  async closeOrder(orderId: string): Promise<void> {
    await this.db.query(SQL.dropOpenOfOrder, [orderId]);
  }

  async start(orderId: string, at: number): Promise<void> {
    await this.db.query(SQL.startOpen, [at, orderId]);
  }

  async startLine(orderId: string, itemIndex: number, at: number | null): Promise<void> {
    await this.db.query(SQL.startOpenLine, [at, at === null ? 0 : 1, orderId, itemIndex]);
  }

  openOf(orderId: string): Promise<OpenItemRow[]> {
    return rowsOf<OpenItemRow>(this.db, SQL.openOfOrder, [orderId]);
  }

  openAtLocation(locationId: string, withTest: boolean, since: number, limit: number): Promise<OpenLineAtStation[]> {
    return rowsOf<OpenLineAtStation>(this.db, SQL.openAt, [locationId, since, withTest ? 1 : 0, limit]);
  }

  prepStats(restaurantId: string): Promise<PrepStatRow[]> {
    return rowsOf<PrepStatRow>(this.db, SQL.statsOf, [restaurantId]);
  }

  /** Call inside a transaction (the lock is held to its commit). */
  async replacePrepStats(restaurantId: string, rows: readonly PrepStatRow[]): Promise<void> {
    await this.db.query(SQL.lockStats, [restaurantId]);
    await this.db.query(SQL.dropStats, [restaurantId]);
    if (rows.length > 0) await this.db.query(SQL.insertStats, [JSON.stringify(rows)]);
  }

  stationCooks(restaurantId: string): Promise<{ station_id: string; cooks: number; set_at: number }[]> {
    return rowsOf<{ station_id: string; cooks: number; set_at: number }>(this.db, SQL.cooksOf, [restaurantId]);
  }

  async setStationCooks(restaurantId: string, stationId: string, cooks: number, at: number): Promise<void> {
    await this.db.query(SQL.putCooks, [restaurantId, stationId, cooks, at]);
  }

  async putOrderPromise(row: OrderPromiseRow): Promise<void> {
    await sendWrite(this.db, SQL.putPromise, PROMISE_COLUMNS.map((c) => row[c]));
  }

  orderPromise(orderId: string): Promise<OrderPromiseRow | undefined> {
    return firstRow<OrderPromiseRow>(this.db, SQL.promiseOf, [orderId]);
  }

  async markReady(orderId: string, at: number): Promise<void> {
    await this.db.query(SQL.readyPromise, [at, orderId]);
  }

  outcomes(locationId: string, limit: number): Promise<PromiseOutcome[]> {
    return rowsOf<PromiseOutcome>(this.db, SQL.latenessAt, [locationId, limit]);
  }
}
