import type { Database, Statement } from 'better-sqlite3';
import type { World } from '../../shared/world.ts';

/**
 * Issue 35: which rate budget a key spends. `client`: a store front, a POS, an integration (the
 * per-key budget); `hub`: a restaurant's replica pushing its outbox upstream (a budget of its own,
 * sized for a backlog: http/build-http-api.ts).
 */
export type ApiKeyKind = 'client' | 'hub';

export interface ApiKeyRow {
  id: string;
  restaurant_id: string;
  lookup: string;
  salt: Buffer;
  hash: Buffer;
  world: World;
  can_write: number;
  kind: ApiKeyKind;
  label: string | null;
  last4: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export class ApiKeysStore {
  private readonly insertStatement: Statement;
  private readonly byLookup: Statement<[string], Omit<ApiKeyRow, 'salt' | 'hash'>>;
  private readonly secretsById: Statement<[string], Pick<ApiKeyRow, 'salt' | 'hash'>>;
  /**
   * Salt and hash by key id. They never change once a key is written, and reading them costs more
   * than the rest of the row (better-sqlite3 makes a Buffer of each): every request reads them.
   */
  private readonly secrets = new Map<string, Pick<ApiKeyRow, 'salt' | 'hash'>>();
  private readonly byId: Statement<[string, string], ApiKeyRow>;
  private readonly byRestaurant: Statement<[string], ApiKeyRow>;
  private readonly revokeStatement: Statement<[number, string, string]>;
  private readonly touchStatement: Statement<[{ at: number; id: string }]>;
  private readonly setWriteStatement: Statement<[number, string]>;
  private writes = 0;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, world, can_write, kind, label, last4, created_at)
       VALUES (@id, @restaurant_id, @lookup, @salt, @hash, @world, @can_write, @kind, @label, @last4, @created_at)`,
    );
    this.byLookup = db.prepare(
      `SELECT id, restaurant_id, lookup, world, can_write, kind, label, last4, created_at, last_used_at, revoked_at
       FROM api_keys WHERE lookup = ?`,
    );
    this.secretsById = db.prepare('SELECT salt, hash FROM api_keys WHERE id = ?');
    this.byId = db.prepare('SELECT * FROM api_keys WHERE id = ? AND restaurant_id = ?');
    this.byRestaurant = db.prepare('SELECT * FROM api_keys WHERE restaurant_id = ? ORDER BY created_at, id');
    this.revokeStatement = db.prepare(
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND restaurant_id = ? AND revoked_at IS NULL',
    );
    this.touchStatement = db.prepare(
      'UPDATE api_keys SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @at)',
    );
    this.setWriteStatement = db.prepare('UPDATE api_keys SET can_write = ? WHERE id = ?');
  }

  /**
   * How many times this connection changed a key's identity, permission or revocation: what is
   * kept in memory of verified keys is dropped when it moves (other processes' writes show in
   * `PRAGMA data_version`). A last-use time is not counted: it changes no key.
   */
  get writeCount(): number {
    return this.writes;
  }

  insert(row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): void {
    this.writes++;
    this.insertStatement.run(row);
  }

  findByLookup(lookup: string): ApiKeyRow | undefined {
    const row = this.byLookup.get(lookup);
    if (!row) return undefined;
    let secrets = this.secrets.get(row.id);
    if (!secrets) {
      secrets = this.secretsById.get(row.id);
      if (!secrets) return undefined;
      this.secrets.set(row.id, secrets);
    }
    return { ...row, salt: secrets.salt, hash: secrets.hash };
  }

  find(restaurantId: string, id: string): ApiKeyRow | undefined {
    return this.byId.get(id, restaurantId);
  }

  listForRestaurant(restaurantId: string): ApiKeyRow[] {
    return this.byRestaurant.all(restaurantId);
  }

  revoke(restaurantId: string, id: string, at: number): boolean {
    this.writes++;
    return this.revokeStatement.run(at, id, restaurantId).changes > 0;
  }

  setWrite(id: string, write: boolean): void {
    this.writes++;
    this.setWriteStatement.run(write ? 1 : 0, id);
  }

  /** Records a use; an earlier time than the stored one is ignored. */
  touch(id: string, at: number): void {
    this.touchStatement.run({ at, id });
  }
}
