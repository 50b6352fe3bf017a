// Issue 34: KitchenBoardStore (store/kitchen-board-store.ts) on PostgreSQL. An event's data is text
// holding JSON on both databases: read here with `::jsonb ->>` where SQLite says json_extract. Ties
// among finished orders by id byte by byte (COLLATE "C"), as SQLite's BINARY.
import { ACTIVE_STATUSES } from '../../../shared/order-states.ts';
import type { AsyncStore } from '../../store/async-store.ts';
import type { KitchenBoardStore, KitchenEventRow, OrderStatusEventRow } from '../../store/kitchen-board-store.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import { firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const ORDER_EVENT_TYPES = ['order.created', 'order.updated'];

const SQL = {
  current: 'SELECT * FROM orders WHERE restaurant_id = $1 AND (status = ANY ($2::text[]) OR created_at >= $3)',
  recall: `SELECT * FROM orders WHERE restaurant_id = $1 AND status IN ('entregado', 'cancelado')
    ORDER BY updated_at DESC, id COLLATE "C" DESC LIMIT $2`,
  eventAtOrAfter: 'SELECT seq, created_at FROM events WHERE restaurant_id = $1 AND seq >= $2 ORDER BY seq LIMIT 1',
  orderEventsSince: `SELECT created_at, data::jsonb ->> 'id' AS order_id, data::jsonb ->> 'status' AS status
    FROM events WHERE restaurant_id = $1 AND seq >= $2 AND type = ANY ($3::text[]) ORDER BY seq`,
  eventsAfter: 'SELECT seq, type, created_at, world, data FROM events WHERE restaurant_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
};

export class PostgresKitchenBoardStore implements AsyncStore<KitchenBoardStore> {
  constructor(private readonly db: PostgresQueryable) {}

  currentOrders(restaurantId: string, dayStart: number): Promise<OrderRow[]> {
    return rowsOf<OrderRow>(this.db, SQL.current, [restaurantId, [...ACTIVE_STATUSES], dayStart]);
  }

  latestFinished(restaurantId: string, limit: number): Promise<OrderRow[]> {
    return rowsOf<OrderRow>(this.db, SQL.recall, [restaurantId, limit]);
  }

  firstEventAtOrAfter(restaurantId: string, seq: number): Promise<{ seq: number; created_at: number } | undefined> {
    return firstRow<{ seq: number; created_at: number }>(this.db, SQL.eventAtOrAfter, [restaurantId, seq]);
  }

  orderStatusEvents(restaurantId: string, fromSeq: number): Promise<OrderStatusEventRow[]> {
    return rowsOf<OrderStatusEventRow>(this.db, SQL.orderEventsSince, [restaurantId, fromSeq, ORDER_EVENT_TYPES]);
  }

  events(restaurantId: string, afterSeq: number, limit: number): Promise<KitchenEventRow[]> {
    return rowsOf<KitchenEventRow>(this.db, SQL.eventsAfter, [restaurantId, afterSeq, limit]);
  }
}
