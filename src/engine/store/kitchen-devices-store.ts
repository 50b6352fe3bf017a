import type { Database, Statement } from 'better-sqlite3';
import type { ScreenRole } from '../../shared/screen-contract/devices.ts';

export interface KitchenDeviceRow {
  id: string;
  restaurant_id: string;
  name: string;
  lookup: string;
  salt: Buffer;
  hash: Buffer;
  paired_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
  /** kitchen: the board (kitchen and expo views); pickup: the customers' "Listo para retirar" screen. */
  role: ScreenRole;
}

export interface PairingCodeRow {
  id: string;
  restaurant_id: string;
  code: string;
  device_name: string | null;
  device_role: ScreenRole;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  device_id: string | null;
  secret_hash: Buffer | null;
  code_voided_at: number | null;
}

export interface PairingBucketRow {
  tokens: number;
  updated_at: number;
}

export interface PairingLockoutRow {
  voided_at: number;
  failures: number;
}

/** Paired kitchen screens and their pairing codes. */
export class KitchenDevicesStore {
  private readonly insertDevice: Statement;
  private readonly byLookup: Statement<[string], KitchenDeviceRow>;
  private readonly byId: Statement<[string, string], KitchenDeviceRow>;
  private readonly sightings: Statement<[string], Pick<KitchenDeviceRow, 'revoked_at' | 'last_seen_at'>>;
  private readonly byRestaurant: Statement<[string], KitchenDeviceRow>;
  private readonly countStatement: Statement<[string], { n: number }>;
  private readonly revokeStatement: Statement<[number, string, string]>;
  private readonly touchStatement: Statement<[number, string]>;
  private readonly insertCode: Statement;
  private readonly liveCode: Statement<[string, number], PairingCodeRow>;
  private readonly useCode: Statement<[number, string, string]>;
  private readonly liveSecretStatement: Statement<[Buffer, number], PairingCodeRow>;
  private readonly liveRestaurants: Statement<[number], { restaurant_id: string }>;
  private readonly voidCodesStatement: Statement<[number, string, number]>;
  private readonly insertFailure: Statement<[string, number]>;
  private readonly pruneFailuresStatement: Statement<[string, number]>;
  private readonly countFailuresStatement: Statement<[string], { n: number }>;
  private readonly clearFailuresStatement: Statement<[string]>;
  private readonly upsertLockout: Statement<[string, number, number]>;
  private readonly lockoutStatement: Statement<[string], PairingLockoutRow>;
  private readonly bucketStatement: Statement<[string], PairingBucketRow>;
  private readonly putBucketStatement: Statement<[string, number, number, number]>;
  private readonly pruneBucketsStatement: Statement<[number, number]>;
  /** Rows in kitchen_pairing_buckets, counted once and then kept up to date: the bound is checked in O(1). */
  private bucketCount: number;

  constructor(db: Database) {
    this.insertDevice = db.prepare(
      `INSERT INTO kitchen_devices (id, restaurant_id, name, lookup, salt, hash, paired_at, role)
       VALUES (@id, @restaurant_id, @name, @lookup, @salt, @hash, @paired_at, @role)`,
    );
    this.byLookup = db.prepare('SELECT * FROM kitchen_devices WHERE lookup = ?');
    this.byId = db.prepare('SELECT * FROM kitchen_devices WHERE id = ? AND restaurant_id = ?');
    this.sightings = db.prepare('SELECT revoked_at, last_seen_at FROM kitchen_devices WHERE id = ?');
    this.byRestaurant = db.prepare('SELECT * FROM kitchen_devices WHERE restaurant_id = ? ORDER BY paired_at, id');
    this.countStatement = db.prepare('SELECT count(*) AS n FROM kitchen_devices WHERE restaurant_id = ?');
    this.revokeStatement = db.prepare('UPDATE kitchen_devices SET revoked_at = ? WHERE id = ? AND restaurant_id = ? AND revoked_at IS NULL');
    this.touchStatement = db.prepare('UPDATE kitchen_devices SET last_seen_at = ? WHERE id = ?');
    this.insertCode = db.prepare(
      `INSERT INTO kitchen_pairing_codes (id, restaurant_id, code, device_name, device_role, created_at, expires_at, secret_hash)
       VALUES (@id, @restaurant_id, @code, @device_name, @device_role, @created_at, @expires_at, @secret_hash)`,
    );
    this.liveCode = db.prepare('SELECT * FROM kitchen_pairing_codes WHERE code = ? AND expires_at > ? AND used_at IS NULL AND code_voided_at IS NULL');
    this.liveSecretStatement = db.prepare('SELECT * FROM kitchen_pairing_codes WHERE secret_hash = ? AND expires_at > ? AND used_at IS NULL');
    this.liveRestaurants = db.prepare(
      'SELECT DISTINCT restaurant_id FROM kitchen_pairing_codes WHERE expires_at > ? AND used_at IS NULL AND code_voided_at IS NULL',
    );
    this.voidCodesStatement = db.prepare(
      'UPDATE kitchen_pairing_codes SET code_voided_at = ? WHERE restaurant_id = ? AND expires_at > ? AND used_at IS NULL AND code_voided_at IS NULL',
    );
    this.insertFailure = db.prepare('INSERT INTO kitchen_pairing_failures (restaurant_id, at) VALUES (?, ?)');
    this.pruneFailuresStatement = db.prepare('DELETE FROM kitchen_pairing_failures WHERE restaurant_id = ? AND at <= ?');
    this.countFailuresStatement = db.prepare('SELECT count(*) AS n FROM kitchen_pairing_failures WHERE restaurant_id = ?');
    this.clearFailuresStatement = db.prepare('DELETE FROM kitchen_pairing_failures WHERE restaurant_id = ?');
    this.upsertLockout = db.prepare(
      `INSERT INTO kitchen_pairing_lockouts (restaurant_id, voided_at, failures) VALUES (?, ?, ?)
       ON CONFLICT (restaurant_id) DO UPDATE SET voided_at = excluded.voided_at, failures = excluded.failures`,
    );
    this.lockoutStatement = db.prepare('SELECT voided_at, failures FROM kitchen_pairing_lockouts WHERE restaurant_id = ?');
    this.bucketStatement = db.prepare('SELECT tokens, updated_at FROM kitchen_pairing_buckets WHERE address = ?');
    this.putBucketStatement = db.prepare(
      `INSERT INTO kitchen_pairing_buckets (address, tokens, updated_at, full_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at, full_at = excluded.full_at`,
    );
    this.pruneBucketsStatement = db.prepare(
      'DELETE FROM kitchen_pairing_buckets WHERE rowid IN (SELECT rowid FROM kitchen_pairing_buckets WHERE full_at <= ? ORDER BY full_at LIMIT ?)',
    );
    this.bucketCount = (db.prepare('SELECT count(*) AS n FROM kitchen_pairing_buckets').get() as { n: number }).n;
    this.useCode = db.prepare('UPDATE kitchen_pairing_codes SET used_at = ?, device_id = ? WHERE id = ? AND used_at IS NULL');
  }

  insert(row: Omit<KitchenDeviceRow, 'last_seen_at' | 'revoked_at'>): void {
    this.insertDevice.run(row);
  }

  findByLookup(lookup: string): KitchenDeviceRow | undefined {
    return this.byLookup.get(lookup);
  }

  find(restaurantId: string, id: string): KitchenDeviceRow | undefined {
    return this.byId.get(id, restaurantId);
  }

  /** When the device was revoked and last seen (undefined: no such device); read before every live message. */
  sighting(id: string): Pick<KitchenDeviceRow, 'revoked_at' | 'last_seen_at'> | undefined {
    return this.sightings.get(id);
  }

  listForRestaurant(restaurantId: string): KitchenDeviceRow[] {
    return this.byRestaurant.all(restaurantId);
  }

  count(restaurantId: string): number {
    return this.countStatement.get(restaurantId)!.n;
  }

  revoke(restaurantId: string, id: string, at: number): boolean {
    return this.revokeStatement.run(at, id, restaurantId).changes > 0;
  }

  touch(id: string, at: number): void {
    this.touchStatement.run(at, id);
  }

  insertPairingCode(row: Omit<PairingCodeRow, 'used_at' | 'device_id' | 'code_voided_at'>): void {
    this.insertCode.run(row);
  }

  /** The unexpired, unused code with these digits, if any. */
  findLiveCode(code: string, now: number): PairingCodeRow | undefined {
    return this.liveCode.get(code, now);
  }

  markCodeUsed(id: string, at: number, deviceId: string): boolean {
    return this.useCode.run(at, deviceId, id).changes > 0;
  }

  /** The unexpired, unused offer whose URL secret has this digest (voided digits do not void the secret). */
  findLiveSecret(secretHash: Buffer, now: number): PairingCodeRow | undefined {
    return this.liveSecretStatement.get(secretHash, now);
  }

  /** The restaurants with a six-digit code that may be typed now. */
  restaurantsWithLiveCodes(now: number): string[] {
    return this.liveRestaurants.all(now).map((r) => r.restaurant_id);
  }

  /** Notes a wrong code typed against a restaurant and forgets those older than `windowStart`: how many remain. */
  countFailure(restaurantId: string, at: number, windowStart: number): number {
    this.pruneFailuresStatement.run(restaurantId, windowStart);
    this.insertFailure.run(restaurantId, at);
    return this.countFailuresStatement.get(restaurantId)!.n;
  }

  /** Voids the restaurant's live six-digit codes, notes the lockout and starts counting afresh. */
  voidLiveCodes(restaurantId: string, at: number, failures: number): number {
    const voided = this.voidCodesStatement.run(at, restaurantId, at).changes;
    this.upsertLockout.run(restaurantId, at, failures);
    this.clearFailuresStatement.run(restaurantId);
    return voided;
  }

  lockout(restaurantId: string): PairingLockoutRow | undefined {
    return this.lockoutStatement.get(restaurantId);
  }

  pairingBucket(address: string): PairingBucketRow | undefined {
    return this.bucketStatement.get(address);
  }

  /** Writes a bucket (`isNew`: it was not there, as pairingBucket() said). */
  putPairingBucket(address: string, tokens: number, updatedAt: number, fullAt: number, isNew: boolean): void {
    this.putBucketStatement.run(address, tokens, updatedAt, fullAt);
    if (isNew) this.bucketCount++;
  }

  pairingBucketCount(): number {
    return this.bucketCount;
  }

  /** Drops up to `limit` buckets full again by `now` (they hold no information). */
  prunePairingBuckets(now: number, limit: number): void {
    this.bucketCount = Math.max(0, this.bucketCount - this.pruneBucketsStatement.run(now, limit).changes);
  }
}
