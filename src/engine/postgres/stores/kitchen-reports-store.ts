// Issue 34: KitchenReportsStore (store/kitchen-reports-store.ts) on PostgreSQL: reads only, each
// bounded by a limit. Many orders at once are a text array (`= ANY`) where SQLite reads json_each;
// SQLite's `+location_id` (which keeps its planner on the status index) has no meaning here and is
// gone. Ties on a text id are broken byte by byte (COLLATE "C"), as SQLite does, whatever the
// database's collation. The indexes these reads use (0001, 0003, 0004) are those of SQLite.
import type { AsyncStore } from '../../store/async-store.ts';
import type { ItemTimingRow } from '../../store/kitchen-timings-store.ts';
import type {
  DayRange, KitchenReportsStore, LocationUpdateRow, ReportLogRow, ReportOrderRow, ReportPromiseRow,
} from '../../store/kitchen-reports-store.ts';
import { rowsOf, type PostgresQueryable } from './queryable.ts';
import { testColumn, type World } from '../../../shared/world.ts';

const LOG_OF_LOCATION = `FROM kitchen_item_timings t JOIN orders o ON o.id = t.order_id
  WHERE t.restaurant_id = $1 AND t.at >= $2 AND t.at < $3 AND t.location_id = $4 AND o.test = $5`;

const SQL = {
  logRange: `SELECT t.seq, t.order_id, t.item_index, t.kind, t.station_id, t.product_id, t.quantity, t.channel, t.at ${LOG_OF_LOCATION}
    ORDER BY t.at, t.seq LIMIT $6`,
  fullLogRange: `SELECT t.* ${LOG_OF_LOCATION} ORDER BY t.at, t.seq LIMIT $6`,
  promisesRange: `SELECT p.*, o.number, c.channel FROM order_promises p JOIN orders o ON o.id = p.order_id
    LEFT JOIN kitchen_order_channels c ON c.order_id = p.order_id
    WHERE p.location_id = $1 AND p.created_at >= $2 AND p.created_at < $3 AND o.test = $4
    ORDER BY p.created_at, p.order_id COLLATE "C" LIMIT $5`,
  cancelledRange: `SELECT id, number, created_at, updated_at FROM orders
    WHERE restaurant_id = $1 AND test = $2 AND location_id = $3 AND created_at >= $4 AND created_at < $5 AND status = 'cancelado'
    ORDER BY created_at, id COLLATE "C" LIMIT $6`,
  numbersOf: 'SELECT id, number FROM orders WHERE id = ANY ($1::text[])',
  updatesRange: `SELECT created_at, data FROM events WHERE restaurant_id = $1 AND type = 'location.updated' AND created_at >= $2 AND created_at < $3
    ORDER BY created_at, seq LIMIT $4`,
  updatesBefore: `SELECT created_at, data FROM events WHERE restaurant_id = $1 AND type = 'location.updated' AND created_at < $2
    ORDER BY created_at DESC, seq DESC LIMIT $3`,
  activityIn: `SELECT EXISTS (SELECT 1 FROM kitchen_item_timings t JOIN orders o ON o.id = t.order_id
         WHERE t.restaurant_id = $1 AND t.at >= d.from_at AND t.at < d.to_at AND t.location_id = $2 AND o.test = $3)
       OR EXISTS (SELECT 1 FROM order_promises p JOIN orders o ON o.id = p.order_id
         WHERE p.location_id = $2 AND p.created_at >= d.from_at AND p.created_at < d.to_at AND o.test = $3) AS active
    FROM unnest($4::bigint[], $5::bigint[]) WITH ORDINALITY AS d(from_at, to_at, i) ORDER BY d.i`,
};

export class PostgresKitchenReportsStore implements AsyncStore<KitchenReportsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  log(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): Promise<ReportLogRow[]> {
    return rowsOf<ReportLogRow>(this.db, SQL.logRange, [restaurantId, from, to, locationId, testColumn(world), limit]);
  }

  fullLog(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): Promise<ItemTimingRow[]> {
    return rowsOf<ItemTimingRow>(this.db, SQL.fullLogRange, [restaurantId, from, to, locationId, testColumn(world), limit]);
  }

  promises(locationId: string, world: World, from: number, to: number, limit: number): Promise<ReportPromiseRow[]> {
    return rowsOf<ReportPromiseRow>(this.db, SQL.promisesRange, [locationId, from, to, testColumn(world), limit]);
  }

  cancelled(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): Promise<ReportOrderRow[]> {
    return rowsOf<ReportOrderRow>(this.db, SQL.cancelledRange, [restaurantId, testColumn(world), locationId, from, to, limit]);
  }

  async numbers(orderIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await rowsOf<{ id: string; number: string }>(this.db, SQL.numbersOf, [[...orderIds]]);
    return new Map(rows.map((r) => [r.id, r.number]));
  }

  locationUpdates(restaurantId: string, from: number, to: number, limit: number): Promise<LocationUpdateRow[]> {
    return rowsOf<LocationUpdateRow>(this.db, SQL.updatesRange, [restaurantId, from, to, limit]);
  }

  locationUpdatesBefore(restaurantId: string, at: number, limit: number): Promise<LocationUpdateRow[]> {
    return rowsOf<LocationUpdateRow>(this.db, SQL.updatesBefore, [restaurantId, at, limit]);
  }

  /** Every range in one statement (the report-days job asks of each of a location's last 89 days). */
  async activeIn(restaurantId: string, locationId: string, world: World, ranges: readonly DayRange[]): Promise<boolean[]> {
    if (ranges.length === 0) return [];
    const params = [restaurantId, locationId, testColumn(world), ranges.map((r) => r.from), ranges.map((r) => r.to)];
    return (await rowsOf<{ active: boolean }>(this.db, SQL.activityIn, params)).map((row) => row.active);
  }
}
