import type { Database, Statement } from 'better-sqlite3';

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
}

export interface PairingCodeRow {
  id: string;
  restaurant_id: string;
  code: string;
  device_name: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  device_id: string | null;
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

  constructor(db: Database) {
    this.insertDevice = db.prepare(
      `INSERT INTO kitchen_devices (id, restaurant_id, name, lookup, salt, hash, paired_at)
       VALUES (@id, @restaurant_id, @name, @lookup, @salt, @hash, @paired_at)`,
    );
    this.byLookup = db.prepare('SELECT * FROM kitchen_devices WHERE lookup = ?');
    this.byId = db.prepare('SELECT * FROM kitchen_devices WHERE id = ? AND restaurant_id = ?');
    this.sightings = db.prepare('SELECT revoked_at, last_seen_at FROM kitchen_devices WHERE id = ?');
    this.byRestaurant = db.prepare('SELECT * FROM kitchen_devices WHERE restaurant_id = ? ORDER BY paired_at, id');
    this.countStatement = db.prepare('SELECT count(*) AS n FROM kitchen_devices WHERE restaurant_id = ?');
    this.revokeStatement = db.prepare('UPDATE kitchen_devices SET revoked_at = ? WHERE id = ? AND restaurant_id = ? AND revoked_at IS NULL');
    this.touchStatement = db.prepare('UPDATE kitchen_devices SET last_seen_at = ? WHERE id = ?');
    this.insertCode = db.prepare(
      `INSERT INTO kitchen_pairing_codes (id, restaurant_id, code, device_name, created_at, expires_at)
       VALUES (@id, @restaurant_id, @code, @device_name, @created_at, @expires_at)`,
    );
    this.liveCode = db.prepare('SELECT * FROM kitchen_pairing_codes WHERE code = ? AND expires_at > ? AND used_at IS NULL');
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

  insertPairingCode(row: Omit<PairingCodeRow, 'used_at' | 'device_id'>): void {
    this.insertCode.run(row);
  }

  /** The unexpired, unused code with these digits, if any. */
  findLiveCode(code: string, now: number): PairingCodeRow | undefined {
    return this.liveCode.get(code, now);
  }

  markCodeUsed(id: string, at: number, deviceId: string): boolean {
    return this.useCode.run(at, deviceId, id).changes > 0;
  }
}
