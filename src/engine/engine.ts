import type { Database, Statement } from 'better-sqlite3';
import { ChangeNotifier } from './change-notifier.ts';
import { ApiError } from './domain/errors.ts';
import { systemClock, type Clock } from './clock.ts';
import { openDatabase } from './store/open-database.ts';
import { DataVersion } from './store/data-version.ts';
import { VerifiedKeys } from './verified-keys.ts';
import { Stores } from './stores.ts';
import { ScreenPresence } from './screen-presence.ts';
import { WriteTransaction, type ReadTransaction } from './transaction.ts';

export type { ReadTransaction, WriteTransaction };

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
  /** The SQLite gateways (stores.ts), built from `db`. */
  readonly stores: Stores;
  readonly role: 'standalone' | 'replica';
  /** Changes when another connection commits (store/data-version.ts). */
  readonly dataVersion: DataVersion;
  /** API keys checked once, and their last uses not yet written (verified-keys.ts). */
  readonly verifiedKeys = new VerifiedKeys();
  /** When each restaurant's kitchen screens were last live (fallback printing). */
  readonly screenPresence = new ScreenPresence();
  /** When this engine started (engine clock): fallback printing counts screens gone from here at most. */
  readonly startedAt: number;
  /** The write transaction open now, if any (a handle, not a depth: see `transaction`). */
  private open: WriteTransaction | null = null;
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
    this.stores = new Stores(this.db, this.role === 'replica' ? 'L' : '', (restaurantId) => this.eventAppended(restaurantId));
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
   * A use case called inside another's takes the caller's handle (`tx`) instead of calling this
   * again; one that still does (older code, or code written before it had a handle to take) runs in
   * a savepoint of the open transaction, as `tx.savepoint` would: an inner failure caught outside
   * rolls back only its part.
   */
  transaction<T>(work: (tx: WriteTransaction) => T): T {
    if (this.damaged) throw new ApiError('storage_damaged', `${this.damaged}; no change is saved until it is restored`);
    if (this.open) return this.open.savepoint(work);
    let committed: WriteTransaction | null = null;
    const result = this.withFullDiskRetry(() => {
      // A fresh handle for each attempt: what a rolled-back attempt meant to announce is dropped with it.
      const tx = new WriteTransaction(this.stores, this.clock, this.db);
      this.open = tx;
      try {
        const value = this.db.transaction(() => work(tx)).immediate();
        committed = tx;
        return value;
      } finally {
        this.open = null;
      }
    });
    for (const restaurantId of (committed as WriteTransaction | null)?.committedNotifications() ?? []) this.notifier.notify(restaurantId);
    for (const listener of this.commitListeners) listener();
    return result;
  }

  /**
   * Runs `work` in the caller's transaction when it handed one (`tx`), else in one of its own: how a
   * use case that may be called inside another's joins it, visibly, instead of nesting.
   */
  within<T>(tx: WriteTransaction | undefined, work: (tx: WriteTransaction) => T): T {
    return tx ? work(tx) : this.transaction(work);
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
   * the WAL read lock is taken once instead of once per statement. Inside a transaction already,
   * `work` simply runs in it. `work` is handed what it reads through (ReadTransaction).
   */
  read<T>(work: (tx: ReadTransaction) => T): T {
    const handle: ReadTransaction = this.open ?? { stores: this.stores, clock: this.clock };
    if (this.db.inTransaction) return work(handle);
    this.beginRead.run();
    let result: T;
    try {
      result = work(handle);
    } catch (error) {
      if (this.db.inTransaction) this.rollbackRead.run();
      throw error;
    }
    this.commitRead.run();
    return result;
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
  recheckStorage(): boolean {
    if (!this.diskFull || !this.db.open) return this.diskFull;
    try {
      this.transaction(() => this.db.pragma('application_id = ' + String(this.db.pragma('application_id', { simple: true }))));
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
  private withFullDiskRetry<T>(write: () => T): T {
    try {
      const result = write();
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
      const result = write();
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
  flushKeyUses(): number {
    const pending = this.verifiedKeys.pending();
    if (pending.length === 0) return 0;
    this.transaction((tx) => {
      for (const [keyId, at] of pending) tx.stores.apiKeys.touch(keyId, at);
    });
    for (const [keyId, at] of pending) this.verifiedKeys.written(keyId, at);
    return pending.length;
  }

  close(): void {
    if (!this.db.open) return;
    try {
      this.flushKeyUses();
    } catch {
      // A key's last use is worth less than closing: it is lost, as with a crash.
    }
    this.db.close();
  }
}
