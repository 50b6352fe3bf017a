import type { Database, Statement } from 'better-sqlite3';
import { PENDING_STATUS } from '../domain/idempotency-record.ts';

export interface StoredResponse {
  request_hash: string;
  status: number;
  body: string;
}

export class IdempotencyStore {
  private readonly find: Statement<[string, string, number], StoredResponse>;
  private readonly insertStatement: Statement<[string, string, string, number, string, number]>;
  private readonly purge: Statement<[number]>;
  private readonly removeStatement: Statement<[string, string]>;
  private readonly removePendingStatement: Statement<[string]>;

  constructor(db: Database) {
    this.find = db.prepare(
      'SELECT request_hash, status, body FROM idempotency_keys WHERE api_key_id = ? AND key = ? AND created_at > ?',
    );
    this.insertStatement = db.prepare(
      `INSERT INTO idempotency_keys (api_key_id, key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (api_key_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
         body = excluded.body, created_at = excluded.created_at`,
    );
    this.purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?');
    this.removeStatement = db.prepare('DELETE FROM idempotency_keys WHERE api_key_id = ? AND key = ?');
    this.removePendingStatement = db.prepare(`DELETE FROM idempotency_keys WHERE status = ${PENDING_STATUS} AND body = ?`);
  }

  /** Forgets a key's record (a write that ended in a 5xx: the key may be used again). */
  remove(apiKeyId: string, key: string): void {
    this.removeStatement.run(apiKeyId, key);
  }

  /** Forgets the in-flight marker of a write whose answer will never come (its order withdrawn). */
  removePending(marker: string): void {
    this.removePendingStatement.run(marker);
  }

  get(apiKeyId: string, key: string, notOlderThan: number): StoredResponse | undefined {
    return this.find.get(apiKeyId, key, notOlderThan);
  }

  save(apiKeyId: string, key: string, requestHash: string, status: number, body: string, at: number): void {
    this.insertStatement.run(apiKeyId, key, requestHash, status, body, at);
  }

  deleteOlderThan(at: number): number {
    return this.purge.run(at).changes;
  }
}
