import type { Database, Statement } from 'better-sqlite3';

export type ItemTimingKind = 'fired' | 'started' | 'done' | 'undone' | 'recalled' | 'held';

/** One row of the item timing log (append-only). */
export interface ItemTimingRow {
  seq: number;
  restaurant_id: string;
  order_id: string;
  location_id: string | null;
  item_index: number;
  kind: ItemTimingKind;
  source: string | null;
  station_id: string | null;
  product_id: string | null;
  quantity: number;
  channel: string | null;
  device: string;
  at: number;
}

export type NewItemTiming = Omit<ItemTimingRow, 'seq'>;

/** A line fired and not yet done. */
export interface OpenItemRow {
  order_id: string;
  item_index: number;
  location_id: string;
  test: number;
  station_id: string | null;
  product_id: string | null;
  quantity: number;
  fired_at: number;
  started_at: number | null;
}

/** What the promise reads of an open line (one read per promise: no more than it needs). */
export type OpenLineAtStation = Pick<OpenItemRow, 'product_id' | 'quantity' | 'fired_at' | 'started_at'> & { station_id: string };

export interface PrepStatRow {
  restaurant_id: string;
  station_id: string;
  product_id: string;
  mean_seconds: number;
  median_seconds: number;
  p90_seconds: number;
  samples: number;
  excluded: number;
  learned_at: number;
}

/** A ready order's lateness (seconds after its expected time; negative: before) and the wait it was expected to take. */
export interface PromiseOutcome {
  lateness_seconds: number;
  wait_seconds: number;
}

export interface OrderPromiseRow {
  order_id: string;
  restaurant_id: string;
  location_id: string;
  created_at: number;
  expected_ready_at: number;
  promised_ready_at: number;
  ready_at: number | null;
}

/**
 * The kitchen's timing: the append-only item log, the lines open per location, the prep times
 * learned from the log, the cooks a hub set per station, and each order's promise.
 */
export class KitchenTimingsStore {
  private readonly append: Statement<NewItemTiming>;
  private readonly logOf: Statement<[string], ItemTimingRow>;
  private readonly logSince: Statement<[string, number, number], ItemTimingRow>;
  private readonly lastDone: Statement<[string, string, number], { at: number }>;
  private readonly anyAfter: Statement<[string, number], { found: number }>;
  private readonly putOpen: Statement<OpenItemRow>;
  private readonly dropOpen: Statement<[string, number]>;
  private readonly dropOpenOfOrder: Statement<[string]>;
  private readonly startOpen: Statement<[number, string]>;
  private readonly openAt: Statement<[string, number, number, number], OpenLineAtStation>;
  private readonly openOfOrder: Statement<[string], OpenItemRow>;
  private readonly statsOf: Statement<[string], PrepStatRow>;
  private readonly dropStats: Statement<[string]>;
  private readonly putStat: Statement<PrepStatRow>;
  private readonly cooksOf: Statement<[string], { station_id: string; cooks: number }>;
  private readonly putCooks: Statement<[string, string, number, number]>;
  private readonly putPromise: Statement<OrderPromiseRow>;
  private readonly promiseOf: Statement<[string], OrderPromiseRow>;
  private readonly readyPromise: Statement<[number, string]>;
  private readonly latenessAt: Statement<[string, number], PromiseOutcome>;

  constructor(db: Database) {
    this.append = db.prepare(
      `INSERT INTO kitchen_item_timings (restaurant_id, order_id, location_id, item_index, kind, source, station_id, product_id, quantity, channel, device, at)
       VALUES (@restaurant_id, @order_id, @location_id, @item_index, @kind, @source, @station_id, @product_id, @quantity, @channel, @device, @at)`,
    );
    this.logOf = db.prepare('SELECT * FROM kitchen_item_timings WHERE order_id = ? ORDER BY seq');
    this.logSince = db.prepare('SELECT * FROM kitchen_item_timings WHERE restaurant_id = ? AND at >= ? ORDER BY seq LIMIT ?');
    this.anyAfter = db.prepare('SELECT 1 AS found FROM kitchen_item_timings WHERE restaurant_id = ? AND at > ? LIMIT 1');
    this.lastDone = db.prepare(
      `SELECT at FROM kitchen_item_timings WHERE location_id = ? AND station_id = ? AND kind = 'done' ORDER BY seq DESC LIMIT ?`,
    );
    this.putOpen = db.prepare(
      `INSERT INTO kitchen_open_items (order_id, item_index, location_id, test, station_id, product_id, quantity, fired_at, started_at)
       VALUES (@order_id, @item_index, @location_id, @test, @station_id, @product_id, @quantity, @fired_at, @started_at)
       ON CONFLICT (order_id, item_index) DO UPDATE SET fired_at = excluded.fired_at, started_at = excluded.started_at`,
    );
    this.dropOpen = db.prepare('DELETE FROM kitchen_open_items WHERE order_id = ? AND item_index = ?');
    this.dropOpenOfOrder = db.prepare('DELETE FROM kitchen_open_items WHERE order_id = ?');
    this.startOpen = db.prepare('UPDATE kitchen_open_items SET started_at = ? WHERE order_id = ? AND started_at IS NULL');
    this.openAt = db.prepare(
      `SELECT station_id, product_id, quantity, fired_at, started_at FROM kitchen_open_items
       WHERE location_id = ? AND fired_at >= ? AND test <= ? AND station_id IS NOT NULL ORDER BY fired_at LIMIT ?`,
    );
    this.openOfOrder = db.prepare('SELECT * FROM kitchen_open_items WHERE order_id = ? ORDER BY item_index');
    this.statsOf = db.prepare('SELECT * FROM kitchen_prep_stats WHERE restaurant_id = ?');
    this.dropStats = db.prepare('DELETE FROM kitchen_prep_stats WHERE restaurant_id = ?');
    this.putStat = db.prepare(
      `INSERT INTO kitchen_prep_stats (restaurant_id, station_id, product_id, mean_seconds, median_seconds, p90_seconds, samples, excluded, learned_at)
       VALUES (@restaurant_id, @station_id, @product_id, @mean_seconds, @median_seconds, @p90_seconds, @samples, @excluded, @learned_at)`,
    );
    this.cooksOf = db.prepare('SELECT station_id, cooks FROM kitchen_station_cooks WHERE restaurant_id = ?');
    this.putCooks = db.prepare(
      `INSERT INTO kitchen_station_cooks (restaurant_id, station_id, cooks, set_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (restaurant_id, station_id) DO UPDATE SET cooks = excluded.cooks, set_at = excluded.set_at`,
    );
    this.putPromise = db.prepare(
      `INSERT INTO order_promises (order_id, restaurant_id, location_id, created_at, expected_ready_at, promised_ready_at, ready_at)
       VALUES (@order_id, @restaurant_id, @location_id, @created_at, @expected_ready_at, @promised_ready_at, @ready_at)
       ON CONFLICT (order_id) DO UPDATE SET expected_ready_at = excluded.expected_ready_at, promised_ready_at = excluded.promised_ready_at`,
    );
    this.promiseOf = db.prepare('SELECT * FROM order_promises WHERE order_id = ?');
    this.readyPromise = db.prepare('UPDATE order_promises SET ready_at = ? WHERE order_id = ? AND ready_at IS NULL');
    this.latenessAt = db.prepare(
      `SELECT (ready_at - expected_ready_at) / 1000.0 AS lateness_seconds, (expected_ready_at - created_at) / 1000.0 AS wait_seconds FROM order_promises
       WHERE location_id = ? AND ready_at IS NOT NULL ORDER BY ready_at DESC LIMIT ?`,
    );
  }

  log(row: NewItemTiming): void {
    this.append.run(row);
  }

  logOfOrder(orderId: string): ItemTimingRow[] {
    return this.logOf.all(orderId);
  }

  /** The restaurant's log from `since` on, oldest first, at most `limit` rows. */
  logFrom(restaurantId: string, since: number, limit: number): ItemTimingRow[] {
    return this.logSince.all(restaurantId, since, limit);
  }

  /** Whether the restaurant's log has anything after `at`. */
  loggedAfter(restaurantId: string, at: number): boolean {
    return this.anyAfter.get(restaurantId, at) !== undefined;
  }

  /** When the station's last `count` lines were bumped done at the location, latest first. */
  lastDoneAt(locationId: string, stationId: string, count: number): number[] {
    return this.lastDone.all(locationId, stationId, count).map((r) => r.at);
  }

  open(row: OpenItemRow): void {
    this.putOpen.run(row);
  }

  close(orderId: string, itemIndex: number): void {
    this.dropOpen.run(orderId, itemIndex);
  }

  closeOrder(orderId: string): void {
    this.dropOpenOfOrder.run(orderId);
  }

  /** Marks the order's open lines started at `at` (those not started already). */
  start(orderId: string, at: number): void {
    this.startOpen.run(at, orderId);
  }

  openOf(orderId: string): OpenItemRow[] {
    return this.openOfOrder.all(orderId);
  }

  /**
   * The location's open lines at a station fired since `since`, oldest first, at most `limit`: live
   * ones only, or (`withTest`) the sandbox's too.
   */
  openAtLocation(locationId: string, withTest: boolean, since: number, limit: number): OpenLineAtStation[] {
    return this.openAt.all(locationId, since, withTest ? 1 : 0, limit);
  }

  prepStats(restaurantId: string): PrepStatRow[] {
    return this.statsOf.all(restaurantId);
  }

  replacePrepStats(restaurantId: string, rows: readonly PrepStatRow[]): void {
    this.dropStats.run(restaurantId);
    for (const row of rows) this.putStat.run(row);
  }

  stationCooks(restaurantId: string): { station_id: string; cooks: number }[] {
    return this.cooksOf.all(restaurantId);
  }

  setStationCooks(restaurantId: string, stationId: string, cooks: number, at: number): void {
    this.putCooks.run(restaurantId, stationId, cooks, at);
  }

  putOrderPromise(row: OrderPromiseRow): void {
    this.putPromise.run(row);
  }

  orderPromise(orderId: string): OrderPromiseRow | undefined {
    return this.promiseOf.get(orderId);
  }

  markReady(orderId: string, at: number): void {
    this.readyPromise.run(at, orderId);
  }

  /** How the location's last `limit` ready orders turned out against what was expected of them. */
  outcomes(locationId: string, limit: number): PromiseOutcome[] {
    return this.latenessAt.all(locationId, limit);
  }
}
