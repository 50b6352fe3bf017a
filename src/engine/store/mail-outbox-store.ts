import type { Database, Statement } from 'better-sqlite3';

export type MailStatus = 'pending' | 'sent' | 'failed' | 'sandbox';
export type MailKind = 'order_ready';

export interface MailRow {
  id: number;
  restaurant_id: string;
  order_id: string;
  kind: MailKind;
  test: number;
  to_address: string;
  from_name: string;
  subject: string;
  body_text: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

export type NewMail = Pick<
  MailRow,
  'restaurant_id' | 'order_id' | 'kind' | 'test' | 'to_address' | 'from_name' | 'subject' | 'body_text' | 'created_at'
> & {
  /** `pending` to send, `sandbox` to record only. */
  status: 'pending' | 'sandbox';
};

/** The customer mail outbox: rows are written with the change that causes them and sent later. */
export class MailOutboxStore {
  private readonly insertStatement: Statement;
  private readonly byId: Statement<[number], MailRow>;
  private readonly dueStatement: Statement<[number, number], { id: number }>;
  private readonly claimStatement: Statement<[number, number, number, number]>;
  private readonly sentStatement: Statement<[number, number, number]>;
  private readonly retryStatement: Statement<[number, string, number, number]>;
  private readonly failedStatement: Statement<[string, number, number]>;
  private readonly byRestaurant: Statement<[string, number], MailRow>;
  private readonly byOrder: Statement<[string], MailRow>;
  private readonly rewriteStatement: Statement<[string, string, number, string, string]>;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO mail_outbox (restaurant_id, order_id, kind, test, to_address, from_name, subject, body_text, status,
                                next_attempt_at, created_at, updated_at)
       VALUES (@restaurant_id, @order_id, @kind, @test, @to_address, @from_name, @subject, @body_text, @status,
               CASE WHEN @status = 'pending' THEN @created_at END, @created_at, @created_at)
       ON CONFLICT (order_id, kind) DO NOTHING`,
    );
    this.byId = db.prepare('SELECT * FROM mail_outbox WHERE id = ?');
    this.dueStatement = db.prepare(
      `SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
    );
    this.claimStatement = db.prepare(
      `UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?, updated_at = ?
       WHERE id = ? AND status = 'pending' AND next_attempt_at <= ?`,
    );
    this.sentStatement = db.prepare(
      `UPDATE mail_outbox SET status = 'sent', sent_at = ?, next_attempt_at = NULL, last_error = NULL, updated_at = ?
       WHERE id = ? AND status = 'pending'`,
    );
    this.retryStatement = db.prepare(
      `UPDATE mail_outbox SET next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ? AND status = 'pending'`,
    );
    this.failedStatement = db.prepare(
      `UPDATE mail_outbox SET status = 'failed', next_attempt_at = NULL, last_error = ?, updated_at = ?
       WHERE id = ? AND status = 'pending'`,
    );
    this.byRestaurant = db.prepare('SELECT * FROM mail_outbox WHERE restaurant_id = ? ORDER BY created_at DESC, id DESC LIMIT ?');
    this.byOrder = db.prepare('SELECT * FROM mail_outbox WHERE order_id = ? ORDER BY id');
    this.rewriteStatement = db.prepare(
      `UPDATE mail_outbox SET subject = ?, body_text = ?, updated_at = ?
       WHERE order_id = ? AND kind = ? AND status IN ('pending', 'sandbox') AND attempts = 0`,
    );
  }

  /** Rewrites a mail no attempt has taken yet (an attempt reads it when it claims it); returns whether one was. */
  rewriteUnsent(orderId: string, kind: string, subject: string, bodyText: string, at: number): boolean {
    return this.rewriteStatement.run(subject, bodyText, at, orderId, kind).changes === 1;
  }

  /** Queues a mail; a second mail of the same kind for the same order is ignored (returns false). */
  enqueue(mail: NewMail): boolean {
    return this.insertStatement.run(mail).changes === 1;
  }

  get(id: number): MailRow | undefined {
    return this.byId.get(id);
  }

  /** Pending mails whose next attempt is due at `now`, oldest first. */
  due(now: number, limit: number): number[] {
    return this.dueStatement.all(now, limit).map((r) => r.id);
  }

  /**
   * Takes a due mail for one attempt: counts it and holds it until `leaseUntil`, so a sender that
   * dies mid-attempt leaves it to be retried then. False when it is no longer due.
   */
  claim(id: number, now: number, leaseUntil: number): boolean {
    return this.claimStatement.run(leaseUntil, now, id, now).changes === 1;
  }

  markSent(id: number, at: number): void {
    this.sentStatement.run(at, at, id);
  }

  scheduleRetry(id: number, nextAttemptAt: number, error: string, at: number): void {
    this.retryStatement.run(nextAttemptAt, error, at, id);
  }

  markFailed(id: number, error: string, at: number): void {
    this.failedStatement.run(error, at, id);
  }

  listByRestaurant(restaurantId: string, limit: number): MailRow[] {
    return this.byRestaurant.all(restaurantId, limit);
  }

  listByOrder(orderId: string): MailRow[] {
    return this.byOrder.all(orderId);
  }
}
