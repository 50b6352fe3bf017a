import { RefusalTally } from './domain/busy-refusals.ts';
import { RefusedDemand } from './domain/refused-demand.ts';
import type { Database, Statement } from 'better-sqlite3';
import { ChangeNotifier } from './change-notifier.ts';
import { ApiError } from './domain/errors.ts';
import { systemClock, type Clock } from './clock.ts';
import { openDatabase } from './store/open-database.ts';
import { DataVersion } from './store/data-version.ts';
import { VerifiedKeys } from './verified-keys.ts';
import { Stores } from './stores.ts';
import { ScreenPresence } from './screen-presence.ts';
import { asyncStores, type AsyncStores } from './async-stores.ts';
import { ProcessLock } from './process-lock.ts';
import { TransactionEscaped, WriteTransaction, type ReadTransaction, type TransactionWork } from './transaction.ts';

export type { ReadTransaction, WriteTransaction };

/**
 * Settles as `pending` does if that happens within the current run of microtasks (all a SQLite
 * store's answers take); still pending once the event loop moves on (its next check phase, or its
 * next timers phase, whichever comes first: a timer the work awaits was set after this one), it
 * awaits something else, and is refused. The work keeps running, but its transaction is rolled
 * back and the lock given to the next in line.
 */
async function guard<T>(pending: Promise<T>): Promise<T> {
  let escaped!: () => void;
  const refused = new Promise<never>((_, reject) => (escaped = () => reject(new TransactionEscaped())));
  const immediate = setImmediate(escaped);
  const timer = setTimeout(escaped, 0);
  try {
    return await Promise.race([pending, refused]);
  } finally {
    clearImmediate(immediate);
    clearTimeout(timer);
  }
}

/** SQLite's "database or disk is full" (and the I/O errors a full disk gives while growing a file). */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_FULL_') || code === 'SQLITE_IOERR_SHMSIZE');
}

export interface EngineOptions {
  /** A path to the SQLite file (or ':memory:'), or an open database. */
  database: string | Database;
  clock?: Clock;
  /**
   * `replica`: the engine mirrors a restaurant of an upstream platform. Its own orders get
   * provisional numbers, and what the upstream does (payments, couriers, mail) is left to it.
   */
  role?: 'standalone' | 'replica';
  /** Files up to this size are quick_checked when opened; larger ones after start (store/database-checks.ts). */
  quickCheckMaxBytes?: number;
}

/** The engine's state: one database, its stores (prepared once), the clock and the change notifier. */
export class Engine {
  readonly db: Database;
  readonly clock: Clock;
  readonly notifier = new ChangeNotifier();
  /** The SQLite gateways (stores.ts), built from `db`: synchronous, for the engine itself and tests. */
  readonly sqliteStores: Stores;
  /** The same stores as the services see them: every method answers a Promise (async-stores.ts). */
  readonly stores: AsyncStores;
  readonly role: 'standalone' | 'replica';
  /** Changes when another connection commits (store/data-version.ts). */
  readonly dataVersion: DataVersion;
  /** API keys checked once, and their last uses not yet written (verified-keys.ts). */
  readonly verifiedKeys = new VerifiedKeys();
  /** Busy mode's refused orders not yet written (domain/busy-refusals.ts; a refusal's own transaction is undone). */
  readonly busyRefusals = new RefusalTally();
  /** Busy mode's refused orders' lines lately, its projected queue (domain/refused-demand.ts; issue 32). */
  readonly refusedDemand = new RefusedDemand();
  /** When each restaurant's kitchen screens were last live (fallback printing). */
  readonly screenPresence = new ScreenPresence();
  /** When this engine started (engine clock): fallback printing counts screens gone from here at most. */
  readonly startedAt: number;
  /** The write transaction open now, if any (a handle, not a depth: see `transaction`). */
  private open: WriteTransaction | null = null;
  /** Held from BEGIN to COMMIT/ROLLBACK by every transaction and read: one at a time on the one connection. */
  private readonly lock = new ProcessLock();
  private readonly readHandle: ReadTransaction;
  private readonly beginWrite: Statement;
  private readonly commitWrite: Statement;
  private readonly rollbackWrite: Statement;
  private readonly beginRead: Statement;
  private readonly commitRead: Statement;
  private readonly rollbackRead: Statement;
  private diskFull = false;
  private damaged: string | null = null;
  private readonly commitListeners = new Set<() => void>();

  constructor(options: EngineOptions) {
    this.db =
      typeof options.database === 'string'
        ? openDatabase(options.database, options.quickCheckMaxBytes !== undefined ? { quickCheckMaxBytes: options.quickCheckMaxBytes } : {})
        : options.database;
    this.clock = options.clock ?? systemClock;
    this.role = options.role ?? 'standalone';
    this.startedAt = this.clock.now();
    this.sqliteStores = new Stores(this.db, this.role === 'replica' ? 'L' : '', (restaurantId) => this.eventAppended(restaurantId));
    this.stores = asyncStores(this.sqliteStores);
    this.readHandle = { stores: this.stores, clock: this.clock };
    this.beginWrite = this.db.prepare('BEGIN IMMEDIATE');
    this.commitWrite = this.db.prepare('COMMIT');
    this.rollbackWrite = this.db.prepare('ROLLBACK');
    this.beginRead = this.db.prepare('BEGIN DEFERRED');
    this.commitRead = this.db.prepare('COMMIT');
    this.rollbackRead = this.db.prepare('ROLLBACK');
    this.dataVersion = new DataVersion(this.db);
    this.dataVersion.onChange(() => this.verifiedKeys.clear());
  }

  /**
   * Runs `work` in one SQLite transaction (IMMEDIATE, so a write never upgrades a read lock and
   * fails half-way), handing it the transaction: its stores, its clock, its pending notifications.
   * Waiters on the change feed are woken only after the commit.
   *
   * The process-wide lock is held from BEGIN to COMMIT (or ROLLBACK), in arrival order: while `work`
   * awaits its stores no other transaction or read of this process runs on the connection. `work`
   * awaits the database only: one still pending once the microtasks have run (a timer, the network,
   * or a transaction opened inside it, which would wait for this one forever) is rolled back and
   * refused with TransactionEscaped. A use case called inside another's takes the caller's handle
   * (`within`, `tx.savepoint`), never calls this again.
   */
  async transaction<T>(work: TransactionWork<T, WriteTransaction>): Promise<T> {
    if (this.damaged) throw new ApiError('storage_damaged', `${this.damaged}; no change is saved until it is restored`);
    return this.lock.hold(async () => {
      // A fresh handle for each attempt: what a rolled-back attempt meant to announce is dropped with it.
      const [result, committed] = await this.withFullDiskRetry(async () => await this.attempt(work));
      for (const restaurantId of committed.committedNotifications()) this.notifier.notify(restaurantId);
      for (const listener of this.commitListeners) listener();
      return result;
    });
  }

  private async attempt<T>(work: TransactionWork<T, WriteTransaction>): Promise<[T, WriteTransaction]> {
    const tx = new WriteTransaction(this.stores, this.clock, this.db);
    this.beginWrite.run();
    this.open = tx;
    try {
      const value = await guard(work(tx));
      this.commitWrite.run();
      return [value, tx];
    } catch (error) {
      if (this.db.inTransaction) this.rollbackWrite.run();
      throw error;
    } finally {
      this.open = null;
    }
  }

  /**
   * Runs `work` in the caller's transaction when it handed one (`tx`), else in one of its own: how a
   * use case that may be called inside another's joins it, visibly, instead of nesting.
   */
  async within<T>(tx: WriteTransaction | undefined, work: TransactionWork<T, WriteTransaction>): Promise<T> {
    return tx ? work(tx) : await this.transaction(work);
  }

  /**
   * An event was appended (EventsStore): inside a write transaction its restaurant is woken once that
   * commits; outside one the row is already committed, so now.
   */
  private eventAppended(restaurantId: string): void {
    if (this.open) this.open.notify(restaurantId);
    else this.notifier.notify(restaurantId);
  }

  /** Calls `listener` after each write transaction commits (the WAL checkpointer's wake-up); returns its removal. */
  onCommit(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /**
   * Runs `work`, which only reads, in one read transaction: every read sees the same commit, and
   * the WAL read lock is taken once instead of once per statement. Under the same process-wide lock
   * as writes (on this one connection, a read between another's BEGIN and COMMIT would see what it
   * has not committed), with the same guard: `work` awaits its stores only. Inside a write, read
   * through its `tx` instead (calling this there would wait for that write forever).
   */
  async read<T>(work: TransactionWork<T, ReadTransaction>): Promise<T> {
    return this.lock.hold(async () => {
      this.beginRead.run();
      let result: T;
      try {
        result = await guard(work(this.readHandle));
      } catch (error) {
        if (this.db.inTransaction) this.rollbackRead.run();
        throw error;
      }
      this.commitRead.run();
      return result;
    });
  }

  /** `read` joined to the caller's transaction (a read or a write) when it hands one, as `within` for writes. */
  async readWithin<T>(tx: ReadTransaction | undefined, work: TransactionWork<T, ReadTransaction>): Promise<T> {
    return tx ? work(tx) : await this.read(work);
  }

  /**
   * Stops every write: the file was found damaged after the engine started (a large file's
   * quick_check runs then). Reads go on, so the kitchen still sees its orders.
   */
  refuseWrites(reason: string): void {
    this.damaged = reason;
  }

  /** Whether a write transaction is open now (what it has written may still be rolled back). */
  get inWriteTransaction(): boolean {
    return this.open !== null;
  }

  /** Why writes are refused (a damaged file), or null. */
  get writesRefused(): string | null {
    return this.damaged;
  }

  /** True since a write found the disk full, until a write succeeds again (the app's status bar says "disco lleno"). */
  get storageFull(): boolean {
    return this.diskFull;
  }

  /**
   * Whether the disk is still full: after a write found it full, one small write is tried (the
   * app asks with every heartbeat), so the flag clears when space comes back even if nobody writes.
   */
  async recheckStorage(): Promise<boolean> {
    if (!this.diskFull || !this.db.open) return this.diskFull;
    try {
      await this.transaction(async () => this.db.pragma('application_id = ' + String(this.db.pragma('application_id', { simple: true }))));
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'storage_full') throw error;
    }
    return this.diskFull;
  }

  /**
   * A write that meets a full disk (SQLITE_FULL, rolled back whole) gets one more try after
   * `wal_checkpoint(TRUNCATE)`: the log's pages are copied into the database file, where they
   * mostly overwrite pages already there, and the log shrinks to nothing, which often frees what
   * the write needs. Still full, it is refused as `storage_full` (503, Retry-After); nothing
   * committed is touched, and the next write after space comes back simply succeeds.
   */
  private async withFullDiskRetry<T>(write: () => Promise<T>): Promise<T> {
    try {
      const result = await write();
      this.diskFull = false;
      return result;
    } catch (error) {
      if (!isDiskFull(error)) throw error;
    }
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      if (!isDiskFull(error)) throw error;
    }
    try {
      const result = await write();
      this.diskFull = false;
      return result;
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.diskFull = true;
      throw new ApiError('storage_full', 'the disk holding the database is full: the change was not saved; retry once space is freed');
    }
  }

  /**
   * Writes the API key uses noted since the last call (verified-keys.ts), in one transaction. Called
   * by the jobs runner and on close; when it fails (a full disk) the uses stay in memory and the next
   * call tries again. A time never goes back (another process may have written a later use).
   */
  /**
   * Writes busy mode's refusals noted since the last call (domain/busy-refusals.ts), in one
   * transaction; called by the jobs runner and on close. When it fails they are noted again for the next call.
   */
  async flushBusyRefusals(): Promise<number> {
    const pending = this.busyRefusals.take();
    if (pending.length === 0) return 0;
    try {
      await this.transaction(async (tx) => {
        for (const entry of pending) await tx.stores.busyRefusals.add(entry);
      });
    } catch (error) {
      this.busyRefusals.giveBack(pending);
      throw error;
    }
    return pending.length;
  }

  async flushKeyUses(): Promise<number> {
    const pending = this.verifiedKeys.pending();
    if (pending.length === 0) return 0;
    await this.transaction(async (tx) => {
      for (const [keyId, at] of pending) await tx.stores.apiKeys.touch(keyId, at);
    });
    for (const [keyId, at] of pending) this.verifiedKeys.written(keyId, at);
    return pending.length;
  }

  /**
   * Closes the database, writing the key uses not yet written first. Synchronous (callers close in
   * `finally` blocks and exit handlers): it writes directly, unless a transaction is open, which
   * only a transaction that escaped its guard can leave; then those uses are lost, as with a crash.
   */
  close(): void {
    if (!this.db.open) return;
    const open = this.lock.busy;
    try {
      const pending = open ? [] : this.verifiedKeys.pending();
      if (pending.length > 0) {
        this.db.transaction(() => {
          for (const [keyId, at] of pending) this.sqliteStores.apiKeys.touch(keyId, at);
        }).immediate();
      }
    } catch {
      // A key's last use is worth less than closing: it is lost, as with a crash.
    }
    try {
      const refusals = open ? [] : this.busyRefusals.take();
      if (refusals.length > 0) {
        this.db.transaction(() => {
          for (const entry of refusals) this.sqliteStores.busyRefusals.add(entry);
        }).immediate();
      }
    } catch {
      // Likewise a refusal's record.
    }
    this.db.close();
  }
}
