// Issue 34: KitchenChangesStore (store/kitchen-changes-store.ts) on PostgreSQL.
import type { AsyncStore } from '../../store/async-store.ts';
import type { KitchenChangesStore } from '../../store/kitchen-changes-store.ts';
import { changesOf, firstRow, type PostgresQueryable } from './queryable.ts';

const SQL = {
  find: 'SELECT request_hash FROM kitchen_changes WHERE restaurant_id = $1 AND change_id = $2',
  insert: 'INSERT INTO kitchen_changes (restaurant_id, change_id, request_hash, created_at) VALUES ($1, $2, $3, $4)',
  purge: 'DELETE FROM kitchen_changes WHERE created_at <= $1',
};

export class PostgresKitchenChangesStore implements AsyncStore<KitchenChangesStore> {
  constructor(private readonly db: PostgresQueryable) {}

  get(restaurantId: string, changeId: string): Promise<{ request_hash: string } | undefined> {
    return firstRow<{ request_hash: string }>(this.db, SQL.find, [restaurantId, changeId]);
  }

  async save(restaurantId: string, changeId: string, requestHash: string, at: number): Promise<void> {
    await this.db.query(SQL.insert, [restaurantId, changeId, requestHash, at]);
  }

  deleteOlderThan(at: number): Promise<number> {
    return changesOf(this.db, SQL.purge, [at]);
  }
}
