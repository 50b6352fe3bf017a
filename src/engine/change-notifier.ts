/**
 * Said in a commit's notification when the commit's restaurant is not known (a write that touched
 * no clock row and appended no event): every node's caches drop, no feed waiter wakes.
 */
export const SOME_RESTAURANT = '*';

/** Wakes whoever waits for a restaurant's change feed (long-polls, the app's live board) after a commit. */
export class ChangeNotifier {
  private readonly waiters = new Map<string, Set<() => void>>();

  notify(restaurantId: string): void {
    const set = this.waiters.get(restaurantId);
    if (!set) return;
    for (const wake of [...set]) wake();
  }

  /**
   * Wakes every waiter: another process (a CLI, a second engine) committed, and which restaurants
   * it touched is unknown here. Each waiter re-reads its own feed and waits again if nothing is new.
   */
  notifyAll(): void {
    for (const restaurantId of [...this.waiters.keys()]) this.notify(restaurantId);
  }

  /** How many wait on the restaurant's feed now (long-polls, live boards): what tests wait on instead of sleeping. */
  waiting(restaurantId: string): number {
    return this.waiters.get(restaurantId)?.size ?? 0;
  }

  /** Calls `listener` after every commit that wrote an event of the restaurant; returns the unsubscribe. */
  subscribe(restaurantId: string, listener: () => void): () => void {
    let set = this.waiters.get(restaurantId);
    if (!set) {
      set = new Set();
      this.waiters.set(restaurantId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.waiters.delete(restaurantId);
    };
  }

  /** Resolves at the next commit for the restaurant, or after `timeoutMs`, or when `signal` aborts. */
  waitForChange(restaurantId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const unsubscribe = this.subscribe(restaurantId, done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
