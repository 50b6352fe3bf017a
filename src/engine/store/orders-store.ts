import type { Database, Statement } from 'better-sqlite3';
import type { DeliveryStatus, PaymentMethod } from '../../shared/order.ts';
import type { OrderStatus, OrderType } from '../../shared/order-states.ts';
import { bound } from './bound.ts';
import { testColumn, type World } from '../../shared/world.ts';

export interface OrderRow {
  id: string;
  restaurant_id: string;
  test: number;
  number: string;
  status: OrderStatus;
  type: OrderType;
  location_id: string | null;
  customer_name: string | null;
  customer_phone: string | null;
  customer_email: string | null;
  address: string | null;
  notes: string | null;
  items: string;
  subtotal: number;
  shipping_fee: number;
  discount: number;
  total: number;
  payment_kind: 'external' | 'online';
  payment_method: PaymentMethod | null;
  paid: number;
  /** CLP refunded to the customer (payments that could not pay the order); 0 when none. */
  refunded: number;
  delivery_provider: string | null;
  delivery_status: DeliveryStatus | null;
  delivery_tracking_url: string | null;
  scheduled_for: number | null;
  stock_taken: number;
  managed_by: string | null;
  created_at: number;
  updated_at: number;
  /** A replica's own number for an order typed into it, kept once the upstream's replaced it (rename); not written by upsert. */
  local_number?: string | null;
}

export interface OrderListFilter {
  restaurantId: string;
  world: World;
  status?: OrderStatus;
  locationId?: string;
  from?: number;
  to?: number;
  /** Keyset position: rows strictly after (older than) this one. */
  before?: { createdAt: number; id: string };
  limit: number;
}

export type OrderChanges = Partial<
  Pick<OrderRow, 'status' | 'paid' | 'refunded' | 'payment_method' | 'delivery_provider' | 'delivery_status' | 'delivery_tracking_url' | 'stock_taken'>
>;

const INSERT_COLUMNS: (keyof OrderRow)[] = [
  'id', 'restaurant_id', 'test', 'number', 'status', 'type', 'location_id', 'customer_name', 'customer_phone',
  'customer_email', 'address', 'notes', 'items', 'subtotal', 'shipping_fee', 'discount', 'total', 'payment_kind',
  'payment_method', 'paid', 'refunded', 'delivery_provider', 'delivery_status', 'delivery_tracking_url', 'scheduled_for',
  'stock_taken', 'managed_by', 'created_at', 'updated_at',
];

/** Told of every write this connection makes to an order: its id, or null when ids themselves changed. */
export type OrderWriteListener = (id: string | null) => void;

/** An order's position in the newest-first list. */
export interface OrderListKey {
  id: string;
  created_at: number;
}

export class OrdersStore {
  private readonly db: Database;
  private readonly writeListeners = new Set<OrderWriteListener>();
  private readonly listKeyStatements = new Map<string, Statement<unknown[], OrderListKey>>();
  private readonly insertStatement: Statement;
  private readonly byId: Statement<[{ id: string; restaurantId: string; test: number }], OrderRow>;
  private readonly byIdAnyWorld: Statement<[string], OrderRow>;
  private readonly upsertStatement: Statement;
  private readonly deleteStatement: Statement<[string]>;
  private readonly listStatements = new Map<string, Statement<unknown[], OrderRow>>();
  private readonly updateStatements = new Map<string, Statement>();

  constructor(db: Database) {
    this.db = db;
    this.insertStatement = db.prepare(
      `INSERT INTO orders (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map((c) => `@${c}`).join(', ')})`,
    );
    // An order created on a replica keeps answering to its local id once the upstream renamed it.
    this.byId = db.prepare(
      `SELECT * FROM orders WHERE id = COALESCE((SELECT upstream_id FROM order_id_aliases WHERE local_id = @id), @id)
       AND restaurant_id = @restaurantId AND test = @test`,
    );
    this.byIdAnyWorld = db.prepare('SELECT * FROM orders WHERE id = ?');
    this.deleteStatement = db.prepare('DELETE FROM orders WHERE id = ?');
    const updatable = INSERT_COLUMNS.filter((c) => c !== 'id' && c !== 'restaurant_id' && c !== 'test');
    this.upsertStatement = db.prepare(
      `INSERT INTO orders (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map((c) => `@${c}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${updatable.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    );
  }

  /**
   * Listens to this connection's writes to orders (what other connections commit shows in
   * `PRAGMA data_version`). Every write to the orders table goes through this store, so what is
   * kept in memory of an order can be dropped when it changes. Returns the unsubscribe.
   */
  /** The restaurant's orders managed by an integration (a POS), oldest first. Rarely asked: prepared on use. */
  managedIds(restaurantId: string): string[] {
    const rows = this.db.prepare('SELECT id FROM orders WHERE restaurant_id = ? AND managed_by IS NOT NULL ORDER BY created_at, id').all(restaurantId) as { id: string }[];
    return rows.map((r) => r.id);
  }

  onWrite(listener: OrderWriteListener): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  private written(id: string | null): void {
    for (const listener of this.writeListeners) listener(id);
  }

  insert(row: OrderRow): void {
    this.written(row.id);
    this.insertStatement.run(row);
  }

  /**
   * Removes an order nobody was told of (an online order whose payment never opened), with every
   * row that points to it (its session, its kitchen channel...). Call inside a transaction.
   */
  delete(id: string): void {
    this.written(id);
    for (const ref of this.referencesToOrders()) {
      this.db.prepare(`DELETE FROM ${ref.table} WHERE ${ref.column} = ?`).run(id);
    }
    this.deleteStatement.run(id);
  }

  /** Writes an order as another engine reported it (a replica mirroring its upstream). */
  upsert(row: OrderRow): void {
    this.written(row.id);
    this.upsertStatement.run(row);
  }

  /**
   * Gives an order the id (and number) its upstream assigned, with every row that points to it.
   * Call inside a transaction.
   */
  rename(fromId: string, toId: string, number: string): void {
    this.written(null);
    this.db.pragma('defer_foreign_keys = ON');
    for (const ref of this.referencesToOrders()) {
      this.db.prepare(`UPDATE ${ref.table} SET ${ref.column} = ? WHERE ${ref.column} = ?`).run(toId, fromId);
    }
    // The number it was answered and printed with stays beside the upstream's (shared/order-number.ts).
    this.db.prepare('UPDATE orders SET id = ?, local_number = CASE WHEN number = ? THEN local_number ELSE number END, number = ? WHERE id = ?').run(toId, number, number, fromId);
  }

  private referencesToOrders(): { table: string; column: string }[] {
    return this.db
      .prepare(
        `SELECT m.name AS "table", f."from" AS "column" FROM sqlite_master m, pragma_foreign_key_list(m.name) f
         WHERE m.type = 'table' AND f."table" = 'orders'`,
      )
      .all() as { table: string; column: string }[];
  }

  get(restaurantId: string, world: World, id: string): OrderRow | undefined {
    return this.byId.get({ id, restaurantId, test: testColumn(world) });
  }

  /** For jobs that act on an order found by id alone (payment confirmation, couriers). */
  getById(id: string): OrderRow | undefined {
    return this.byIdAnyWorld.get(id);
  }

  /** Newest first; one statement per combination of filters, prepared once (see bound.ts). */
  list(filter: OrderListFilter): OrderRow[] {
    const { sql, params } = this.listQuery('*', filter);
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    return statement.all(...params);
  }

  /** The same rows as list(), only their ids and creation times (read from the index alone). */
  listKeys(filter: OrderListFilter): OrderListKey[] {
    const { sql, params } = this.listQuery('id, created_at', filter);
    let statement = this.listKeyStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.listKeyStatements.set(sql, statement);
    }
    return statement.all(...params);
  }

  private listQuery(columns: string, filter: OrderListFilter): { sql: string; params: unknown[] } {
    const where = [`restaurant_id = ${bound()}`, `test = ${bound()}`];
    const params: unknown[] = [filter.restaurantId, testColumn(filter.world)];
    if (filter.status !== undefined) {
      where.push(`status = ${bound()}`);
      params.push(filter.status);
    }
    if (filter.locationId !== undefined) {
      where.push(`location_id = ${bound()}`);
      params.push(filter.locationId);
    }
    if (filter.from !== undefined) {
      where.push(`created_at >= ${bound()}`);
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      where.push(`created_at < ${bound()}`);
      params.push(filter.to);
    }
    if (filter.before !== undefined) {
      where.push(`(created_at < ${bound()} OR (created_at = ${bound()} AND id < ${bound()}))`);
      params.push(filter.before.createdAt, filter.before.createdAt, filter.before.id);
    }
    params.push(filter.limit);
    return { sql: `SELECT ${columns} FROM orders WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`, params };
  }

  update(id: string, changes: OrderChanges, updatedAt: number): void {
    this.written(id);
    const columns = Object.keys(changes).sort();
    const sql = `UPDATE orders SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @updated_at WHERE id = @id`;
    let statement = this.updateStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.updateStatements.set(sql, statement);
    }
    statement.run({ ...changes, updated_at: updatedAt, id });
  }
}
