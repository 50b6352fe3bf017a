// Issue 34: PaymentSessionsStore (store/payment-sessions-store.ts) on PostgreSQL. Ties of the latest
// session are broken by id byte by byte (COLLATE "C"), as SQLite's BINARY; `staleOpenings` orders by
// creation only, as on SQLite, so sessions created at the same millisecond come in no promised order
// on either database.
import type { AsyncStore } from '../../store/async-store.ts';
import type {
  NewPaymentSession, PaymentClosedReason, PaymentResult, PaymentSessionRow, PaymentSessionsStore,
} from '../../store/payment-sessions-store.ts';
import { changesOf, firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const SQL = {
  insert: `INSERT INTO payment_sessions (id, order_id, provider, status, return_url, preselected_method, opening, created_at, updated_at)
    VALUES ($1, $2, $3, 'open', $4, $5, 1, $6, $6)`,
  opened: 'UPDATE payment_sessions SET opening = 0, updated_at = $1 WHERE id = $2 AND opening = 1',
  openingOfOrder: 'SELECT * FROM payment_sessions WHERE order_id = $1 AND opening = 1',
  deleteOfOrder: 'DELETE FROM payment_sessions WHERE order_id = $1',
  staleOpenings: 'SELECT order_id FROM payment_sessions WHERE opening = 1 AND created_at <= $1 ORDER BY created_at LIMIT $2',
  byId: 'SELECT * FROM payment_sessions WHERE id = $1',
  latestOfOrder: 'SELECT * FROM payment_sessions WHERE order_id = $1 ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT 1',
  setProviderPayment: 'UPDATE payment_sessions SET provider_payment_id = $1, updated_at = $2 WHERE id = $3',
  setResult: `UPDATE payment_sessions SET last_result = $1, updated_at = $2 WHERE id = $3 AND status = 'open'`,
  setPaid: `UPDATE payment_sessions SET status = 'paid', last_result = 'success', paid_method = $1, updated_at = $2
    WHERE id = $3 AND status = 'open'`,
  closeOpen: `UPDATE payment_sessions SET status = 'closed', closed_reason = $1, updated_at = $2 WHERE order_id = $3 AND status = 'open'`,
};

export class PostgresPaymentSessionsStore implements AsyncStore<PaymentSessionsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async insert(session: NewPaymentSession): Promise<void> {
    await this.db.query(SQL.insert, [
      session.id, session.order_id, session.provider, session.return_url, session.preselected_method, session.created_at,
    ]);
  }

  async markOpened(id: string, at: number): Promise<boolean> {
    return (await changesOf(this.db, SQL.opened, [at, id])) === 1;
  }

  openingOfOrder(orderId: string): Promise<PaymentSessionRow | undefined> {
    return firstRow<PaymentSessionRow>(this.db, SQL.openingOfOrder, [orderId]);
  }

  async deleteOfOrder(orderId: string): Promise<void> {
    await this.db.query(SQL.deleteOfOrder, [orderId]);
  }

  async staleOpenings(createdBy: number, limit: number): Promise<string[]> {
    return (await rowsOf<{ order_id: string }>(this.db, SQL.staleOpenings, [createdBy, limit])).map((r) => r.order_id);
  }

  get(id: string): Promise<PaymentSessionRow | undefined> {
    return firstRow<PaymentSessionRow>(this.db, SQL.byId, [id]);
  }

  latestOfOrder(orderId: string): Promise<PaymentSessionRow | undefined> {
    return firstRow<PaymentSessionRow>(this.db, SQL.latestOfOrder, [orderId]);
  }

  async setProviderPayment(id: string, paymentId: string, at: number): Promise<void> {
    await this.db.query(SQL.setProviderPayment, [paymentId, at, id]);
  }

  async recordResult(id: string, result: Exclude<PaymentResult, 'success'>, at: number): Promise<void> {
    await this.db.query(SQL.setResult, [result, at, id]);
  }

  async markPaid(id: string, method: string, at: number): Promise<boolean> {
    return (await changesOf(this.db, SQL.setPaid, [method, at, id])) === 1;
  }

  closeOpenOfOrder(orderId: string, reason: PaymentClosedReason, at: number): Promise<number> {
    return changesOf(this.db, SQL.closeOpen, [reason, at, orderId]);
  }
}
