// Issue 34: CourierDeliveriesStore (store/courier-deliveries-store.ts) on PostgreSQL. `due` reads
// the due deliveries as on SQLite; with several nodes, a node claims them instead through the
// storage port (`claimJobs('courier', …)`, a lease and FOR UPDATE SKIP LOCKED), so two
// nodes never work the same delivery.
import type { AsyncStore } from '../../store/async-store.ts';
import type { CourierDeliveriesStore, CourierDeliveryChanges, CourierDeliveryRow } from '../../store/courier-deliveries-store.ts';
import { firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const COLUMNS = [
  'order_id', 'provider', 'status', 'delivery_id', 'tracking_url', 'attempts', 'next_check_at', 'last_error',
  'dispatched_at', 'claimed_until', 'created_at', 'updated_at',
] as const satisfies readonly (keyof CourierDeliveryRow)[];

/** The columns an update may set: a closed list, since their names are written into the SQL. */
const UPDATABLE = new Set<string>([
  'status', 'delivery_id', 'tracking_url', 'attempts', 'next_check_at', 'last_error', 'dispatched_at', 'claimed_until',
] satisfies (keyof CourierDeliveryChanges)[]);

const SQL = {
  insert: `INSERT INTO courier_deliveries (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
  byOrder: 'SELECT * FROM courier_deliveries WHERE order_id = $1',
  due: `SELECT order_id FROM courier_deliveries WHERE next_check_at IS NOT NULL AND next_check_at <= $1
      AND (claimed_until IS NULL OR claimed_until <= $1)
    ORDER BY next_check_at, order_id COLLATE "C" LIMIT $2`,
};

export class PostgresCourierDeliveriesStore implements AsyncStore<CourierDeliveriesStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async insert(row: CourierDeliveryRow): Promise<void> {
    await this.db.query(SQL.insert, COLUMNS.map((c) => row[c]));
  }

  get(orderId: string): Promise<CourierDeliveryRow | undefined> {
    return firstRow<CourierDeliveryRow>(this.db, SQL.byOrder, [orderId]);
  }

  async due(now: number, limit: number): Promise<string[]> {
    return (await rowsOf<{ order_id: string }>(this.db, SQL.due, [now, limit])).map((r) => r.order_id);
  }

  async update(orderId: string, changes: CourierDeliveryChanges, updatedAt: number): Promise<void> {
    const columns = Object.keys(changes).sort();
    for (const column of columns) {
      if (!UPDATABLE.has(column)) throw new Error(`a courier delivery's ${column} is not changed by update`);
    }
    const set = columns.map((c, i) => `${c} = $${i + 1}`).join(', ');
    const values = columns.map((c) => changes[c as keyof CourierDeliveryChanges]);
    const sql = `UPDATE courier_deliveries SET ${set}${set ? ', ' : ''}updated_at = $${columns.length + 1} WHERE order_id = $${columns.length + 2}`;
    await this.db.query(sql, [...values, updatedAt, orderId]);
  }
}
