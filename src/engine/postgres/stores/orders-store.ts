// Issue 34: OrdersStore (store/orders-store.ts) on PostgreSQL. Differences from SQLite, on purpose:
// - text is ordered and compared byte by byte (COLLATE "C"), as SQLite's BINARY, whatever the
//   database's collation, so a keyset page (`before`) finds exactly the rows the order puts after;
// - `rename` changes an order's id and every row pointing to it in one statement (data-modifying
//   WITHs): PostgreSQL checks a foreign key that is not deferrable at the end of the statement,
//   where SQLite needs `defer_foreign_keys` until the commit;
// - the write listeners (`onWrite`) hear this store's writes, in this process: on the platform
//   another node's writes reach a node's caches through the storage port's change signal.
import type { AsyncStoreWithLocal } from '../../store/async-store.ts';
import type {
  OrderChanges, OrderListFilter, OrderListKey, OrderRow, OrderWriteListener, OrdersStore,
} from '../../store/orders-store.ts';
import { firstRow, rowsOf, sendWrite, type PostgresQueryable } from './queryable.ts';
import { testColumn, type World } from '../../../shared/world.ts';

const INSERT_COLUMNS = [
  'id', 'restaurant_id', 'test', 'number', 'status', 'type', 'location_id', 'customer_name', 'customer_phone',
  'customer_email', 'address', 'notes', 'items', 'subtotal', 'shipping_fee', 'discount', 'total', 'payment_kind',
  'payment_method', 'paid', 'refunded', 'delivery_provider', 'delivery_status', 'delivery_tracking_url', 'scheduled_for',
  'stock_taken', 'managed_by', 'created_at', 'updated_at',
] as const satisfies readonly (keyof OrderRow)[];

/** The columns an update may set: a closed list, since their names are written into the SQL. */
const UPDATABLE_CHANGES = new Set<string>([
  'status', 'paid', 'refunded', 'payment_method', 'delivery_provider', 'delivery_status', 'delivery_tracking_url', 'stock_taken',
] satisfies (keyof OrderChanges)[]);

const VALUES = INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
const UPSERTED = INSERT_COLUMNS.filter((c) => c !== 'id' && c !== 'restaurant_id' && c !== 'test');

const SQL = {
  insert: `INSERT INTO orders (${INSERT_COLUMNS.join(', ')}) VALUES (${VALUES})`,
  upsert: `INSERT INTO orders (${INSERT_COLUMNS.join(', ')}) VALUES (${VALUES})
    ON CONFLICT (id) DO UPDATE SET ${UPSERTED.map((c) => `${c} = excluded.${c}`).join(', ')}`,
  // An order created on a replica keeps answering to its local id once the upstream renamed it.
  byId: `SELECT * FROM orders WHERE id = COALESCE((SELECT upstream_id FROM order_id_aliases WHERE local_id = $1), $1)
    AND restaurant_id = $2 AND test = $3`,
  byIdAnyWorld: 'SELECT * FROM orders WHERE id = $1',
  delete: 'DELETE FROM orders WHERE id = $1',
  managedIds: 'SELECT id FROM orders WHERE restaurant_id = $1 AND managed_by IS NOT NULL ORDER BY created_at, id COLLATE "C"',
  // The columns holding an order's id in other tables, read from the catalogue as SQLite's
  // pragma_foreign_key_list: a table added later is followed without a change here.
  references: `SELECT c.conrelid::regclass::text AS "table", quote_ident(a.attname) AS "column"
    FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
    WHERE c.contype = 'f' AND c.confrelid = 'orders'::regclass ORDER BY 1, 2`,
};

export class PostgresOrdersStore implements AsyncStoreWithLocal<OrdersStore, 'onWrite'> {
  private readonly writeListeners = new Set<OrderWriteListener>();

  constructor(private readonly db: PostgresQueryable) {}

  async managedIds(restaurantId: string): Promise<string[]> {
    return (await rowsOf<{ id: string }>(this.db, SQL.managedIds, [restaurantId])).map((r) => r.id);
  }

  onWrite(listener: OrderWriteListener): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  private written(id: string | null): void {
    for (const listener of this.writeListeners) listener(id);
  }

  async insert(row: OrderRow): Promise<void> {
    this.written(row.id);
    await sendWrite(this.db, SQL.insert, INSERT_COLUMNS.map((c) => row[c]));
  }

  /** Removes an order and every row pointing to it; call inside a transaction (the client of one). */
  async delete(id: string): Promise<void> {
    this.written(id);
    for (const ref of await this.referencesToOrders()) {
      await this.db.query(`DELETE FROM ${ref.table} WHERE ${ref.column} = $1`, [id]);
    }
    await this.db.query(SQL.delete, [id]);
  }

  async upsert(row: OrderRow): Promise<void> {
    this.written(row.id);
    await this.db.query(SQL.upsert, INSERT_COLUMNS.map((c) => row[c]));
  }

  /** Gives an order its upstream's id and number, with every row pointing to it: one statement. */
  async rename(fromId: string, toId: string, number: string): Promise<void> {
    this.written(null);
    const moves = (await this.referencesToOrders()).map(
      (ref, i) => `moved_${i} AS (UPDATE ${ref.table} SET ${ref.column} = $1 WHERE ${ref.column} = $2)`,
    );
    // The number it was answered and printed with stays beside the upstream's (shared/order-number.ts).
    const order = `UPDATE orders SET id = $1, local_number = CASE WHEN number = $3 THEN local_number ELSE number END, number = $3 WHERE id = $2`;
    const sql = moves.length > 0 ? `WITH ${moves.join(',\n')} ${order}` : order;
    await this.db.query(sql, [toId, fromId, number]);
  }

  private referencesToOrders(): Promise<{ table: string; column: string }[]> {
    return rowsOf<{ table: string; column: string }>(this.db, SQL.references);
  }

  get(restaurantId: string, world: World, id: string): Promise<OrderRow | undefined> {
    return firstRow<OrderRow>(this.db, SQL.byId, [id, restaurantId, testColumn(world)]);
  }

  getById(id: string): Promise<OrderRow | undefined> {
    return firstRow<OrderRow>(this.db, SQL.byIdAnyWorld, [id]);
  }

  list(filter: OrderListFilter): Promise<OrderRow[]> {
    const { sql, params } = listQuery('*', filter);
    return rowsOf<OrderRow>(this.db, sql, params);
  }

  listKeys(filter: OrderListFilter): Promise<OrderListKey[]> {
    const { sql, params } = listQuery('id, created_at', filter);
    return rowsOf<OrderListKey>(this.db, sql, params);
  }

  async update(id: string, changes: OrderChanges, updatedAt: number): Promise<void> {
    this.written(id);
    const columns = Object.keys(changes).sort();
    for (const column of columns) {
      if (!UPDATABLE_CHANGES.has(column)) throw new Error(`an order's ${column} is not changed by update`);
    }
    const values = columns.map((c) => changes[c as keyof OrderChanges]);
    const set = columns.map((c, i) => `${c} = $${i + 1}`).join(', ');
    const sql = `UPDATE orders SET ${set}${set ? ', ' : ''}updated_at = $${columns.length + 1} WHERE id = $${columns.length + 2}`;
    await this.db.query(sql, [...values, updatedAt, id]);
  }
}

/** Newest first, ties by id byte by byte; the keyset `before` compares the same way. */
function listQuery(columns: string, filter: OrderListFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = [`restaurant_id = ${param(filter.restaurantId)}`, `test = ${param(testColumn(filter.world))}`];
  if (filter.status !== undefined) where.push(`status = ${param(filter.status)}`);
  if (filter.locationId !== undefined) where.push(`location_id = ${param(filter.locationId)}`);
  if (filter.from !== undefined) where.push(`created_at >= ${param(filter.from)}`);
  if (filter.to !== undefined) where.push(`created_at < ${param(filter.to)}`);
  if (filter.before !== undefined) {
    const createdAt = param(filter.before.createdAt);
    where.push(`(created_at < ${createdAt} OR (created_at = ${createdAt} AND id COLLATE "C" < ${param(filter.before.id)}))`);
  }
  const limit = param(filter.limit);
  return { sql: `SELECT ${columns} FROM orders WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${limit}`, params };
}
