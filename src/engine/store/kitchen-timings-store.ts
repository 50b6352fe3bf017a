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
  /**
   * 1: `started_at` is the line's own start, marked at its station (issue 32, `items:set-started`);
   * 0: a lower bound at most (its ticket moved to en_preparacion), or none.
   */
  started_explicit: number;
  /** The seq of the log row that opened it: its place among lines fired in the same millisecond. */
  fire_seq: number;
}

/** What the promise reads of an open line (one read per promise: no more than it needs). */
export type OpenLineAtStation = Pick<OpenItemRow, 'order_id' | 'item_index' | 'product_id' | 'quantity' | 'fired_at' | 'started_at' | 'started_explicit'> & { station_id: string };

/** One move of an order's promise later (the audit; issue 32). */
export interface PromiseUpdateRow {
  order_id: string;
  at: number;
  previous_promised_ready_at: number;
  expected_ready_at: number;
  promised_ready_at: number;
}

/** An order not ready yet, with the promise it has now (its last update, else the one made at creation). */
export interface OpenPromiseRow {
  order_id: string;
  test: number;
  created_at: number;
  promised_ready_at: number;
}

/** A line held back from its station so that its order's items finish together (issue 32). */
export interface HeldItemRow {
  order_id: string;
  item_index: number;
  location_id: string;
  test: number;
  station_id: string;
  product_id: string | null;
  quantity: number;
  held_at: number;
  /** When it is planned to fire (what the screen shows). */
  fire_at: number;
  /** When the order's slowest line is expected done: the line fires so as to finish by then. */
  target_ready_at: number;
}

/**
 * A write to the lines open or held at the stations (what the kept kitchen load follows:
 * services/kitchen/kept-kitchen-lines.ts), told as the statement ran, with its exact SQL meaning:
 * `open`/`hold` insert the row or, for a line already there, set only what their upsert sets.
 */
export type KitchenLineWrite =
  | { kind: 'open'; row: OpenItemRow }
  | { kind: 'close'; order_id: string; item_index: number }
  | { kind: 'close-order'; order_id: string }
  | { kind: 'start'; order_id: string; at: number }
  | { kind: 'start-line'; order_id: string; item_index: number; started_at: number | null; started_explicit: number }
  | { kind: 'hold'; row: HeldItemRow }
  | { kind: 'unhold'; order_id: string; item_index: number }
  | { kind: 'unhold-order'; order_id: string };

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
  private readonly startOpenLine: Statement<[number | null, number, string, number]>;
  private readonly openAt: Statement<[string, number, number, number], OpenLineAtStation>;
  private readonly openOfOrder: Statement<[string], OpenItemRow>;
  private readonly statsOf: Statement<[string], PrepStatRow>;
  private readonly dropStats: Statement<[string]>;
  private readonly putStat: Statement<PrepStatRow>;
  private readonly cooksOf: Statement<[string], { station_id: string; cooks: number; set_at: number }>;
  private readonly putCooks: Statement<[string, string, number, number]>;
  private readonly putPromise: Statement<OrderPromiseRow>;
  private readonly promiseOf: Statement<[string], OrderPromiseRow>;
  private readonly readyPromise: Statement<[number, string]>;
  private readonly latenessAt: Statement<[string, number], PromiseOutcome>;
  private readonly putHeld: Statement<HeldItemRow>;
  private readonly dropHeld: Statement<[string, number]>;
  private readonly dropHeldOfOrder: Statement<[string]>;
  private readonly heldOfOrder: Statement<[string], HeldItemRow>;
  private readonly heldAt: Statement<[string, number, number], HeldItemRow>;
  private readonly dueHeldAt: Statement<[string, number, number, number], HeldItemRow>;
  private readonly putPromiseUpdate: Statement<PromiseUpdateRow>;
  private readonly promiseUpdatesOf: Statement<[string], PromiseUpdateRow>;
  private readonly openPromisesAt: Statement<[string, number, number], OpenPromiseRow>;
  private readonly currentPromisesOfMany: Statement<[string], { order_id: string; promised_ready_at: number }>;
  private readonly heldOfMany: Statement<[string], HeldItemRow>;
  private readonly heldLocationList: Statement<[], { location_id: string }>;
  private readonly everyOpen: Statement<[number], OpenItemRow>;
  private readonly everyHeld: Statement<[number], HeldItemRow>;

  /** `linesWritten` hears each write to the open and held lines (Stores passes the engine's). */
  constructor(
    db: Database,
    private readonly linesWritten: (write: KitchenLineWrite) => void = () => {},
  ) {
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
      `INSERT INTO kitchen_open_items (order_id, item_index, location_id, test, station_id, product_id, quantity, fired_at, started_at, started_explicit, fire_seq)
       VALUES (@order_id, @item_index, @location_id, @test, @station_id, @product_id, @quantity, @fired_at, @started_at, @started_explicit, @fire_seq)
       ON CONFLICT (order_id, item_index) DO UPDATE SET fired_at = excluded.fired_at, started_at = excluded.started_at, started_explicit = excluded.started_explicit, fire_seq = excluded.fire_seq`,
    );
    this.dropOpen = db.prepare('DELETE FROM kitchen_open_items WHERE order_id = ? AND item_index = ?');
    this.dropOpenOfOrder = db.prepare('DELETE FROM kitchen_open_items WHERE order_id = ?');
    this.startOpen = db.prepare('UPDATE kitchen_open_items SET started_at = ? WHERE order_id = ? AND started_at IS NULL');
    this.startOpenLine = db.prepare('UPDATE kitchen_open_items SET started_at = ?, started_explicit = ? WHERE order_id = ? AND item_index = ?');
    this.openAt = db.prepare(
      `SELECT order_id, item_index, station_id, product_id, quantity, fired_at, started_at, started_explicit FROM kitchen_open_items
       WHERE location_id = ? AND fired_at >= ? AND test <= ? AND station_id IS NOT NULL ORDER BY fired_at, fire_seq, order_id, item_index LIMIT ?`,
    );
    this.openOfOrder = db.prepare('SELECT * FROM kitchen_open_items WHERE order_id = ? ORDER BY item_index');
    this.statsOf = db.prepare('SELECT * FROM kitchen_prep_stats WHERE restaurant_id = ?');
    this.dropStats = db.prepare('DELETE FROM kitchen_prep_stats WHERE restaurant_id = ?');
    this.putStat = db.prepare(
      `INSERT INTO kitchen_prep_stats (restaurant_id, station_id, product_id, mean_seconds, median_seconds, p90_seconds, samples, excluded, learned_at)
       VALUES (@restaurant_id, @station_id, @product_id, @mean_seconds, @median_seconds, @p90_seconds, @samples, @excluded, @learned_at)`,
    );
    this.cooksOf = db.prepare('SELECT station_id, cooks, set_at FROM kitchen_station_cooks WHERE restaurant_id = ?');
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
    this.putHeld = db.prepare(
      `INSERT INTO kitchen_held_items (order_id, item_index, location_id, test, station_id, product_id, quantity, held_at, fire_at, target_ready_at)
       VALUES (@order_id, @item_index, @location_id, @test, @station_id, @product_id, @quantity, @held_at, @fire_at, @target_ready_at)
       ON CONFLICT (order_id, item_index) DO UPDATE SET fire_at = excluded.fire_at, target_ready_at = excluded.target_ready_at`,
    );
    this.dropHeld = db.prepare('DELETE FROM kitchen_held_items WHERE order_id = ? AND item_index = ?');
    this.dropHeldOfOrder = db.prepare('DELETE FROM kitchen_held_items WHERE order_id = ?');
    this.heldOfOrder = db.prepare('SELECT * FROM kitchen_held_items WHERE order_id = ? ORDER BY item_index');
    this.heldAt = db.prepare('SELECT * FROM kitchen_held_items WHERE location_id = ? AND test <= ? ORDER BY fire_at, order_id, item_index LIMIT ?');
    this.dueHeldAt = db.prepare('SELECT * FROM kitchen_held_items WHERE location_id = ? AND fire_at <= ? AND test <= ? ORDER BY fire_at LIMIT ?');
    this.putPromiseUpdate = db.prepare(
      `INSERT INTO order_promise_updates (order_id, at, previous_promised_ready_at, expected_ready_at, promised_ready_at)
       VALUES (@order_id, @at, @previous_promised_ready_at, @expected_ready_at, @promised_ready_at)`,
    );
    this.promiseUpdatesOf = db.prepare('SELECT order_id, at, previous_promised_ready_at, expected_ready_at, promised_ready_at FROM order_promise_updates WHERE order_id = ? ORDER BY seq');
    this.openPromisesAt = db.prepare(
      `SELECT p.order_id, o.test, p.created_at,
         COALESCE((SELECT u.promised_ready_at FROM order_promise_updates u WHERE u.order_id = p.order_id ORDER BY u.seq DESC LIMIT 1), p.promised_ready_at) AS promised_ready_at
       FROM order_promises p JOIN orders o ON o.id = p.order_id
       WHERE p.location_id = ? AND p.ready_at IS NULL AND p.created_at >= ? AND o.status IN ('recibido', 'en_preparacion')
       ORDER BY p.created_at LIMIT ?`,
    );
    this.currentPromisesOfMany = db.prepare(
      `SELECT p.order_id,
         COALESCE((SELECT u.promised_ready_at FROM order_promise_updates u WHERE u.order_id = p.order_id ORDER BY u.seq DESC LIMIT 1), p.promised_ready_at) AS promised_ready_at
       FROM order_promises p WHERE p.order_id IN (SELECT value FROM json_each(?))`,
    );
    this.heldOfMany = db.prepare('SELECT * FROM kitchen_held_items WHERE order_id IN (SELECT value FROM json_each(?))');
    this.heldLocationList = db.prepare('SELECT DISTINCT location_id FROM kitchen_held_items');
    this.everyOpen = db.prepare('SELECT * FROM kitchen_open_items ORDER BY fired_at, fire_seq, order_id, item_index LIMIT ?');
    this.everyHeld = db.prepare('SELECT * FROM kitchen_held_items ORDER BY fire_at, order_id, item_index LIMIT ?');
  }

  /** Every open line of every location (stationless ones too), in openAtLocation's order, at most `limit`: what the kept load is built from. */
  allOpenLines(limit: number): OpenItemRow[] {
    return this.everyOpen.all(limit);
  }

  /** Every held line of every location, in heldAtLocation's order, at most `limit`. */
  allHeldLines(limit: number): HeldItemRow[] {
    return this.everyHeld.all(limit);
  }

  /** Moves an order's promise later: one audit row, which is its promise from now on. */
  updatePromise(row: PromiseUpdateRow): void {
    this.putPromiseUpdate.run(row);
  }

  /** The current promise (last moved, else as made) of each of these orders that has one. */
  currentPromisesOf(orderIds: readonly string[]): { order_id: string; promised_ready_at: number }[] {
    return this.currentPromisesOfMany.all(JSON.stringify(orderIds));
  }

  promiseUpdates(orderId: string): PromiseUpdateRow[] {
    return this.promiseUpdatesOf.all(orderId);
  }

  /** The location's orders in the kitchen and not ready, created since `since`, oldest first, at most `limit`, with their current promise. */
  openPromises(locationId: string, since: number, limit: number): OpenPromiseRow[] {
    return this.openPromisesAt.all(locationId, since, limit);
  }

  hold(row: HeldItemRow): void {
    this.putHeld.run(row);
    this.linesWritten({ kind: 'hold', row: { ...row } });
  }

  unhold(orderId: string, itemIndex: number): void {
    this.dropHeld.run(orderId, itemIndex);
    this.linesWritten({ kind: 'unhold', order_id: orderId, item_index: itemIndex });
  }

  unholdOrder(orderId: string): void {
    this.dropHeldOfOrder.run(orderId);
    this.linesWritten({ kind: 'unhold-order', order_id: orderId });
  }

  heldOf(orderId: string): HeldItemRow[] {
    return this.heldOfOrder.all(orderId);
  }

  heldOfOrders(orderIds: readonly string[]): HeldItemRow[] {
    return this.heldOfMany.all(JSON.stringify(orderIds));
  }

  /** The location's held lines, soonest to fire first, at most `limit`: live ones only, or (`withTest`) the sandbox's too. */
  heldAtLocation(locationId: string, withTest: boolean, limit: number): HeldItemRow[] {
    return this.heldAt.all(locationId, withTest ? 1 : 0, limit);
  }

  /** The location's held lines planned to fire by `now` (the jobs fire them on their next pass), soonest first. */
  dueHeldAtLocation(locationId: string, withTest: boolean, now: number, limit: number): HeldItemRow[] {
    return this.dueHeldAt.all(locationId, now, withTest ? 1 : 0, limit);
  }

  /** The locations that have lines held (what the jobs look at every tick). */
  heldLocations(): string[] {
    return this.heldLocationList.all().map((r) => r.location_id);
  }

  /** Appends a row; returns its seq. */
  log(row: NewItemTiming): number {
    return Number(this.append.run(row).lastInsertRowid);
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
    this.linesWritten({ kind: 'open', row: { ...row } });
  }

  close(orderId: string, itemIndex: number): void {
    this.dropOpen.run(orderId, itemIndex);
    this.linesWritten({ kind: 'close', order_id: orderId, item_index: itemIndex });
  }

  closeOrder(orderId: string): void {
    this.dropOpenOfOrder.run(orderId);
    this.linesWritten({ kind: 'close-order', order_id: orderId });
  }

  /** Marks the order's open lines started at `at` (those not started already). */
  start(orderId: string, at: number): void {
    this.startOpen.run(at, orderId);
    this.linesWritten({ kind: 'start', order_id: orderId, at });
  }

  /** Marks one open line started at its station at `at` (explicit), or not (null). */
  startLine(orderId: string, itemIndex: number, at: number | null): void {
    const explicit = at === null ? 0 : 1;
    this.startOpenLine.run(at, explicit, orderId, itemIndex);
    this.linesWritten({ kind: 'start-line', order_id: orderId, item_index: itemIndex, started_at: at, started_explicit: explicit });
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

  stationCooks(restaurantId: string): { station_id: string; cooks: number; set_at: number }[] {
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
