// Issue 34: KitchenDevicesStore (store/kitchen-devices-store.ts) on PostgreSQL. Salts, hashes and
// secret digests are `bytea`, read back as Buffers. What differs, on purpose, since several nodes
// write at once under READ COMMITTED:
// - the pairing guard stays exact across nodes: `pairingBucket` takes a transaction lock on the
//   address before reading its bucket, and `countFailure` one on the restaurant before counting
//   its wrong codes, so two nodes never both read the same tokens or both count four of five tries
//   (a lock of a row would not do: the first try of an address has no row yet). Held to the commit;
//   outside a transaction (a lone read) it is released at once and guards nothing;
// - `pairingBucketCount` reads the tally triggers keep (migration 0009: rows inserted less rows
//   deleted), in O(1) whatever the number of buckets; a process's counter, as SQLite's store keeps,
//   would not see another node's buckets. It locks the 'inserted' row to the commit, so the attempts
//   that would add a bucket count one after another, across nodes: the service's cap on buckets
//   (MAX_PAIRING_BUCKETS) holds exactly, where two nodes counting at once would both add one past it.
import type { AsyncStore } from '../../store/async-store.ts';
import type {
  KitchenDeviceRow, KitchenDevicesStore, PairingBucketRow, PairingCodeRow, PairingLockoutRow,
} from '../../store/kitchen-devices-store.ts';
import { changesOf, firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

/** A transaction lock on one key of a namespace, held to the commit ($1: the key). */
const lockSql = (namespace: string) => `SELECT pg_advisory_xact_lock(hashtextextended('${namespace}:' || $1, 0))`;

const SQL = {
  insertDevice: `INSERT INTO kitchen_devices (id, restaurant_id, name, lookup, salt, hash, paired_at, role)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  byLookup: 'SELECT * FROM kitchen_devices WHERE lookup = $1',
  byId: 'SELECT * FROM kitchen_devices WHERE id = $1 AND restaurant_id = $2',
  sightings: 'SELECT revoked_at, last_seen_at FROM kitchen_devices WHERE id = $1',
  byRestaurant: 'SELECT * FROM kitchen_devices WHERE restaurant_id = $1 ORDER BY paired_at, id COLLATE "C"',
  count: 'SELECT count(*) AS n FROM kitchen_devices WHERE restaurant_id = $1',
  revoke: 'UPDATE kitchen_devices SET revoked_at = $1 WHERE id = $2 AND restaurant_id = $3 AND revoked_at IS NULL',
  touch: 'UPDATE kitchen_devices SET last_seen_at = $1 WHERE id = $2',
  insertCode: `INSERT INTO kitchen_pairing_codes (id, restaurant_id, code, device_name, device_role, created_at, expires_at, secret_hash)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  liveCode: 'SELECT * FROM kitchen_pairing_codes WHERE code = $1 AND expires_at > $2 AND used_at IS NULL AND code_voided_at IS NULL',
  // Conditional: of two nodes spending one code, the second matches no row.
  useCode: 'UPDATE kitchen_pairing_codes SET used_at = $1, device_id = $2 WHERE id = $3 AND used_at IS NULL',
  liveSecret: 'SELECT * FROM kitchen_pairing_codes WHERE secret_hash = $1 AND expires_at > $2 AND used_at IS NULL',
  liveRestaurants: 'SELECT DISTINCT restaurant_id FROM kitchen_pairing_codes WHERE expires_at > $1 AND used_at IS NULL AND code_voided_at IS NULL',
  voidCodes: 'UPDATE kitchen_pairing_codes SET code_voided_at = $1 WHERE restaurant_id = $2 AND expires_at > $1 AND used_at IS NULL AND code_voided_at IS NULL',
  lockFailures: lockSql('kitchen_pairing_failures'),
  insertFailure: 'INSERT INTO kitchen_pairing_failures (restaurant_id, at) VALUES ($1, $2)',
  pruneFailures: 'DELETE FROM kitchen_pairing_failures WHERE restaurant_id = $1 AND at <= $2',
  countFailures: 'SELECT count(*) AS n FROM kitchen_pairing_failures WHERE restaurant_id = $1',
  clearFailures: 'DELETE FROM kitchen_pairing_failures WHERE restaurant_id = $1',
  upsertLockout: `INSERT INTO kitchen_pairing_lockouts (restaurant_id, voided_at, failures) VALUES ($1, $2, $3)
    ON CONFLICT (restaurant_id) DO UPDATE SET voided_at = excluded.voided_at, failures = excluded.failures`,
  lockout: 'SELECT voided_at, failures FROM kitchen_pairing_lockouts WHERE restaurant_id = $1',
  lockBucket: lockSql('kitchen_pairing_buckets'),
  bucket: 'SELECT tokens, updated_at FROM kitchen_pairing_buckets WHERE address = $1',
  putBucket: `INSERT INTO kitchen_pairing_buckets (address, tokens, updated_at, full_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (address) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at, full_at = excluded.full_at`,
  bucketCount: `WITH inserted AS (SELECT n FROM kitchen_pairing_bucket_tally WHERE kind = 'inserted' FOR UPDATE)
    SELECT inserted.n - deleted.n AS n FROM inserted, kitchen_pairing_bucket_tally deleted WHERE deleted.kind = 'deleted'`,
  // SKIP LOCKED: a bucket another node is spending is not pruned under it.
  pruneBuckets: `DELETE FROM kitchen_pairing_buckets WHERE address IN (
    SELECT address FROM kitchen_pairing_buckets WHERE full_at <= $1 ORDER BY full_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
};

export class PostgresKitchenDevicesStore implements AsyncStore<KitchenDevicesStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async insert(row: Omit<KitchenDeviceRow, 'last_seen_at' | 'revoked_at'>): Promise<void> {
    await this.db.query(SQL.insertDevice, [row.id, row.restaurant_id, row.name, row.lookup, row.salt, row.hash, row.paired_at, row.role]);
  }

  findByLookup(lookup: string): Promise<KitchenDeviceRow | undefined> {
    return firstRow<KitchenDeviceRow>(this.db, SQL.byLookup, [lookup]);
  }

  find(restaurantId: string, id: string): Promise<KitchenDeviceRow | undefined> {
    return firstRow<KitchenDeviceRow>(this.db, SQL.byId, [id, restaurantId]);
  }

  sighting(id: string): Promise<Pick<KitchenDeviceRow, 'revoked_at' | 'last_seen_at'> | undefined> {
    return firstRow<Pick<KitchenDeviceRow, 'revoked_at' | 'last_seen_at'>>(this.db, SQL.sightings, [id]);
  }

  listForRestaurant(restaurantId: string): Promise<KitchenDeviceRow[]> {
    return rowsOf<KitchenDeviceRow>(this.db, SQL.byRestaurant, [restaurantId]);
  }

  async count(restaurantId: string): Promise<number> {
    return (await firstRow<{ n: number }>(this.db, SQL.count, [restaurantId]))?.n ?? 0;
  }

  async revoke(restaurantId: string, id: string, at: number): Promise<boolean> {
    return (await changesOf(this.db, SQL.revoke, [at, id, restaurantId])) > 0;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.query(SQL.touch, [at, id]);
  }

  async insertPairingCode(row: Omit<PairingCodeRow, 'used_at' | 'device_id' | 'code_voided_at'>): Promise<void> {
    await this.db.query(SQL.insertCode, [
      row.id, row.restaurant_id, row.code, row.device_name, row.device_role, row.created_at, row.expires_at, row.secret_hash,
    ]);
  }

  findLiveCode(code: string, now: number): Promise<PairingCodeRow | undefined> {
    return firstRow<PairingCodeRow>(this.db, SQL.liveCode, [code, now]);
  }

  async markCodeUsed(id: string, at: number, deviceId: string): Promise<boolean> {
    return (await changesOf(this.db, SQL.useCode, [at, deviceId, id])) > 0;
  }

  findLiveSecret(secretHash: Buffer, now: number): Promise<PairingCodeRow | undefined> {
    return firstRow<PairingCodeRow>(this.db, SQL.liveSecret, [secretHash, now]);
  }

  async restaurantsWithLiveCodes(now: number): Promise<string[]> {
    return (await rowsOf<{ restaurant_id: string }>(this.db, SQL.liveRestaurants, [now])).map((r) => r.restaurant_id);
  }

  async countFailure(restaurantId: string, at: number, windowStart: number): Promise<number> {
    await this.db.query(SQL.lockFailures, [restaurantId]);
    await this.db.query(SQL.pruneFailures, [restaurantId, windowStart]);
    await this.db.query(SQL.insertFailure, [restaurantId, at]);
    return (await firstRow<{ n: number }>(this.db, SQL.countFailures, [restaurantId]))?.n ?? 0;
  }

  async voidLiveCodes(restaurantId: string, at: number, failures: number): Promise<number> {
    const voided = await changesOf(this.db, SQL.voidCodes, [at, restaurantId]);
    await this.db.query(SQL.upsertLockout, [restaurantId, at, failures]);
    await this.db.query(SQL.clearFailures, [restaurantId]);
    return voided;
  }

  lockout(restaurantId: string): Promise<PairingLockoutRow | undefined> {
    return firstRow<PairingLockoutRow>(this.db, SQL.lockout, [restaurantId]);
  }

  async pairingBucket(address: string): Promise<PairingBucketRow | undefined> {
    await this.db.query(SQL.lockBucket, [address]);
    return await firstRow<PairingBucketRow>(this.db, SQL.bucket, [address]);
  }

  /** `isNew` is SQLite's counter's; the count here is the table's. */
  async putPairingBucket(address: string, tokens: number, updatedAt: number, fullAt: number, _isNew: boolean): Promise<void> {
    await this.db.query(SQL.putBucket, [address, tokens, updatedAt, fullAt]);
  }

  async pairingBucketCount(): Promise<number> {
    return (await firstRow<{ n: number }>(this.db, SQL.bucketCount))?.n ?? 0;
  }

  async prunePairingBuckets(now: number, limit: number): Promise<void> {
    await this.db.query(SQL.pruneBuckets, [now, limit]);
  }
}
