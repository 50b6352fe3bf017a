// Issue 34: ApiKeysStore (store/api-keys-store.ts) on PostgreSQL. `writeCount` counts this store's
// own writes, as on SQLite (where one store serves the process); on the platform a key written on
// another node reaches a node's caches through the storage port's change signal
// (storage/change-count.ts), not through this count.
import type { AsyncStore } from '../../store/async-store.ts';
import type { ApiKeyRow, ApiKeysStore } from '../../store/api-keys-store.ts';
import { changesOf, firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const SQL = {
  insert: `INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, world, can_write, kind, label, last4, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
  byLookup: 'SELECT * FROM api_keys WHERE lookup = $1',
  byId: 'SELECT * FROM api_keys WHERE id = $1 AND restaurant_id = $2',
  byRestaurant: 'SELECT * FROM api_keys WHERE restaurant_id = $1 ORDER BY created_at, id COLLATE "C"',
  revoke: 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND restaurant_id = $3 AND revoked_at IS NULL',
  touch: 'UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)',
  setWrite: 'UPDATE api_keys SET can_write = $1 WHERE id = $2',
};

export class PostgresApiKeysStore implements AsyncStore<ApiKeysStore> {
  private writes = 0;

  constructor(private readonly db: PostgresQueryable) {}

  get writeCount(): number {
    return this.writes;
  }

  async insert(row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
    this.writes++;
    await this.db.query(SQL.insert, [
      row.id, row.restaurant_id, row.lookup, row.salt, row.hash, row.world, row.can_write, row.kind, row.label, row.last4, row.created_at,
    ]);
  }

  /** One statement, salt and hash included: no cache of secrets, which a round trip would not save. */
  findByLookup(lookup: string): Promise<ApiKeyRow | undefined> {
    return firstRow<ApiKeyRow>(this.db, SQL.byLookup, [lookup]);
  }

  find(restaurantId: string, id: string): Promise<ApiKeyRow | undefined> {
    return firstRow<ApiKeyRow>(this.db, SQL.byId, [id, restaurantId]);
  }

  listForRestaurant(restaurantId: string): Promise<ApiKeyRow[]> {
    return rowsOf<ApiKeyRow>(this.db, SQL.byRestaurant, [restaurantId]);
  }

  async revoke(restaurantId: string, id: string, at: number): Promise<boolean> {
    this.writes++;
    return (await changesOf(this.db, SQL.revoke, [at, id, restaurantId])) > 0;
  }

  async setWrite(id: string, write: boolean): Promise<void> {
    this.writes++;
    await this.db.query(SQL.setWrite, [write ? 1 : 0, id]);
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.query(SQL.touch, [at, id]);
  }
}
