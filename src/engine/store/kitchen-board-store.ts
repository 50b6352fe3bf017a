import type { Database, Statement } from 'better-sqlite3';
import type { OrderStatus } from '../../shared/order-states.ts';
import { ACTIVE_STATUSES } from '../../shared/order-states.ts';
import type { EventWorld } from './events-store.ts';
import type { OrderRow } from './orders-store.ts';

export interface KitchenEventRow {
  seq: number;
  type: string;
  created_at: number;
  world: EventWorld;
  data: string;
}

export interface OrderStatusEventRow {
  created_at: number;
  order_id: string;
  status: OrderStatus;
}

const ORDER_EVENT_TYPES = ['order.created', 'order.updated'] as const;

/**
 * The kitchen screen's reads. Unlike an API key, the screen sees both worlds of its restaurant at
 * once, so these read across worlds. Prepared once: the live feed reads events after every commit.
 */
export class KitchenBoardStore {
  private readonly current: Statement<unknown[], OrderRow>;
  private readonly recall: Statement<[string, number], OrderRow>;
  private readonly eventAtOrAfter: Statement<[string, number], { seq: number; created_at: number }>;
  private readonly orderEventsSince: Statement<unknown[], OrderStatusEventRow>;
  private readonly eventsAfter: Statement<[string, number, number], KitchenEventRow>;

  constructor(db: Database) {
    const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    this.current = db.prepare(
      `SELECT * FROM orders WHERE restaurant_id = ? AND (status IN (${placeholders(ACTIVE_STATUSES.length)}) OR created_at >= ?)`,
    );
    this.recall = db.prepare(
      `SELECT * FROM orders WHERE restaurant_id = ? AND status IN ('entregado', 'cancelado')
       ORDER BY updated_at DESC, id DESC LIMIT ?`,
    );
    this.eventAtOrAfter = db.prepare('SELECT seq, created_at FROM events WHERE restaurant_id = ? AND seq >= ? ORDER BY seq LIMIT 1');
    this.orderEventsSince = db.prepare(
      `SELECT created_at, json_extract(data, '$.id') AS order_id, json_extract(data, '$.status') AS status
       FROM events WHERE restaurant_id = ? AND seq >= ? AND type IN (${placeholders(ORDER_EVENT_TYPES.length)})
       ORDER BY seq`,
    );
    this.eventsAfter = db.prepare(
      'SELECT seq, type, created_at, world, data FROM events WHERE restaurant_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
  }

  /** Active orders of both worlds and every order created since `dayStart`. */
  currentOrders(restaurantId: string, dayStart: number): OrderRow[] {
    return this.current.all(restaurantId, ...ACTIVE_STATUSES, dayStart);
  }

  latestFinished(restaurantId: string, limit: number): OrderRow[] {
    return this.recall.all(restaurantId, limit);
  }

  /** The restaurant's first event from `seq` on (its feed is numbered per restaurant on PostgreSQL). */
  firstEventAtOrAfter(restaurantId: string, seq: number): { seq: number; created_at: number } | undefined {
    return this.eventAtOrAfter.get(restaurantId, seq);
  }

  /** Each order event's order id and status from `fromSeq` on, oldest first. */
  orderStatusEvents(restaurantId: string, fromSeq: number): OrderStatusEventRow[] {
    return this.orderEventsSince.all(restaurantId, fromSeq, ...ORDER_EVENT_TYPES);
  }

  /** The restaurant's events of both worlds after `afterSeq`, oldest first. */
  events(restaurantId: string, afterSeq: number, limit: number): KitchenEventRow[] {
    return this.eventsAfter.all(restaurantId, afterSeq, limit);
  }
}
