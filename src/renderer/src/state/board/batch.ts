// Several changes to the board's state told to its readers as one. A re-read of the snapshot (the
// 5-minute one, a reconnect) touches tickets, pending changes, flashes and rings together: told one
// by one, each notice ran every reader's selector (O(tickets × readers)), and a card could draw a
// state halfway through the re-read.
import type { StoreApi } from 'zustand/vanilla';

type Update<S> = S | Partial<S> | ((state: S) => S | Partial<S>);

export interface Batching<S> {
  set: StoreApi<S>['setState'];
  get: () => S;
  /** Runs `change`: what it sets is read back at once inside it, and told to readers in one notice at its end. */
  batch(change: () => void): void;
}

export function batching<S extends object>(set: StoreApi<S>['setState'], get: () => S): Batching<S> {
  /** What the batch under way has set, not yet told (null: no batch). */
  let patch: Partial<S> | null = null;
  const read = (): S => (patch === null ? get() : { ...get(), ...patch });
  const write = (update: Update<S>, replace?: boolean) => {
    if (patch === null) {
      (set as (update: Update<S>, replace?: boolean) => void)(update, replace);
      return;
    }
    if (replace) throw new Error('a batch of board changes cannot replace the whole state');
    patch = { ...patch, ...(typeof update === 'function' ? update(read()) : update) };
  };
  return {
    set: write as StoreApi<S>['setState'],
    get: read,
    batch(change) {
      if (patch !== null) return change();
      patch = {};
      try {
        change();
      } finally {
        // What was set before a throw is told too, as it would have been without the batch.
        const told = patch;
        patch = null;
        if (Object.keys(told).length > 0) set(told);
      }
    },
  };
}
