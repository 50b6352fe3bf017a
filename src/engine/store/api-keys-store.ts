import type { Database, Statement } from 'better-sqlite3';
import type { KeyMode } from '../domain/api-key-format.ts';

export interface ApiKeyRow {
  id: string;
  restaurant_id: string;
  lookup: string;
  salt: Buffer;
  hash: Buffer;
  mode: KeyMode;
  can_write: number;
  label: string | null;
  last4: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export class ApiKeysStore {
  private readonly insertStatement: Statement;
  private readonly byLookup: Statement<[string], ApiKeyRow>;
  private readonly byId: Statement<[string, string], ApiKeyRow>;
  private readonly byRestaurant: Statement<[string], ApiKeyRow>;
  private readonly revokeStatement: Statement<[number, string, string]>;
  private readonly touchStatement: Statement<[number, string]>;
  private readonly setWriteStatement: Statement<[number, string]>;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, mode, can_write, label, last4, created_at)
       VALUES (@id, @restaurant_id, @lookup, @salt, @hash, @mode, @can_write, @label, @last4, @created_at)`,
    );
    this.byLookup = db.prepare('SELECT * FROM api_keys WHERE lookup = ?');
    this.byId = db.prepare('SELECT * FROM api_keys WHERE id = ? AND restaurant_id = ?');
    this.byRestaurant = db.prepare('SELECT * FROM api_keys WHERE restaurant_id = ? ORDER BY created_at, id');
    this.revokeStatement = db.prepare(
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND restaurant_id = ? AND revoked_at IS NULL',
    );
    this.touchStatement = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    this.setWriteStatement = db.prepare('UPDATE api_keys SET can_write = ? WHERE id = ?');
  }

  insert(row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): void {
    this.insertStatement.run(row);
  }

  findByLookup(lookup: string): ApiKeyRow | undefined {
    return this.byLookup.get(lookup);
  }

  find(restaurantId: string, id: string): ApiKeyRow | undefined {
    return this.byId.get(id, restaurantId);
  }

  listForRestaurant(restaurantId: string): ApiKeyRow[] {
    return this.byRestaurant.all(restaurantId);
  }

  revoke(restaurantId: string, id: string, at: number): boolean {
    return this.revokeStatement.run(at, id, restaurantId).changes > 0;
  }

  setWrite(id: string, write: boolean): void {
    this.setWriteStatement.run(write ? 1 : 0, id);
  }

  touch(id: string, at: number): void {
    this.touchStatement.run(at, id);
  }
}
