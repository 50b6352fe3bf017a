import type { Clock } from './clock.ts';
import type { AsyncStores } from './async-stores.ts';
import type { IdempotencyClaim, IdempotencyClaimRequest } from './storage/storage-port.ts';
import type { KitchenLineWrite } from './store/kitchen-timings-store.ts';

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
 * What a write transaction needs of its connection beyond the stores (engine.ts builds one per
 * database): savepoints, the restaurant's clock row, an Idempotency-Key's claim.
 */
export interface TransactionConnection {
  exec(sql: string): Promise<void>;
  /** False when the database already rolled the whole transaction back (no savepoint is left). */
  canRollBack(): boolean;
  /** Takes the restaurant's clock row (PostgreSQL; held to the commit), once per transaction. */
  takeRestaurant(restaurantId: string): Promise<void>;
  claimIdempotencyKey(request: IdempotencyClaimRequest): Promise<IdempotencyClaim>;
  /** The restaurants taken so far. */
  heldRestaurants(): string[];
}

/**
 * One open write transaction, handed to the use case that runs in it (Engine.transaction): the
 * stores, the clock, and the state of this transaction alone, the restaurants whose change feed
 * wakes up once it commits. A use case called inside another's takes its handle instead of opening
 * one of its own; `savepoint` nests a part that may fail alone, said where it happens.
 *
 * This is the storage seam: on PostgreSQL (issue 34) the engine gives the same handle over a pooled
 * connection, and the services do not change.
 */
export class WriteTransaction implements ReadTransaction {
  private readonly notifications = new Set<string>();
  /** Its writes to the kitchen's open and held lines, in order: heard by the kept load once committed. */
  private readonly lineWrites: KitchenLineWrite[] = [];
  private savepoints = 0;

  constructor(
    readonly stores: AsyncStores,
    readonly clock: Clock,
    private readonly connection: TransactionConnection,
  ) {}

  /**
   * Takes the restaurant's clock row first (issue 34): on PostgreSQL the restaurant's writes then
   * commit one after another, whichever node runs them, and every node's re-poll sees the row move.
   * On SQLite the process lock already orders every write: nothing to do. Called first by a use case
   * that knows its restaurant (an order, a keyed write); writes of several restaurants take them in id order.
   */
  async takeRestaurant(restaurantId: string): Promise<void> {
    await this.connection.takeRestaurant(restaurantId);
  }

  /**
   * An Idempotency-Key's record, claimed before the work (PostgreSQL: written now, so a second
   * transaction with the key, on any node, waits for this one and reads its answer; SQLite: looked
   * up, under the process lock). `answered`: the record of an earlier request under the key.
   */
  async claimIdempotencyKey(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    return await this.connection.claimIdempotencyKey(request);
  }

  /** The restaurants whose clock rows this transaction holds. */
  heldRestaurants(): string[] {
    return this.connection.heldRestaurants();
  }

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
    await this.connection.exec(`SAVEPOINT ${name}`);
    const linesBefore = this.lineWrites.length;
    try {
      const result = await work(this);
      await this.connection.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      if (this.connection.canRollBack()) {
        await this.connection.exec(`ROLLBACK TO ${name}`);
        await this.connection.exec(`RELEASE ${name}`);
        // What the savepoint wrote is undone: so are its line writes.
        this.lineWrites.length = linesBefore;
      }
      throw error;
    } finally {
      this.savepoints--;
    }
  }

  /** A write to the kitchen's open or held lines, in this transaction (the engine routes the store's). */
  kitchenLineWritten(write: KitchenLineWrite): void {
    this.lineWrites.push(write);
  }

  /** Its writes to the kitchen's lines so far (what the kept load hears once it commits). */
  kitchenLineWrites(): readonly KitchenLineWrite[] {
    return this.lineWrites;
  }

  /** The restaurants to wake, once committed (Engine.transaction calls it once). */
  committedNotifications(): readonly string[] {
    return [...this.notifications];
  }
}
