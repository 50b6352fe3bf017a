// Issue 34: MailOutboxStore (store/mail-outbox-store.ts) on PostgreSQL. `due` and `claim` behave as
// on SQLite; with several nodes, a node claims its mails through the storage port instead
// (`claimDueMail`: FOR UPDATE SKIP LOCKED and a lease), so no two nodes send the same mail.
import type { AsyncStore } from '../../store/async-store.ts';
import type { MailOutboxStore, MailRow, NewMail } from '../../store/mail-outbox-store.ts';
import { changesOf, firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const SQL = {
  // $9 status, $10 created_at: a pending mail is due at once, a sandbox one never.
  insert: `INSERT INTO mail_outbox (restaurant_id, order_id, kind, test, to_address, from_name, subject, body_text, status,
      next_attempt_at, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $9 = 'pending' THEN $10::bigint END, $10, $10)
    ON CONFLICT (order_id, kind) DO NOTHING`,
  byId: 'SELECT * FROM mail_outbox WHERE id = $1',
  due: `SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $2`,
  claim: `UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = $1, updated_at = $2
    WHERE id = $3 AND status = 'pending' AND next_attempt_at <= $2`,
  sent: `UPDATE mail_outbox SET status = 'sent', sent_at = $1, next_attempt_at = NULL, last_error = NULL, updated_at = $1
    WHERE id = $2 AND status = 'pending'`,
  retry: `UPDATE mail_outbox SET next_attempt_at = $1, last_error = $2, updated_at = $3 WHERE id = $4 AND status = 'pending'`,
  failed: `UPDATE mail_outbox SET status = 'failed', next_attempt_at = NULL, last_error = $1, updated_at = $2
    WHERE id = $3 AND status = 'pending'`,
  byRestaurant: 'SELECT * FROM mail_outbox WHERE restaurant_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
  byOrder: 'SELECT * FROM mail_outbox WHERE order_id = $1 ORDER BY id',
  rewrite: `UPDATE mail_outbox SET subject = $1, body_text = $2, updated_at = $3
    WHERE order_id = $4 AND kind = $5 AND status IN ('pending', 'sandbox') AND attempts = 0`,
};

export class PostgresMailOutboxStore implements AsyncStore<MailOutboxStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async rewriteUnsent(orderId: string, kind: string, subject: string, bodyText: string, at: number): Promise<boolean> {
    return (await changesOf(this.db, SQL.rewrite, [subject, bodyText, at, orderId, kind])) === 1;
  }

  async enqueue(mail: NewMail): Promise<boolean> {
    const params = [
      mail.restaurant_id, mail.order_id, mail.kind, mail.test, mail.to_address, mail.from_name, mail.subject, mail.body_text,
      mail.status, mail.created_at,
    ];
    return (await changesOf(this.db, SQL.insert, params)) === 1;
  }

  get(id: number): Promise<MailRow | undefined> {
    return firstRow<MailRow>(this.db, SQL.byId, [id]);
  }

  async due(now: number, limit: number): Promise<number[]> {
    return (await rowsOf<{ id: number }>(this.db, SQL.due, [now, limit])).map((r) => r.id);
  }

  async claim(id: number, now: number, leaseUntil: number): Promise<boolean> {
    return (await changesOf(this.db, SQL.claim, [leaseUntil, now, id])) === 1;
  }

  async markSent(id: number, at: number): Promise<void> {
    await this.db.query(SQL.sent, [at, id]);
  }

  async scheduleRetry(id: number, nextAttemptAt: number, error: string, at: number): Promise<void> {
    await this.db.query(SQL.retry, [nextAttemptAt, error, at, id]);
  }

  async markFailed(id: number, error: string, at: number): Promise<void> {
    await this.db.query(SQL.failed, [error, at, id]);
  }

  listByRestaurant(restaurantId: string, limit: number): Promise<MailRow[]> {
    return rowsOf<MailRow>(this.db, SQL.byRestaurant, [restaurantId, limit]);
  }

  listByOrder(orderId: string): Promise<MailRow[]> {
    return rowsOf<MailRow>(this.db, SQL.byOrder, [orderId]);
  }
}
