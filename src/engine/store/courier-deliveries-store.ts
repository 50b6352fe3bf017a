import type { Database, Statement } from 'better-sqlite3';

/**
 * `fallido`: the dispatch failed and is retried while the order is `listo`; the others are the
 * courier's own statuses (api-v1-decisions.md, Delivery).
 */
export type CourierDeliveryStatus = 'fallido' | 'pendiente' | 'asignado' | 'en_camino' | 'entregado' | 'cancelado';

export interface CourierDeliveryRow {
  order_id: string;
  provider: string;
  status: CourierDeliveryStatus;
  delivery_id: string | null;
  tracking_url: string | null;
  attempts: number;
  next_check_at: number | null;
  last_error: string | null;
  dispatched_at: number | null;
  /**
   * Issue 34: the end of the lease of the claim a courier call is under way for (engine clock), else
   * null. The call's outcome is recorded only while the row still holds it: the claim's fencing token.
   */
  claimed_until: number | null;
  created_at: number;
  updated_at: number;
}

export type CourierDeliveryChanges = Partial<
  Pick<CourierDeliveryRow, 'status' | 'delivery_id' | 'tracking_url' | 'attempts' | 'next_check_at' | 'last_error' | 'dispatched_at' | 'claimed_until'>
>;

const COLUMNS: (keyof CourierDeliveryRow)[] = [
  'order_id', 'provider', 'status', 'delivery_id', 'tracking_url', 'attempts', 'next_check_at', 'last_error',
  'dispatched_at', 'claimed_until', 'created_at', 'updated_at',
];

/** Courier deliveries of orders, with when the jobs runner must look at each again. */
export class CourierDeliveriesStore {
  private readonly db: Database;
  private readonly insertStatement: Statement;
  private readonly byOrder: Statement<[string], CourierDeliveryRow>;
  private readonly dueStatement: Statement<[{ now: number; limit: number }], { order_id: string }>;
  private readonly updateStatements = new Map<string, Statement>();

  constructor(db: Database) {
    this.db = db;
    this.insertStatement = db.prepare(
      `INSERT INTO courier_deliveries (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
    );
    this.byOrder = db.prepare('SELECT * FROM courier_deliveries WHERE order_id = ?');
    this.dueStatement = db.prepare(
      `SELECT order_id FROM courier_deliveries WHERE next_check_at IS NOT NULL AND next_check_at <= @now
         AND (claimed_until IS NULL OR claimed_until <= @now)
       ORDER BY next_check_at, order_id LIMIT @limit`,
    );
  }

  insert(row: CourierDeliveryRow): void {
    this.insertStatement.run(row);
  }

  get(orderId: string): CourierDeliveryRow | undefined {
    return this.byOrder.get(orderId);
  }

  /** Orders whose delivery needs a dispatch retry or a status check at `now` and is not claimed, oldest first. */
  due(now: number, limit: number): string[] {
    return this.dueStatement.all({ now, limit }).map((r) => r.order_id);
  }

  update(orderId: string, changes: CourierDeliveryChanges, updatedAt: number): void {
    const columns = Object.keys(changes).sort();
    const sql = `UPDATE courier_deliveries SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @updated_at
                 WHERE order_id = @order_id`;
    let statement = this.updateStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.updateStatements.set(sql, statement);
    }
    statement.run({ ...changes, updated_at: updatedAt, order_id: orderId });
  }
}
