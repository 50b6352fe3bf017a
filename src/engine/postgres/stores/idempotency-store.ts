// Issue 34: IdempotencyStore (store/idempotency-store.ts) on PostgreSQL. The platform's writes claim
// a key first through the storage port (RestaurantWrite.claimIdempotencyKey); this store is the
// rest: reading an answer, saving one, forgetting and purging.
import { PENDING_STATUS } from '../../domain/idempotency-record.ts';
import type { AsyncStore } from '../../store/async-store.ts';
import type { IdempotencyStore, StoredResponse } from '../../store/idempotency-store.ts';
import { changesOf, firstRow, sendWrite, type PostgresQueryable } from './queryable.ts';

const SQL = {
  find: 'SELECT request_hash, status, body FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND created_at > $3',
  save: `INSERT INTO idempotency_keys (api_key_id, key, request_hash, status, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (api_key_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
      body = excluded.body, created_at = excluded.created_at`,
  purge: 'DELETE FROM idempotency_keys WHERE created_at <= $1',
  remove: 'DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2',
  removePending: 'DELETE FROM idempotency_keys WHERE status = $1 AND body = $2',
};

export class PostgresIdempotencyStore implements AsyncStore<IdempotencyStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async remove(apiKeyId: string, key: string): Promise<void> {
    await this.db.query(SQL.remove, [apiKeyId, key]);
  }

  async removePending(marker: string): Promise<void> {
    await this.db.query(SQL.removePending, [PENDING_STATUS, marker]);
  }

  get(apiKeyId: string, key: string, notOlderThan: number): Promise<StoredResponse | undefined> {
    return firstRow<StoredResponse>(this.db, SQL.find, [apiKeyId, key, notOlderThan]);
  }

  async save(apiKeyId: string, key: string, requestHash: string, status: number, body: string, at: number): Promise<void> {
    await sendWrite(this.db, SQL.save, [apiKeyId, key, requestHash, status, body, at]);
  }

  deleteOlderThan(at: number): Promise<number> {
    return changesOf(this.db, SQL.purge, [at]);
  }
}
