// Issue 34: what a PostgreSQL node keeps of the tables every order reads and hardly anyone writes
// (config-tables.ts): the restaurant, the location, the product with its modifiers, the API key, the
// kitchen's settings, its cooks, its printers, the location's "agotado" marks. Kept under the database's `config_version` (migration
// 0011): a transaction reads that number once, beside its restaurant's clock row, and is answered
// from here only what was read at that same number; at another it reads afresh (and a newer number
// replaces everything kept). So a price changed on node A is read by node B's next order, whether or
// not B has heard A's notification yet: no cache is trusted beyond what the transaction itself read.
// A transaction that wrote a kept table reads its own writes from the database, and keeps nothing.
// SQLite's hub reads its file directly (its statements cost no round trip): nothing of this there.
import type { AsyncStores } from '../async-stores.ts';
import type { TransactionClient } from './transaction-client.ts';

/** More entries than the restaurants of a platform keep between two configuration commits; past it, start over. */
const MAX_ENTRIES = 100_000;

export class ConfigCache {
  private version = 0;
  private readonly kept = new Map<string, unknown>();

  /** What was kept at `version` under `key`, or `undefined` (rows are never `undefined`: absent is kept as null). */
  get(version: number, key: string): unknown {
    return version === this.version ? this.kept.get(key) : undefined;
  }

  set(version: number, key: string, value: unknown): void {
    if (version < this.version) return; // read by an older transaction: the newer number rules
    if (version > this.version || this.kept.size >= MAX_ENTRIES) {
      this.kept.clear();
      this.version = version;
    }
    this.kept.set(key, deepFreeze(value));
  }
}

/** Kept values are shared by every transaction of the node: none may change them. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !Buffer.isBuffer(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A read answered from the cache at this transaction's `config_version`, or read and kept. */
async function keptRead<T>(cache: ConfigCache, tx: TransactionClient, key: string, read: () => Promise<T>): Promise<T> {
  if (tx.wroteConfig) return await read();
  const version = await tx.configVersion();
  const hit = cache.get(version, key);
  if (hit !== undefined) return (hit === null ? undefined : hit) as T;
  const value = await read();
  if (!tx.wroteConfig) cache.set(version, key, value === undefined ? null : value);
  return value;
}

/** A location's "agotado" marks as read at `readAt`: those still on then (a mark ends at its `until`). */
interface SoldOutKept {
  readAt: number;
  rows: Awaited<ReturnType<AsyncStores['soldOut']['atLocation']>>;
}

/**
 * The marks on at `now`: those kept that have not ended by then. A mark that had ended when they
 * were read is not among them, so a transaction whose clock reads earlier than that reads afresh.
 */
async function keptSoldOut(cache: ConfigCache, tx: TransactionClient, locationId: string, now: number, read: () => Promise<SoldOutKept['rows']>): Promise<SoldOutKept['rows']> {
  const key = `sold out ${locationId}`;
  if (tx.wroteConfig) return await read();
  const version = await tx.configVersion();
  const hit = cache.get(version, key) as SoldOutKept | undefined;
  if (hit && hit.readAt <= now) return hit.rows.filter((row) => row.until === null || row.until > now);
  const rows = await read();
  if (!tx.wroteConfig) cache.set(version, key, { readAt: now, rows } satisfies SoldOutKept);
  return rows;
}

/**
 * The transaction's stores with the order path's configuration reads answered from `cache`; every
 * other method is the store's own. Each method kept is named here with its key.
 */
export function withKeptConfig(stores: AsyncStores, cache: ConfigCache, tx: TransactionClient): AsyncStores {
  const { restaurants, locations, catalogue, apiKeys, kitchenData, kitchenTimings, printers, soldOut } = stores;
  const kept = <T>(key: string, read: () => Promise<T>) => keptRead(cache, tx, key, read);
  return Object.assign({}, stores, {
    restaurants: override(restaurants, { get: (id: string) => kept(`restaurant ${id}`, () => restaurants.get(id)) }),
    locations: override(locations, { get: (restaurantId: string, id: string) => kept(`location ${restaurantId} ${id}`, () => locations.get(restaurantId, id)) }),
    catalogue: override(catalogue, {
      product: (restaurantId: string, id: string) => kept(`product ${restaurantId} ${id}`, () => catalogue.product(restaurantId, id)),
      modifierGroups: (productId: string) => kept(`groups ${productId}`, () => catalogue.modifierGroups(productId)),
      modifierOptions: (productId: string) => kept(`options ${productId}`, () => catalogue.modifierOptions(productId)),
    }),
    apiKeys: override(apiKeys, { find: (restaurantId: string, id: string) => kept(`key ${restaurantId} ${id}`, () => apiKeys.find(restaurantId, id)) }),
    kitchenData: override(kitchenData, { settings: (restaurantId: string) => kept(`kitchen settings ${restaurantId}`, () => kitchenData.settings(restaurantId)) }),
    kitchenTimings: override(kitchenTimings, {
      stationCooks: (restaurantId: string) => kept(`cooks ${restaurantId}`, () => kitchenTimings.stationCooks(restaurantId)),
    }),
    printers: override(printers, { list: (restaurantId: string) => kept(`printers ${restaurantId}`, () => printers.list(restaurantId)) }),
    soldOut: override(soldOut, { atLocation: (locationId: string, now: number) => keptSoldOut(cache, tx, locationId, now, () => soldOut.atLocation(locationId, now)) }),
  }) as AsyncStores;
}

/** The store with some methods replaced: the rest are still the store's own, found through its prototype chain. */
function override<S extends object>(store: S, methods: Partial<S>): S {
  return Object.assign(Object.create(store) as S, methods);
}
