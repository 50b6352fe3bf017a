import type { Database, Statement } from 'better-sqlite3';

/** The kitchen screens' change keys already applied, per restaurant (services/kitchen/kitchen-changes.ts). */
export class KitchenChangesStore {
  private readonly find: Statement<[string, string], { request_hash: string }>;
  private readonly insert: Statement<[string, string, string, number]>;
  private readonly purge: Statement<[number]>;

  constructor(db: Database) {
    this.find = db.prepare('SELECT request_hash FROM kitchen_changes WHERE restaurant_id = ? AND change_id = ?');
    this.insert = db.prepare('INSERT INTO kitchen_changes (restaurant_id, change_id, request_hash, created_at) VALUES (?, ?, ?, ?)');
    this.purge = db.prepare('DELETE FROM kitchen_changes WHERE created_at <= ?');
  }

  get(restaurantId: string, changeId: string): { request_hash: string } | undefined {
    return this.find.get(restaurantId, changeId);
  }

  save(restaurantId: string, changeId: string, requestHash: string, at: number): void {
    this.insert.run(restaurantId, changeId, requestHash, at);
  }

  deleteOlderThan(at: number): number {
    return this.purge.run(at).changes;
  }
}
