// Kitchen screens paired to a restaurant: a pairing offer (single use, ten minutes) turns a
// browser into a device with a token, kept hashed like an API key; the token lets that screen do
// what the kitchen board does and nothing else. Revoking it drops the screen at its next message.
// An offer has two ways in: its URL (the QR code) carries a 256-bit secret that cannot be guessed,
// and six digits for typing by hand, which could be: every wrong code typed counts against each
// restaurant with a live code, and 20 in ten minutes void that restaurant's live codes. Codes typed
// are also limited per client address (a URL's secret is not: nothing to guess, so no flood of other
// addresses can lock a QR code out). Both limits are kept in SQLite (a restart keeps them).
import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { KitchenDeviceEntry } from '../../../shared/screen-contract/devices.ts';
import { KITCHEN_PATH, SCREEN_ROLES, type ScreenRole } from '../../../shared/screen-contract/devices.ts';
import { ApiError, invalidRequest, notFound } from '../../domain/errors.ts';
import { formatInstant, formatNullableInstant } from '../../domain/time.ts';
import { fullAt, spend, type RateLimitDecision, type RateLimitSettings } from '../../domain/token-bucket.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { KitchenDeviceRow, PairingCodeRow } from '../../store/kitchen-devices-store.ts';

export const PAIRING_CODE_TTL_MS = 10 * 60_000;
/** How often a screen's last sighting is written: a heartbeat must not become a write every time. */
const LAST_SEEN_RESOLUTION_MS = 30_000;
const LOOKUP_LENGTH = 16;
const CODE_PATTERN = /^[0-9]{6}$/;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Every pairing secret starts so: a log redactor recognises it anywhere. */
const PAIRING_SECRET_PREFIX = 'cmpair_';
const SECRET_PATTERN = /^cmpair_[A-Za-z0-9_-]{43}$/;
/** Wrong six-digit codes a restaurant's live codes survive within PAIRING_FAILURE_WINDOW_MS: the 20th voids them. */
export const PAIRING_FAILURE_CAP = 20;
const PAIRING_FAILURE_WINDOW_MS = 10 * 60_000;
/** Ten tries at once, then one a minute per address (an IPv6 client by its /64). */
export const DEFAULT_PAIRING_LIMITS: RateLimitSettings = { capacity: 10, refillPerSecond: 1 / 60 };
/** Addresses whose pairing buckets are kept; past it, new addresses share one bucket. */
const MAX_PAIRING_BUCKETS = 20_000;
const OVERFLOW_BUCKET = '*overflow*';
const LOCKOUT_SHOWN_MS = 24 * 3600_000;

export interface PairingCode {
  /** Six digits, for typing by hand on the pairing page. */
  code: string;
  /** Absolute: `origin` + /kitchen/pair?secret=cmpair_… (256 random bits), what the QR code and the CLI show. */
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
  role: ScreenRole;
}

function hashToken(salt: Buffer, token: string): Buffer {
  return createHash('sha256').update(salt).update(token, 'utf8').digest();
}

function toEntry(row: KitchenDeviceRow, zone: string): KitchenDeviceEntry {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    paired_at: formatInstant(row.paired_at, zone),
    last_seen_at: formatNullableInstant(row.last_seen_at, zone),
    revoked_at: formatNullableInstant(row.revoked_at, zone),
  };
}

async function restaurantOf(engine: Engine, restaurantId: string, tx: ReadTransaction) {
  const restaurant = await tx.stores.restaurants.get(restaurantId);
  if (!restaurant) throw notFound(`restaurant ${restaurantId} not found`);
  return restaurant;
}

const digestSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** The URL that pairs the browser opening it, on `origin` (e.g. http://192.168.1.20:4750). */
function pairingUrl(origin: string, secret: string): string {
  return new URL(`${KITCHEN_PATH}/pair?secret=${secret}`, origin).href;
}

/** Issues a pairing code for one more screen of the restaurant. */
export async function createPairingCode(
  engine: Engine,
  input: { restaurantId: string; name?: string | null; origin: string; role?: string },
): Promise<PairingCode> {
  const role = input.role ?? 'kitchen';
  if (!SCREEN_ROLES.includes(role as ScreenRole)) throw invalidRequest(`role: ${SCREEN_ROLES.join(' or ')}, not ${JSON.stringify(role)}`);
  const restaurant = await engine.read(async (tx) => await restaurantOf(engine, input.restaurantId, tx));
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
  const secret = `${PAIRING_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  const code = await engine.transaction(async (tx) => {
    for (;;) {
      const digits = String(randomInt(0, 1_000_000)).padStart(6, '0');
      // Two live codes never share digits, so a code names one restaurant.
      if (await tx.stores.kitchenDevices.findLiveCode(digits, now)) continue;
      await tx.stores.kitchenDevices.insertPairingCode({
        id: randomUUID(),
        restaurant_id: restaurant.id,
        code: digits,
        device_name: name,
        device_role: role as ScreenRole,
        created_at: now,
        expires_at: expires,
        secret_hash: digestSecret(secret),
      });
      return digits;
    }
  });
  return { code, pairing_url: pairingUrl(origin.origin, secret), expires_at: formatInstant(expires, restaurant.time_zone), expires_at_ms: expires };
}

const refusedPairing = () => new ApiError('unauthorized', 'pairing code unknown, expired or already used: ask for a new one at the counter');

/**
 * Spends six digits typed by hand: the device it creates, and its token (returned here once, kept
 * hashed). A wrong code counts against every restaurant with a live code (it might have been any of
 * them); the PAIRING_FAILURE_CAP-th within the window voids that restaurant's live codes.
 */
export async function pairWithCode(engine: Engine, code: string): Promise<PairedDevice> {
  const outcome = await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const pairing = CODE_PATTERN.test(code) ? await tx.stores.kitchenDevices.findLiveCode(code, now) : undefined;
    if (pairing) return await createDevice(engine, tx, pairing, now);
    for (const restaurantId of await tx.stores.kitchenDevices.restaurantsWithLiveCodes(now)) {
      const failures = await tx.stores.kitchenDevices.countFailure(restaurantId, now, now - PAIRING_FAILURE_WINDOW_MS);
      if (failures >= PAIRING_FAILURE_CAP) await tx.stores.kitchenDevices.voidLiveCodes(restaurantId, now, failures);
    }
    return null;
  });
  if (!outcome) throw refusedPairing();
  return outcome;
}

/** Spends the secret of a pairing URL (the QR code): the device it creates, and its token. */
export async function pairWithSecret(engine: Engine, secret: string): Promise<PairedDevice> {
  if (!SECRET_PATTERN.test(secret)) throw refusedPairing();
  // Not limited per address: a miss is a read, so a flood of made-up secrets never takes the writer.
  const digest = digestSecret(secret);
  if (!await engine.read(async (tx) => await tx.stores.kitchenDevices.findLiveSecret(digest, engine.clock.now()))) throw refusedPairing();
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const pairing = await tx.stores.kitchenDevices.findLiveSecret(digest, now);
    if (!pairing) throw refusedPairing();
    return await createDevice(engine, tx, pairing, now);
  });
}

/** When a restaurant's six-digit codes were last voided by wrong tries (ISO, its zone), within the last day. */
export async function pairingLockout(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<{ voided_at: string; failed_attempts: number } | null> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, restaurantId, tx);
    const row = await tx.stores.kitchenDevices.lockout(restaurantId);
    // Said for a day: long enough for the manager to see it, not a notice forever.
    return row && engine.clock.now() - row.voided_at < LOCKOUT_SHOWN_MS ? { voided_at: formatInstant(row.voided_at, restaurant.time_zone), failed_attempts: row.failures } : null;
  });
}

/**
 * One pairing attempt from a client address (its addressKey): the per-address token bucket, kept
 * in SQLite. O(1): a few buckets full again are dropped per call; past MAX_PAIRING_BUCKETS
 * addresses, new ones share one bucket (no one's bucket is ever evicted before it is full again).
 */
export async function takePairingAttempt(engine: Engine, address: string, settings: RateLimitSettings = DEFAULT_PAIRING_LIMITS): Promise<RateLimitDecision> {
  return await engine.transaction(async (tx) => {
    const store = tx.stores.kitchenDevices;
    const now = engine.clock.now();
    await store.prunePairingBuckets(now, 4);
    let key = address;
    let row = await store.pairingBucket(key);
    if (!row && await store.pairingBucketCount() >= MAX_PAIRING_BUCKETS) {
      key = OVERFLOW_BUCKET;
      row = await store.pairingBucket(key);
    }
    const { bucket, decision } = spend(settings, row ? { tokens: row.tokens, updatedAt: row.updated_at } : undefined, now);
    await store.putPairingBucket(key, bucket.tokens, bucket.updatedAt, fullAt(settings, bucket), !row);
    return decision;
  });
}

/** Inside the caller's transaction: the device an offer creates, the offer spent. */
async function createDevice(engine: Engine, tx: WriteTransaction, pairing: PairingCodeRow, now: number): Promise<PairedDevice> {
  const restaurant = await restaurantOf(engine, pairing.restaurant_id, tx);
  for (;;) {
    const token = randomBytes(32).toString('base64url');
    const lookup = token.slice(0, LOOKUP_LENGTH);
    if (await tx.stores.kitchenDevices.findByLookup(lookup)) continue;
    const salt = randomBytes(16);
    const row = {
      id: randomUUID(),
      restaurant_id: restaurant.id,
      name: pairing.device_name ?? `Pantalla ${await tx.stores.kitchenDevices.count(restaurant.id) + 1}`,
      lookup,
      salt,
      hash: hashToken(salt, token),
      paired_at: now,
      role: pairing.device_role,
    };
    await tx.stores.kitchenDevices.insert(row);
    if (!await tx.stores.kitchenDevices.markCodeUsed(pairing.id, now, row.id)) throw refusedPairing();
    return { token, restaurantId: restaurant.id, device: toEntry({ ...row, last_seen_at: null, revoked_at: null }, restaurant.time_zone) };
  }
}

/** The device a presented token stands for, or null for a malformed, unknown or revoked one. */
export async function authenticateDevice(engine: Engine, token: string, callerTx?: WriteTransaction): Promise<DeviceIdentity | null> {
  return await engine.within(callerTx, async (tx) => {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await tx.stores.kitchenDevices.findByLookup(token.slice(0, LOOKUP_LENGTH));
    if (!row) {
      hashToken(randomBytes(16), token);
      return null;
    }
    if (!timingSafeEqual(hashToken(row.salt, token), row.hash) || row.revoked_at !== null) return null;
    await touchDevice(engine, tx, row.id, row.last_seen_at);
    return { deviceId: row.id, restaurantId: row.restaurant_id, role: row.role };
  });
}

/** Notes that a screen was seen now, at most every 30 s. */
async function touchDevice(engine: Engine, tx: WriteTransaction, deviceId: string, lastSeenAt: number | null): Promise<void> {
  const now = engine.clock.now();
  if (lastSeenAt === null || now - lastSeenAt >= LAST_SEEN_RESOLUTION_MS) await tx.stores.kitchenDevices.touch(deviceId, now);
}

/** Whether a screen is still paired (checked before every live message); notes the sighting. */
export async function deviceStillPaired(engine: Engine, deviceId: string, callerTx?: WriteTransaction): Promise<boolean> {
  return await engine.within(callerTx, async (tx) => {
    const sighting = await tx.stores.kitchenDevices.sighting(deviceId);
    if (!sighting || sighting.revoked_at !== null) return false;
    await touchDevice(engine, tx, deviceId, sighting.last_seen_at);
    return true;
  });
}

export async function listKitchenDevices(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<KitchenDeviceEntry[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, restaurantId, tx);
    return (await tx.stores.kitchenDevices.listForRestaurant(restaurantId)).map((row) => toEntry(row, restaurant.time_zone));
  });
}

export async function revokeKitchenDevice(engine: Engine, restaurantId: string, deviceId: string, callerTx?: WriteTransaction): Promise<KitchenDeviceEntry> {
  return await engine.within(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, restaurantId, tx);
    const id = deviceId.toLowerCase();
    if (!await tx.stores.kitchenDevices.find(restaurantId, id)) throw notFound(`kitchen screen ${deviceId} not found`);
    await tx.stores.kitchenDevices.revoke(restaurantId, id, engine.clock.now());
    return toEntry((await tx.stores.kitchenDevices.find(restaurantId, id))!, restaurant.time_zone);
  });
}
