import type { Database } from 'better-sqlite3';
import type { Clock } from './clock.ts';
import type { Stores } from './stores.ts';

/**
 * What a use case reads through: the stores, at one commit (Engine.read). The same stores as a
 * write's; the type says the use case only reads.
 */
export interface ReadTransaction {
  readonly stores: Stores;
  readonly clock: Clock;
}

/**
 * One open write transaction, handed to the use case that runs in it (Engine.transaction): the
 * stores, the clock, and the state of this transaction alone, the restaurants whose change feed
 * wakes up once it commits. A use case called inside another's takes its handle instead of opening
 * one of its own; `savepoint` nests a part that may fail alone, said where it happens.
 *
 * This is the storage seam: another storage (issue 34) gives the same handle over its own
 * connection, and the services do not change.
 */
export class WriteTransaction implements ReadTransaction {
  private readonly notifications = new Set<string>();

  constructor(
    readonly stores: Stores,
    readonly clock: Clock,
    private readonly db: Database,
  ) {}

  /** The restaurant's change feed (long-polls, live screens) is woken once this transaction commits. */
  notify(restaurantId: string): void {
    this.notifications.add(restaurantId);
  }

  /**
   * Runs `work` in a savepoint of this transaction: should it throw, only what it wrote is rolled
   * back, and the caller may go on (an API error answered and kept under its Idempotency-Key).
   */
  savepoint<T>(work: (tx: WriteTransaction) => T): T {
    return this.db.transaction(() => work(this))();
  }

  /** The restaurants to wake, once committed (Engine.transaction calls it once). */
  committedNotifications(): readonly string[] {
    return [...this.notifications];
  }
}
