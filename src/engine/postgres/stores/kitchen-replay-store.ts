// Issue 34: KitchenReplayStore (store/kitchen-replay-store.ts) on PostgreSQL: reads only. An event's
// JSON data is read with `::jsonb ->>` where SQLite says json_extract; many orders at once are a
// text array. Events of one millisecond keep their order by seq (per restaurant here).
import type { AsyncStore } from '../../store/async-store.ts';
import type { ItemTimingRow } from '../../store/kitchen-timings-store.ts';
import type { KitchenReplayStore, OrderStateRow, ReplayPromiseRow } from '../../store/kitchen-replay-store.ts';
import { rowsOf, type PostgresQueryable } from './queryable.ts';
import { testColumn, type World } from '../../../shared/world.ts';

const SQL = {
  logRange: `SELECT t.* FROM kitchen_item_timings t JOIN orders o ON o.id = t.order_id
    WHERE t.restaurant_id = $1 AND t.at >= $2 AND t.at < $3 AND t.location_id = $4 AND o.test = $5 ORDER BY t.at, t.seq LIMIT $6`,
  statesRange: `SELECT data::jsonb ->> 'id' AS order_id, data::jsonb ->> 'number' AS number, data::jsonb ->> 'status' AS status, created_at AS at
    FROM events WHERE restaurant_id = $1 AND world = $2 AND type IN ('order.created', 'order.updated') AND created_at >= $3 AND created_at < $4
      AND data::jsonb ->> 'location_id' = $5
    ORDER BY created_at, seq LIMIT $6`,
  promisesOf: 'SELECT order_id, promised_ready_at, ready_at FROM order_promises WHERE order_id = ANY ($1::text[])',
};

export class PostgresKitchenReplayStore implements AsyncStore<KitchenReplayStore> {
  constructor(private readonly db: PostgresQueryable) {}

  log(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): Promise<ItemTimingRow[]> {
    return rowsOf<ItemTimingRow>(this.db, SQL.logRange, [restaurantId, from, to, locationId, testColumn(world), limit]);
  }

  orderStates(restaurantId: string, world: World, locationId: string, from: number, to: number, limit: number): Promise<OrderStateRow[]> {
    return rowsOf<OrderStateRow>(this.db, SQL.statesRange, [restaurantId, world, from, to, locationId, limit]);
  }

  promises(orderIds: readonly string[]): Promise<ReplayPromiseRow[]> {
    return rowsOf<ReplayPromiseRow>(this.db, SQL.promisesOf, [[...orderIds]]);
  }
}
