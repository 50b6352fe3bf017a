// Issue 34: PaymentActionsStore (store/payment-actions-store.ts) on PostgreSQL. `due` reads the due
// actions as on SQLite; with several nodes, a node claims them through the storage port instead
// (`claimJobs('payment', …)`: a lease and FOR UPDATE SKIP LOCKED). `quietSessions` orders by the
// session's creation only, as on SQLite: sessions of the same millisecond come in no promised order.
import type { AsyncStore } from '../../store/async-store.ts';
import type {
  NewPaymentAction, PaymentActionChanges, PaymentActionKind, PaymentActionRow, PaymentActionsStore,
} from '../../store/payment-actions-store.ts';
import { changesOf, firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

/** The columns an update may set: a closed list, since their names are written into the SQL. */
const UPDATABLE = new Set<string>([
  'order_id', 'amount', 'status', 'outcome', 'provider_ref', 'attempts', 'requested', 'next_at', 'last_error',
] satisfies (keyof PaymentActionChanges)[]);

const SQL = {
  insert: `INSERT INTO payment_actions (restaurant_id, provider, kind, payment_id, order_id, amount, idempotency_key, status,
      attempts, next_at, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 0, $8, $9, $9) RETURNING id`,
  byId: 'SELECT * FROM payment_actions WHERE id = $1',
  byKey: 'SELECT * FROM payment_actions WHERE restaurant_id = $1 AND provider = $2 AND kind = $3 AND payment_id = $4',
  ofOrder: 'SELECT * FROM payment_actions WHERE order_id = $1 ORDER BY id',
  quietSessions: `SELECT o.id AS order_id, o.restaurant_id FROM payment_sessions s JOIN orders o ON o.id = s.order_id
    WHERE s.provider = $1 AND s.opening = 0 AND s.created_at <= $2 AND s.created_at > $3 AND o.test = 0
      AND NOT EXISTS (SELECT 1 FROM payment_actions a WHERE a.order_id = o.id AND a.kind IN ('check', 'search'))
    ORDER BY s.created_at LIMIT $4`,
  due: 'SELECT id FROM payment_actions WHERE next_at IS NOT NULL AND next_at <= $1 ORDER BY next_at, id LIMIT $2',
};

export class PostgresPaymentActionsStore implements AsyncStore<PaymentActionsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  quietSessions(provider: string, openedBy: number, openedAfter: number, limit: number): Promise<{ order_id: string; restaurant_id: string }[]> {
    return rowsOf(this.db, SQL.quietSessions, [provider, openedBy, openedAfter, limit]);
  }

  async insert(action: NewPaymentAction): Promise<number> {
    const row = await firstRow<{ id: number }>(this.db, SQL.insert, [
      action.restaurant_id, action.provider, action.kind, action.payment_id, action.order_id, action.amount,
      action.idempotency_key, action.next_at, action.created_at,
    ]);
    if (!row) throw new Error('a payment action was not inserted');
    return row.id;
  }

  get(id: number): Promise<PaymentActionRow | undefined> {
    return firstRow<PaymentActionRow>(this.db, SQL.byId, [id]);
  }

  find(restaurantId: string, provider: string, kind: PaymentActionKind, paymentId: string): Promise<PaymentActionRow | undefined> {
    return firstRow<PaymentActionRow>(this.db, SQL.byKey, [restaurantId, provider, kind, paymentId]);
  }

  listOfOrder(orderId: string): Promise<PaymentActionRow[]> {
    return rowsOf<PaymentActionRow>(this.db, SQL.ofOrder, [orderId]);
  }

  async due(now: number, limit: number): Promise<number[]> {
    return (await rowsOf<{ id: number }>(this.db, SQL.due, [now, limit])).map((r) => r.id);
  }

  async update(id: number, changes: PaymentActionChanges, updatedAt: number): Promise<void> {
    await this.updateWhere(id, null, changes, updatedAt);
  }

  async updateClaimed(id: number, leaseUntil: number, changes: PaymentActionChanges, updatedAt: number): Promise<boolean> {
    return (await this.updateWhere(id, leaseUntil, changes, updatedAt)) === 1;
  }

  private updateWhere(id: number, leaseUntil: number | null, changes: PaymentActionChanges, updatedAt: number): Promise<number> {
    const columns = Object.keys(changes).sort();
    for (const column of columns) {
      if (!UPDATABLE.has(column)) throw new Error(`a payment action's ${column} is not changed by update`);
    }
    const set = columns.map((c, i) => `${c} = $${i + 1}`);
    const values = columns.map((c) => changes[c as keyof PaymentActionChanges]);
    const held = leaseUntil === null ? '' : ` AND status = 'pending' AND next_at = $${columns.length + 3}`;
    const sql = `UPDATE payment_actions SET ${[...set, `updated_at = $${columns.length + 1}`].join(', ')} WHERE id = $${columns.length + 2}${held}`;
    return changesOf(this.db, sql, [...values, updatedAt, id, ...(leaseUntil === null ? [] : [leaseUntil])]);
  }
}
