import type { Database, Statement } from 'better-sqlite3';
import type { PaymentResult } from '../domain/payments.ts';

export type { PaymentResult };
export type PaymentSessionStatus = 'open' | 'paid' | 'closed';
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
  /** 1 while the provider has not yet answered with the payment page (it is asked after the order's commit). */
  opening: number;
  /** The provider's payment that paid this session (providers that confirm by webhook). */
  provider_payment_id: string | null;
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

/**
 * Online payment sessions: one per payment attempt window of an online order. A session is
 * written `opening` with its order; the provider is asked after that commit (services/payments/open-online-payment.ts).
 */
export class PaymentSessionsStore {
  private readonly insertStatement: Statement<[string, string, string, string, string | null, number, number]>;
  private readonly byId: Statement<[string], PaymentSessionRow>;
  private readonly setResult: Statement<[PaymentResult, number, string]>;
  private readonly setPaid: Statement<[string, number, string]>;
  private readonly closeOpen: Statement<[PaymentClosedReason, number, string]>;
  private readonly openedStatement: Statement<[number, string]>;
  private readonly openingOfOrderStatement: Statement<[string], PaymentSessionRow>;
  private readonly deleteOfOrderStatement: Statement<[string]>;
  private readonly staleOpeningsStatement: Statement<[number, number], { order_id: string }>;
  private readonly latestOfOrderStatement: Statement<[string], PaymentSessionRow>;
  private readonly setProviderPaymentStatement: Statement<[string, number, string]>;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO payment_sessions (id, order_id, provider, status, return_url, preselected_method, opening, created_at, updated_at)
       VALUES (?, ?, ?, 'open', ?, ?, 1, ?, ?)`,
    );
    this.openedStatement = db.prepare('UPDATE payment_sessions SET opening = 0, updated_at = ? WHERE id = ? AND opening = 1');
    this.openingOfOrderStatement = db.prepare('SELECT * FROM payment_sessions WHERE order_id = ? AND opening = 1');
    this.deleteOfOrderStatement = db.prepare('DELETE FROM payment_sessions WHERE order_id = ?');
    this.staleOpeningsStatement = db.prepare(
      'SELECT order_id FROM payment_sessions WHERE opening = 1 AND created_at <= ? ORDER BY created_at LIMIT ?',
    );
    this.byId = db.prepare('SELECT * FROM payment_sessions WHERE id = ?');
    this.latestOfOrderStatement = db.prepare('SELECT * FROM payment_sessions WHERE order_id = ? ORDER BY created_at DESC, id DESC LIMIT 1');
    this.setProviderPaymentStatement = db.prepare('UPDATE payment_sessions SET provider_payment_id = ?, updated_at = ? WHERE id = ?');
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

  /** The provider answered: the session's page exists. Returns false when it was not opening (withdrawn meanwhile). */
  markOpened(id: string, at: number): boolean {
    return this.openedStatement.run(at, id).changes === 1;
  }

  /** The session of an order whose provider has not answered yet. */
  openingOfOrder(orderId: string): PaymentSessionRow | undefined {
    return this.openingOfOrderStatement.get(orderId);
  }

  /** Removes an order's sessions (an order withdrawn because its provider never opened one). */
  deleteOfOrder(orderId: string): void {
    this.deleteOfOrderStatement.run(orderId);
  }

  /** Orders whose provider was asked at or before `createdBy` and never answered (the engine stopped meanwhile). */
  staleOpenings(createdBy: number, limit: number): string[] {
    return this.staleOpeningsStatement.all(createdBy, limit).map((r) => r.order_id);
  }

  get(id: string): PaymentSessionRow | undefined {
    return this.byId.get(id);
  }

  /** The order's latest session (an online order has one). */
  latestOfOrder(orderId: string): PaymentSessionRow | undefined {
    return this.latestOfOrderStatement.get(orderId);
  }

  /** Notes which of the provider's payments paid the session. */
  setProviderPayment(id: string, paymentId: string, at: number): void {
    this.setProviderPaymentStatement.run(paymentId, at, id);
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
