import type { Database } from 'better-sqlite3';
import type { Clock } from './clock.ts';
import type { AsyncStores } from './async-stores.ts';

/**
 * What a use case reads through: the stores, at one commit (Engine.read). The same stores as a
 * write's; the type says the use case only reads.
 */
export interface ReadTransaction {
  readonly stores: AsyncStores;
  readonly clock: Clock;
}

/**
 * The work of a transaction: it awaits its stores and nothing else (no network, no timer, no other
 * transaction). On SQLite the engine holds the process-wide lock from BEGIN to COMMIT, and a work
 * still pending once the microtasks have run is refused (TransactionEscaped), rolled back whole.
 */
export type TransactionWork<T, Tx> = (tx: Tx) => Promise<T>;

/** A transaction's work awaited something other than its stores (engine.ts, `guard`). */
export class TransactionEscaped extends Error {
  constructor() {
    super(
      'a transaction awaited something other than the database (a timer, the network, or another Engine.transaction/read: ' +
        'a use case called inside another takes its tx); it was rolled back',
    );
    this.name = 'TransactionEscaped';
  }
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
  private savepoints = 0;

  constructor(
    readonly stores: AsyncStores,
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
  async savepoint<T>(work: TransactionWork<T, WriteTransaction>): Promise<T> {
    const name = `comanda_sp${++this.savepoints}`;
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work(this);
      this.db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      // A failure SQLite already rolled back whole (a full disk) left no savepoint to go back to.
      if (this.db.inTransaction) this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    } finally {
      this.savepoints--;
    }
  }

  /** The restaurants to wake, once committed (Engine.transaction calls it once). */
  committedNotifications(): readonly string[] {
    return [...this.notifications];
  }
}
