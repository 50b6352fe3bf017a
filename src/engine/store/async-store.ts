// Issue 34: the contract a store on another database keeps with its SQLite twin
// (src/engine/store/*-store.ts), and the type the services see every store by (async-stores.ts), derived from the SQLite class so the two cannot drift: the same
// public methods, the same arguments, each answering a Promise of the same value. A class written
// as `implements AsyncStore<OrdersStore>` fails to compile when the SQLite store gains, loses or
// changes a method. A field that is not a method (a counter such as `writeCount`) keeps its type.

/** `S` with every method answering a Promise of what it answers on SQLite. */
export type AsyncStore<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : S[K];
};

/**
 * `AsyncStore<S>` but for the methods named in `Local`, which keep their exact SQLite signature:
 * what a store keeps in this process's memory (a write listener's subscription) answers at once on
 * any database.
 */
export type AsyncStoreWithLocal<S, Local extends keyof S> = Omit<AsyncStore<S>, Local> & Pick<S, Local>;
