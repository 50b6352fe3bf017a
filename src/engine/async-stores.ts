// Issue 34: the stores as the services see them (`tx.stores`). Each public method answers a Promise
// of what the SQLite store returns (store/async-store.ts, the one type for this), so a PostgreSQL
// implementation of the same stores (src/engine/postgres/stores) fits the same `tx.stores` without
// touching the services. On SQLite the adapters below wrap today's stores once per engine (prepared
// statements and all): one resolved promise per call.
import type { Stores } from './stores.ts';
import type { AsyncStore, AsyncStoreWithLocal } from './store/async-store.ts';
import type { OrdersStore } from './store/orders-store.ts';

/**
 * The methods that answer at once on any database: what a store keeps in this process's memory (a
 * write listener's subscription). Every other method answers a Promise.
 */
const LOCAL_METHODS: { readonly [K in keyof Stores]?: readonly (keyof Stores[K])[] } = { orders: ['onWrite'] };

/** Every store of `Stores`, async (but for LOCAL_METHODS). */
export type AsyncStores = {
  readonly [K in keyof Stores]: K extends 'orders' ? AsyncStoreWithLocal<OrdersStore, 'onWrite'> : AsyncStore<Stores[K]>;
};

/**
 * The methods of `store`'s class (and its parents), bound to it, each answering a Promise but for
 * `local` ones; its getters (a counter such as `writeCount`) read through.
 */
function asyncStore<S extends object>(store: S, local: readonly PropertyKey[]): AsyncStore<S> {
  const adapter: Record<string, unknown> = {};
  for (let proto = Object.getPrototypeOf(store) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name in adapter) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (descriptor?.get) {
        const read = descriptor.get;
        Object.defineProperty(adapter, name, { get: () => read.call(store) as unknown, enumerable: true });
        continue;
      }
      if (typeof descriptor?.value !== 'function') continue;
      const call = descriptor.value as (...args: unknown[]) => unknown;
      adapter[name] = local.includes(name)
        ? (...args: unknown[]): unknown => call.apply(store, args)
        : (...args: unknown[]): Promise<unknown> => {
            try {
              return Promise.resolve(call.apply(store, args));
            } catch (error) {
              return Promise.reject(error as Error);
            }
          };
    }
  }
  return adapter as AsyncStore<S>;
}

/** The async face of the SQLite stores (built once per engine). */
export function asyncStores(stores: Stores): AsyncStores {
  const adapters: Record<string, unknown> = {};
  for (const [name, store] of Object.entries(stores)) {
    adapters[name] = asyncStore(store as object, (LOCAL_METHODS as Record<string, readonly PropertyKey[] | undefined>)[name] ?? []);
  }
  return adapters as unknown as AsyncStores;
}
