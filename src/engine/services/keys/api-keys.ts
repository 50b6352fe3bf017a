import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { generateApiKey, parseApiKey } from '../../domain/api-key-format.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import { formatInstant, formatNullableInstant } from '../../domain/time.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { ApiKeyKind, ApiKeyRow } from '../../store/api-keys-store.ts';
import type { Actor } from '../../domain/actor.ts';
import type { World } from '../../../shared/world.ts';

export interface ApiKeyView {
  id: string;
  label: string | null;
  world: World;
  write: boolean;
  /** Issue 35: `hub` for a replica's key (its own rate budget), else `client`. */
  kind: ApiKeyKind;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreateApiKeyInput {
  restaurantId: string;
  world: World;
  write: boolean;
  label?: string | null;
  /** Issue 35: `hub` for the key a restaurant's replica pushes upstream with; `client` by default. */
  kind?: ApiKeyKind;
}

function hashKey(salt: Buffer, key: string): Buffer {
  return createHash('sha256').update(salt).update(key, 'utf8').digest();
}

function toView(row: ApiKeyRow, zone: string): ApiKeyView {
  return {
    id: row.id,
    label: row.label,
    world: row.world,
    write: row.can_write === 1,
    kind: row.kind,
    last4: row.last4,
    created_at: formatInstant(row.created_at, zone),
    last_used_at: formatNullableInstant(row.last_used_at, zone),
    revoked_at: formatNullableInstant(row.revoked_at, zone),
  };
}

/** Issues a key; the secret is returned here once and only its salted hash is kept. */
export async function createApiKey(engine: Engine, input: CreateApiKeyInput, tx?: WriteTransaction): Promise<{ key: string; record: ApiKeyView }> {
  const restaurant = await engine.readWithin(tx, async (read) => await read.stores.restaurants.get(input.restaurantId));
  if (!restaurant) throw invalidRequest(`unknown restaurant ${input.restaurantId}`);
  const label = input.label?.trim() || null;
  if (label !== null && label.length > 100) throw invalidRequest('label must be at most 100 characters');
  return await engine.within(tx, async (tx) => {
    for (;;) {
      const key = generateApiKey(input.world);
      const lookup = parseApiKey(key)!.lookup;
      if (await tx.stores.apiKeys.findByLookup(lookup)) continue; // 62^12 makes this all but impossible
      const salt = randomBytes(16);
      const row = {
        id: randomUUID(),
        restaurant_id: restaurant.id,
        lookup,
        salt,
        hash: hashKey(salt, key),
        world: input.world,
        can_write: input.write ? 1 : 0,
        kind: input.kind ?? 'client',
        label,
        last4: key.slice(-4),
        created_at: engine.clock.now(),
      };
      await tx.stores.apiKeys.insert(row);
      return { key, record: toView({ ...row, last_used_at: null, revoked_at: null }, restaurant.time_zone) };
    }
  });
}

/**
 * The actor a presented key stands for, or null for a missing, malformed, unknown or revoked key.
 * Writes nothing: the use is noted in memory and written later (Engine.flushKeyUses).
 */
export async function authenticate(engine: Engine, presented: string, callerTx?: ReadTransaction): Promise<Actor | null> {
  // A key verified before answers from memory, without opening a read.
  const known = knownActor(engine, presented);
  if (known) return known;
  const keyWrites = engine.commits.keyWrites();
  const parsed = parseApiKey(presented);
  if (!parsed) return null;
  const row = await engine.readWithin(callerTx, async (tx) => await tx.stores.apiKeys.findByLookup(parsed.lookup));
  if (!row) {
    // Spend the same work as a real check so timing does not tell which lookups exist.
    hashKey(randomBytes(16), presented);
    return null;
  }
  const matches = timingSafeEqual(hashKey(row.salt, presented), row.hash);
  if (!matches || row.revoked_at !== null || row.world !== parsed.world) return null;
  const actor: Actor = {
    restaurantId: row.restaurant_id,
    world: row.world,
    canWrite: row.can_write === 1,
    keyId: row.id,
    ...(row.kind === 'hub' ? { hub: true } : {}),
  };
  const verified = engine.verifiedKeys.remember(presented, keyWrites, actor, row.last_used_at);
  engine.verifiedKeys.noteUse(verified, engine.clock.now());
  return actor;
}

/**
 * The actor of a key this process verified before (verifiedKeys), with its use noted; undefined
 * when it must be looked up (authenticate). Answers at once: the request goes on in the same task.
 */
export function knownActor(engine: Engine, presented: string): Actor | undefined {
  // Another connection's commit (the keys CLI revoking a key) drops what this process verified. On
  // SQLite checked once per turn of the event loop: the requests of one turn share the check
  // (data-version.ts); on PostgreSQL every node's commits are told (storage/commit-signal.ts).
  engine.commits.checkThisTurn();
  const known = engine.verifiedKeys.get(presented, engine.commits.keyWrites());
  if (!known) return undefined;
  engine.verifiedKeys.noteUse(known, engine.clock.now());
  return known.actor;
}

/** A key's row with its last use as this process knows it (a use may not be written yet). */
function withPendingUse(engine: Engine, row: ApiKeyRow): ApiKeyRow {
  const pending = engine.verifiedKeys.pendingUse(row.id);
  return pending !== undefined && (row.last_used_at === null || pending > row.last_used_at) ? { ...row, last_used_at: pending } : row;
}

export async function listApiKeys(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<ApiKeyView[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await tx.stores.restaurants.get(restaurantId);
    if (!restaurant) throw invalidRequest(`unknown restaurant ${restaurantId}`);
    return (await tx.stores.apiKeys.listForRestaurant(restaurantId)).map((row) => toView(withPendingUse(engine, row), restaurant.time_zone));
  });
}

export async function revokeApiKey(engine: Engine, restaurantId: string, keyId: string, callerTx?: WriteTransaction): Promise<ApiKeyView> {
  return await engine.within(callerTx, async (tx) => {
    const restaurant = await tx.stores.restaurants.get(restaurantId);
    const row = await tx.stores.apiKeys.find(restaurantId, keyId);
    if (!restaurant || !row) throw notFound(`API key ${keyId} not found`);
    await tx.stores.apiKeys.revoke(restaurantId, keyId, engine.clock.now());
    return toView(withPendingUse(engine, (await tx.stores.apiKeys.find(restaurantId, keyId))!), restaurant.time_zone);
  });
}


/**
 * Accepts locally a key issued elsewhere (a replica serves its local clients with the same key it
 * uses upstream, with the same permission). Stored hashed like any other; idempotent.
 */
export async function registerExternalApiKey(
  engine: Engine,
  input: { restaurantId: string; key: string; write: boolean; label: string },
  tx?: WriteTransaction,
): Promise<void> {
  const parsed = parseApiKey(input.key);
  if (!parsed) throw invalidRequest('not an API key');
  await engine.within(tx, async (tx) => {
    const existing = await tx.stores.apiKeys.findByLookup(parsed.lookup);
    if (existing) {
      if (!timingSafeEqual(hashKey(existing.salt, input.key), existing.hash) || existing.restaurant_id !== input.restaurantId) {
        throw new Error('another key with the same lookup is already registered here');
      }
      await tx.stores.apiKeys.setWrite(existing.id, input.write);
      return;
    }
    const salt = randomBytes(16);
    await tx.stores.apiKeys.insert({
      id: randomUUID(),
      restaurant_id: input.restaurantId,
      lookup: parsed.lookup,
      salt,
      hash: hashKey(salt, input.key),
      world: parsed.world,
      can_write: input.write ? 1 : 0,
      // Locally the replica serves its own clients with it: their budget, not a hub's.
      kind: 'client',
      label: input.label,
      last4: input.key.slice(-4),
      created_at: engine.clock.now(),
    });
  });
}
