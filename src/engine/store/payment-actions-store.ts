import type { Database, Statement } from 'better-sqlite3';

/** check: read a payment; refund: give one back; search: find an order's payments (its `payment_id` is the order's id). */
export type PaymentActionKind = 'check' | 'refund' | 'search';
export type PaymentActionStatus = 'pending' | 'done' | 'failed';

export interface PaymentActionRow {
  id: number;
  restaurant_id: string;
  provider: string;
  kind: PaymentActionKind;
  payment_id: string;
  order_id: string | null;
  amount: number | null;
  idempotency_key: string | null;
  status: PaymentActionStatus;
  outcome: string | null;
  provider_ref: string | null;
  attempts: number;
  /** How many times it was asked for: a check asked for again while its call was under way is done again. */
  requested: number;
  next_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export type NewPaymentAction = Pick<
  PaymentActionRow,
  'restaurant_id' | 'provider' | 'kind' | 'payment_id' | 'order_id' | 'amount' | 'idempotency_key' | 'next_at' | 'created_at'
>;

export type PaymentActionChanges = Partial<
  Pick<PaymentActionRow, 'order_id' | 'amount' | 'status' | 'outcome' | 'provider_ref' | 'attempts' | 'requested' | 'next_at' | 'last_error'>
>;

/**
 * Payment intents (services/payments/payment-actions.ts): one row per (restaurant, provider, kind,
 * payment), performed by the jobs runner outside any transaction when `next_at` is due.
 */
export class PaymentActionsStore {
  private readonly db: Database;
  private readonly insertStatement: Statement;
  private readonly byId: Statement<[number], PaymentActionRow>;
  private readonly byKey: Statement<[string, string, string, string], PaymentActionRow>;
  private readonly ofOrder: Statement<[string], PaymentActionRow>;
  private readonly dueStatement: Statement<[number, number], { id: number }>;
  private readonly quietSessionsStatement: Statement<[string, number, number, number], { order_id: string; restaurant_id: string }>;
  private readonly updateStatements = new Map<string, Statement>();

  constructor(db: Database) {
    this.db = db;
    this.insertStatement = db.prepare(
      `INSERT INTO payment_actions (restaurant_id, provider, kind, payment_id, order_id, amount, idempotency_key, status,
         attempts, next_at, created_at, updated_at)
       VALUES (@restaurant_id, @provider, @kind, @payment_id, @order_id, @amount, @idempotency_key, 'pending', 0, @next_at,
         @created_at, @created_at)`,
    );
    this.byId = db.prepare('SELECT * FROM payment_actions WHERE id = ?');
    this.byKey = db.prepare('SELECT * FROM payment_actions WHERE restaurant_id = ? AND provider = ? AND kind = ? AND payment_id = ?');
    this.ofOrder = db.prepare('SELECT * FROM payment_actions WHERE order_id = ? ORDER BY id');
    this.quietSessionsStatement = db.prepare(
      `SELECT o.id AS order_id, o.restaurant_id FROM payment_sessions s JOIN orders o ON o.id = s.order_id
       WHERE s.provider = ? AND s.opening = 0 AND s.created_at <= ? AND s.created_at > ? AND o.test = 0
         AND NOT EXISTS (SELECT 1 FROM payment_actions a WHERE a.order_id = o.id AND a.kind IN ('check', 'search'))
       ORDER BY s.created_at LIMIT ?`,
    );
    this.dueStatement = db.prepare(
      'SELECT id FROM payment_actions WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, id LIMIT ?',
    );
  }

  /**
   * Live online orders paid with `provider` whose session was opened in (`openedAfter`, `openedBy`]
   * and of which no payment was ever read nor searched: their notification may have been missed
   * (whatever became of the order since: a payment found for an expired one is refunded).
   */
  quietSessions(provider: string, openedBy: number, openedAfter: number, limit: number): { order_id: string; restaurant_id: string }[] {
    return this.quietSessionsStatement.all(provider, openedBy, openedAfter, limit);
  }

  insert(action: NewPaymentAction): number {
    return Number(this.insertStatement.run(action).lastInsertRowid);
  }

  get(id: number): PaymentActionRow | undefined {
    return this.byId.get(id);
  }

  find(restaurantId: string, provider: string, kind: PaymentActionKind, paymentId: string): PaymentActionRow | undefined {
    return this.byKey.get(restaurantId, provider, kind, paymentId);
  }

  listOfOrder(orderId: string): PaymentActionRow[] {
    return this.ofOrder.all(orderId);
  }

  /** Actions due at `now`, oldest first. */
  due(now: number, limit: number): number[] {
    return this.dueStatement.all(now, limit).map((r) => r.id);
  }

  update(id: number, changes: PaymentActionChanges, updatedAt: number): void {
    this.updateWhere(id, null, changes, updatedAt);
  }

  /**
   * Updates an action only while it still holds the claim whose lease ends at `leaseUntil` (issue
   * 34: still `pending`, `next_at` that lease, the claim's fencing token). False when it does not:
   * the lease ended and another claim took the action (a node that stalled past its lease), or it
   * was recorded since. With no changes it only checks (and, on PostgreSQL, locks the row).
   */
  updateClaimed(id: number, leaseUntil: number, changes: PaymentActionChanges, updatedAt: number): boolean {
    return this.updateWhere(id, leaseUntil, changes, updatedAt) === 1;
  }

  private updateWhere(id: number, leaseUntil: number | null, changes: PaymentActionChanges, updatedAt: number): number {
    const columns = Object.keys(changes).sort();
    const held = leaseUntil === null ? '' : " AND status = 'pending' AND next_at = @lease_until";
    const sql = `UPDATE payment_actions SET ${[...columns.map((c) => `${c} = @${c}`), 'updated_at = @updated_at'].join(', ')} WHERE id = @id${held}`;
    let statement = this.updateStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.updateStatements.set(sql, statement);
    }
    return statement.run({ ...changes, updated_at: updatedAt, id, ...(leaseUntil === null ? {} : { lease_until: leaseUntil }) }).changes;
  }
}
