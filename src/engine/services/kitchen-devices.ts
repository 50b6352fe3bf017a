// Kitchen screens paired to a restaurant: a six-digit code (single use, ten minutes) turns a
// browser into a device with a token, kept hashed like an API key; the token lets that screen do
// what the kitchen board does and nothing else. Revoking it drops the screen at its next message.
import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { KitchenDeviceEntry } from '../../shared/ipc/devices.ts';
import { KITCHEN_PATH } from '../../shared/ipc/devices.ts';
import { ApiError, invalidRequest, notFound } from '../domain/errors.ts';
import { formatInstant, formatNullableInstant } from '../domain/time.ts';
import type { Engine } from '../engine.ts';
import type { KitchenDeviceRow } from '../store/kitchen-devices-store.ts';

export const PAIRING_CODE_TTL_MS = 10 * 60_000;
/** How often a screen's last sighting is written: a heartbeat must not become a write every time. */
const LAST_SEEN_RESOLUTION_MS = 30_000;
const LOOKUP_LENGTH = 16;
const CODE_PATTERN = /^[0-9]{6}$/;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface PairingCode {
  code: string;
  /** Absolute: `origin` + /kitchen/pair?code=…, what the QR code and the CLI show. */
  pairing_url: string;
  /** ISO-8601 in the restaurant's zone. */
  expires_at: string;
  expires_at_ms: number;
}

export interface PairedDevice {
  token: string;
  restaurantId: string;
  device: KitchenDeviceEntry;
}

export interface DeviceIdentity {
  deviceId: string;
  restaurantId: string;
}

function hashToken(salt: Buffer, token: string): Buffer {
  return createHash('sha256').update(salt).update(token, 'utf8').digest();
}

function toEntry(row: KitchenDeviceRow, zone: string): KitchenDeviceEntry {
  return {
    id: row.id,
    name: row.name,
    paired_at: formatInstant(row.paired_at, zone),
    last_seen_at: formatNullableInstant(row.last_seen_at, zone),
    revoked_at: formatNullableInstant(row.revoked_at, zone),
  };
}

function restaurantOf(engine: Engine, restaurantId: string) {
  const restaurant = engine.restaurants.get(restaurantId);
  if (!restaurant) throw notFound(`restaurant ${restaurantId} not found`);
  return restaurant;
}

/** The URL that pairs the browser opening it, on `origin` (e.g. http://192.168.1.20:4750). */
export function pairingUrl(origin: string, code: string): string {
  return new URL(`${KITCHEN_PATH}/pair?code=${code}`, origin).href;
}

/** Issues a pairing code for one more screen of the restaurant. */
export function createPairingCode(engine: Engine, input: { restaurantId: string; name?: string | null; origin: string }): PairingCode {
  const restaurant = restaurantOf(engine, input.restaurantId);
  let origin: URL;
  try {
    origin = new URL(input.origin);
  } catch {
    throw invalidRequest(`not an origin: ${input.origin}`);
  }
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') throw invalidRequest('the origin must be http or https');
  const name = input.name?.trim() || null;
  if (name !== null && name.length > 60) throw invalidRequest('name must be at most 60 characters');
  const now = engine.clock.now();
  const expires = now + PAIRING_CODE_TTL_MS;
  const code = engine.transaction(() => {
    for (;;) {
      const digits = String(randomInt(0, 1_000_000)).padStart(6, '0');
      // Two live codes never share digits, so a code names one restaurant.
      if (engine.kitchenDevices.findLiveCode(digits, now)) continue;
      engine.kitchenDevices.insertPairingCode({
        id: randomUUID(),
        restaurant_id: restaurant.id,
        code: digits,
        device_name: name,
        created_at: now,
        expires_at: expires,
      });
      return digits;
    }
  });
  return { code, pairing_url: pairingUrl(origin.origin, code), expires_at: formatInstant(expires, restaurant.time_zone), expires_at_ms: expires };
}

/** Spends a pairing code: the device it creates, and its token (returned here once, kept hashed). */
export function pairWithCode(engine: Engine, code: string): PairedDevice {
  const refused = () => new ApiError('unauthorized', 'pairing code unknown, expired or already used: ask for a new one at the counter');
  if (!CODE_PATTERN.test(code)) throw refused();
  return engine.transaction(() => {
    const now = engine.clock.now();
    const pairing = engine.kitchenDevices.findLiveCode(code, now);
    if (!pairing) throw refused();
    const restaurant = restaurantOf(engine, pairing.restaurant_id);
    for (;;) {
      const token = randomBytes(32).toString('base64url');
      const lookup = token.slice(0, LOOKUP_LENGTH);
      if (engine.kitchenDevices.findByLookup(lookup)) continue;
      const salt = randomBytes(16);
      const row = {
        id: randomUUID(),
        restaurant_id: restaurant.id,
        name: pairing.device_name ?? `Pantalla ${engine.kitchenDevices.count(restaurant.id) + 1}`,
        lookup,
        salt,
        hash: hashToken(salt, token),
        paired_at: now,
      };
      engine.kitchenDevices.insert(row);
      if (!engine.kitchenDevices.markCodeUsed(pairing.id, now, row.id)) throw refused();
      return { token, restaurantId: restaurant.id, device: toEntry({ ...row, last_seen_at: null, revoked_at: null }, restaurant.time_zone) };
    }
  });
}

/** The device a presented token stands for, or null for a malformed, unknown or revoked one. */
export function authenticateDevice(engine: Engine, token: string): DeviceIdentity | null {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = engine.kitchenDevices.findByLookup(token.slice(0, LOOKUP_LENGTH));
  if (!row) {
    hashToken(randomBytes(16), token);
    return null;
  }
  if (!timingSafeEqual(hashToken(row.salt, token), row.hash) || row.revoked_at !== null) return null;
  touchDevice(engine, row.id, row.last_seen_at);
  return { deviceId: row.id, restaurantId: row.restaurant_id };
}

/** Notes that a screen was seen now, at most every 30 s. */
export function touchDevice(engine: Engine, deviceId: string, lastSeenAt: number | null): void {
  const now = engine.clock.now();
  if (lastSeenAt === null || now - lastSeenAt >= LAST_SEEN_RESOLUTION_MS) engine.kitchenDevices.touch(deviceId, now);
}

/** Whether a screen is still paired (checked before every live message); notes the sighting. */
export function deviceStillPaired(engine: Engine, deviceId: string): boolean {
  const sighting = engine.kitchenDevices.sighting(deviceId);
  if (!sighting || sighting.revoked_at !== null) return false;
  touchDevice(engine, deviceId, sighting.last_seen_at);
  return true;
}

export function listKitchenDevices(engine: Engine, restaurantId: string): KitchenDeviceEntry[] {
  const restaurant = restaurantOf(engine, restaurantId);
  return engine.kitchenDevices.listForRestaurant(restaurantId).map((row) => toEntry(row, restaurant.time_zone));
}

export function revokeKitchenDevice(engine: Engine, restaurantId: string, deviceId: string): KitchenDeviceEntry {
  const restaurant = restaurantOf(engine, restaurantId);
  const id = deviceId.toLowerCase();
  if (!engine.kitchenDevices.find(restaurantId, id)) throw notFound(`kitchen screen ${deviceId} not found`);
  engine.kitchenDevices.revoke(restaurantId, id, engine.clock.now());
  return toEntry(engine.kitchenDevices.find(restaurantId, id)!, restaurant.time_zone);
}
