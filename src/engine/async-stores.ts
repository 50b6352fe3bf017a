// Issue 34: the stores as the services see them. Each public method answers a Promise of what the
// SQLite store returns, so a PostgreSQL implementation of the same stores (src/engine/postgres/stores)
// fits the same `tx.stores` without touching the services. On SQLite the adapters below wrap today's
// stores once per engine (prepared statements and all): one resolved promise per call.
import type { Stores } from './stores.ts';

type Method = (...args: never[]) => unknown;

/** A store's public methods, each answering a Promise of the SQLite store's answer. */
export type AsyncStore<S> = {
  [K in keyof S as S[K] extends Method ? K : never]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** Every store of `Stores`, async. */
export type AsyncStores = { readonly [K in keyof Stores]: AsyncStore<Stores[K]> };

/** The methods of `store`'s class (and its parents), bound to it, each answering a Promise. */
function asyncStore<S extends object>(store: S): AsyncStore<S> {
  const adapter: Record<string, unknown> = {};
  for (let proto = Object.getPrototypeOf(store) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (name === 'constructor' || name in adapter || typeof method !== 'function') continue;
      const call = method as (...args: unknown[]) => unknown;
      adapter[name] = (...args: unknown[]): Promise<unknown> => {
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
  for (const [name, store] of Object.entries(stores)) adapters[name] = asyncStore(store as object);
  return adapters as unknown as AsyncStores;
}
