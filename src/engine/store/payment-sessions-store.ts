import type { Database, Statement } from 'better-sqlite3';

export type PaymentSessionStatus = 'open' | 'paid' | 'closed';
/** What the customer (or the provider) last reported for a session. */
export type PaymentResult = 'success' | 'failed' | 'cancelled';
export type PaymentClosedReason = 'expired' | 'cancelled';

export interface PaymentSessionRow {
  id: string;
  order_id: string;
  provider: string;
  status: PaymentSessionStatus;
  return_url: string;
  preselected_method: string | null;
  last_result: PaymentResult | null;
  paid_method: string | null;
  closed_reason: PaymentClosedReason | null;
  created_at: number;
  updated_at: number;
}

export interface NewPaymentSession {
  id: string;
  order_id: string;
  provider: string;
  return_url: string;
  preselected_method: string | null;
  created_at: number;
}

/** Online payment sessions: one per payment attempt window of an online order. */
export class PaymentSessionsStore {
  private readonly insertStatement: Statement<[string, string, string, string, string | null, number, number]>;
  private readonly byId: Statement<[string], PaymentSessionRow>;
  private readonly setResult: Statement<[PaymentResult, number, string]>;
  private readonly setPaid: Statement<[string, number, string]>;
  private readonly closeOpen: Statement<[PaymentClosedReason, number, string]>;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO payment_sessions (id, order_id, provider, status, return_url, preselected_method, created_at, updated_at)
       VALUES (?, ?, ?, 'open', ?, ?, ?, ?)`,
    );
    this.byId = db.prepare('SELECT * FROM payment_sessions WHERE id = ?');
    this.setResult = db.prepare(`UPDATE payment_sessions SET last_result = ?, updated_at = ? WHERE id = ? AND status = 'open'`);
    this.setPaid = db.prepare(
      `UPDATE payment_sessions SET status = 'paid', last_result = 'success', paid_method = ?, updated_at = ?
       WHERE id = ? AND status = 'open'`,
    );
    this.closeOpen = db.prepare(
      `UPDATE payment_sessions SET status = 'closed', closed_reason = ?, updated_at = ? WHERE order_id = ? AND status = 'open'`,
    );
  }

  insert(session: NewPaymentSession): void {
    this.insertStatement.run(
      session.id,
      session.order_id,
      session.provider,
      session.return_url,
      session.preselected_method,
      session.created_at,
      session.created_at,
    );
  }

  get(id: string): PaymentSessionRow | undefined {
    return this.byId.get(id);
  }

  /** Records an unsuccessful outcome on an open session; the session stays open. */
  recordResult(id: string, result: Exclude<PaymentResult, 'success'>, at: number): void {
    this.setResult.run(result, at, id);
  }

  /** Marks an open session paid; returns false when it was not open (already paid or closed). */
  markPaid(id: string, method: string, at: number): boolean {
    return this.setPaid.run(method, at, id).changes === 1;
  }

  /** Closes every open session of an order (it expired or was cancelled); returns how many. */
  closeOpenOfOrder(orderId: string, reason: PaymentClosedReason, at: number): number {
    return this.closeOpen.run(reason, at, orderId).changes;
  }
}
