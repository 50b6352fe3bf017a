import { RefusalTally } from './domain/busy-refusals.ts';
import { RefusedDemand } from './domain/refused-demand.ts';
import type { Database, Statement } from 'better-sqlite3';
import { ChangeNotifier } from './change-notifier.ts';
import { ApiError } from './domain/errors.ts';
import { systemClock, type Clock } from './clock.ts';
import { BUSY_TIMEOUT_MS, openDatabase } from './store/open-database.ts';
import { DataVersion } from './store/data-version.ts';
import { VerifiedKeys } from './verified-keys.ts';
import { Stores } from './stores.ts';
import { ScreenPresence } from './screen-presence.ts';
import { asyncStores, type AsyncStores } from './async-stores.ts';
import { ProcessLock } from './process-lock.ts';
import { FileBusy, isSqliteBusy, OtherProcessWriting, OtherWriters, OTHER_WRITER_WAIT_MS, withoutWaiting } from './other-writers.ts';
import { TransactionEscaped, WriteTransaction, type ReadTransaction, type TransactionConnection, type TransactionWork } from './transaction.ts';
import { SqliteCommitSignal, PostgresCommitSignal, type CommitSignal } from './storage/commit-signal.ts';
import type { IdempotencyClaim, IdempotencyClaimRequest } from './storage/storage-port.ts';
import { claimIdempotencyKey, SOME_RESTAURANT, type PostgresStorage } from './postgres/postgres-storage.ts';
import { TAKE_KNOWN_CLOCK_SQL } from './postgres/clock-sql.ts';
import { postgresStores } from './postgres/postgres-stores.ts';
import { runTransaction } from './postgres/run-transaction.ts';
import { TransactionClient } from './postgres/transaction-client.ts';
import { ConfigCache, withKeptConfig } from './postgres/config-cache.ts';
import { ConnectionGate } from './storage/connection-gate.ts';
import type { PostgresQueryable } from './postgres/stores/queryable.ts';
import type { OrderWriteListener } from './store/orders-store.ts';
import type { KitchenLineWrite } from './store/kitchen-timings-store.ts';

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

/**
 * Issue 34: a PostgreSQL node (postgres/postgres-storage.ts: its pool, its LISTEN connection, its
 * re-poll), its schema migrated (postgres/migrate-postgres.ts). The engine closes it with itself.
 */
export interface PostgresDatabase {
  postgres: PostgresStorage;
}

/** What only an engine on SQLite has (its file, its connection) was asked of one on PostgreSQL. */
export class SqliteOnly extends Error {
  constructor(what: string) {
    super(`${what} is SQLite's (a hub's file); this engine runs on PostgreSQL`);
    this.name = 'SqliteOnly';
  }
}

export interface EngineOptions {
  /** A path to the SQLite file (or ':memory:'), an open database, or a PostgreSQL node (issue 34). */
  database: string | Database | PostgresDatabase;
  clock?: Clock;
  /**
   * `replica`: the engine mirrors a restaurant of an upstream platform. Its own orders get
   * provisional numbers, and what the upstream does (payments, couriers, mail) is left to it.
   */
  role?: 'standalone' | 'replica';
  /** Files up to this size are quick_checked when opened; larger ones after start (store/database-checks.ts). */
  quickCheckMaxBytes?: number;
  /**
   * SQLite: how long (real time) a write waits, on timers, for another process to let the file's
   * write lock go before it is refused as storage_unavailable (other-writers.ts); default 5 s.
   */
  otherWriterWaitMs?: number;
}

/**
 * The engine's state: one database (a SQLite file, or a PostgreSQL node), its stores, the clock and
 * the change notifier.
 */
export class Engine {
  readonly clock: Clock;
  readonly notifier = new ChangeNotifier();
  readonly kind: 'sqlite' | 'postgres';
  /**
   * The same stores as the services see them: every method answers a Promise (async-stores.ts). On
   * PostgreSQL, bound to the pool (each call its own statement outside any transaction).
   */
  readonly stores: AsyncStores;
  readonly role: 'standalone' | 'replica';
  /** What the caches are kept right by: this engine's writes and every other connection's or node's commits. */
  readonly commits: CommitSignal;
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
  /** The PostgreSQL node, when the engine runs on one (null on SQLite). */
  readonly postgres: PostgresStorage | null;
  private readonly sqlite: SqliteState | null;
  /** SQLite: this engine's waits for another process holding the file's write lock (other-writers.ts). */
  private readonly otherWriters: OtherWriters;
  /**
   * PostgreSQL: the use cases holding a pooled connection at once, one fewer than the pool has (the
   * last one is for the notifications after commits and lone reads); the rest wait in turn.
   */
  private readonly connections: ConnectionGate | null;
  /** PostgreSQL: the kept tables' rows at the database's `config_version` (postgres/config-cache.ts). */
  private readonly configCache = new ConfigCache();
  /** The write transactions open now (one at most on SQLite: the lock; any number on PostgreSQL). */
  private openWrites = 0;
  /** Orders written by this engine's transactions (the PostgreSQL stores are built per transaction). */
  private readonly orderWriteListeners = new Set<OrderWriteListener>();
  private diskFull = false;
  private damaged: string | null = null;
  private closed = false;
  private readonly commitListeners = new Set<() => void>();
  private readonly kitchenLineListeners = new Set<(writes: readonly KitchenLineWrite[]) => void>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(options: EngineOptions) {
    this.clock = options.clock ?? systemClock;
    this.role = options.role ?? 'standalone';
    this.startedAt = this.clock.now();
    this.otherWriters = new OtherWriters(options.otherWriterWaitMs ?? OTHER_WRITER_WAIT_MS);
    if (isPostgres(options.database)) {
      this.kind = 'postgres';
      this.sqlite = null;
      const storage = options.database.postgres;
      this.postgres = storage;
      this.connections = new ConnectionGate(Math.max(1, storage.poolSize - 1));
      this.stores = this.postgresStoresOn(storage.pool, null);
      this.commits = new PostgresCommitSignal(storage);
      // Any node's commit (this one's at its commit, the others' by NOTIFY or the re-poll) wakes the
      // restaurant's long-polls and live streams here; null: which ones is unknown (LISTEN came back).
      this.unsubscribe.push(
        storage.onChange((restaurantId) => {
          if (restaurantId === null) this.notifier.notifyAll();
          else if (restaurantId !== SOME_RESTAURANT) this.notifier.notify(restaurantId);
        }),
      );
    } else {
      this.kind = 'sqlite';
      this.postgres = null;
      this.connections = null;
      const db =
        typeof options.database === 'string'
          ? openDatabase(options.database, options.quickCheckMaxBytes !== undefined ? { quickCheckMaxBytes: options.quickCheckMaxBytes } : {})
          : options.database;
      // Never wait for another process's write lock inside SQLite: that wait is synchronous and
      // stops the event loop. A busy file is waited for on timers instead (other-writers.ts).
      db.pragma('busy_timeout = 0');
      const sqliteStores = new Stores(
        db,
        this.role === 'replica' ? 'L' : '',
        (restaurantId) => this.eventAppended(restaurantId),
        (write) => this.kitchenLineWritten(write),
      );
      const stores = asyncStores(sqliteStores);
      this.stores = stores;
      const dataVersion = new DataVersion(db);
      this.sqlite = {
        db,
        stores: sqliteStores,
        dataVersion,
        lock: new ProcessLock(),
        open: null,
        readHandle: { stores, clock: this.clock },
        beginWrite: db.prepare('BEGIN IMMEDIATE'),
        commitWrite: db.prepare('COMMIT'),
        rollbackWrite: db.prepare('ROLLBACK'),
        beginRead: db.prepare('BEGIN DEFERRED'),
        commitRead: db.prepare('COMMIT'),
        rollbackRead: db.prepare('ROLLBACK'),
      };
      this.commits = new SqliteCommitSignal(db, dataVersion, sqliteStores.apiKeys);
      this.unsubscribe.push(sqliteStores.orders.onWrite((id) => this.orderWritten(id)));
    }
    // Another connection's or node's commit may have changed or revoked any key (on PostgreSQL: a
    // configuration commit, postgres/config-tables.ts; an order changes no key).
    this.unsubscribe.push(this.commits.onKeysChange(() => this.verifiedKeys.clear()));
  }

  /** The SQLite connection (a hub's file): the SQLite-only parts (backups, checkpoints, checks) use it. */
  get db(): Database {
    return this.sqliteState('the database file').db;
  }

  /** The SQLite gateways (stores.ts), built from `db`: synchronous, for the engine itself and tests. */
  get sqliteStores(): Stores {
    return this.sqliteState('the synchronous SQLite stores').stores;
  }

  /** Changes when another connection commits (store/data-version.ts). */
  get dataVersion(): DataVersion {
    return this.sqliteState('PRAGMA data_version').dataVersion;
  }

  /** Whether the engine still serves (not closed): background work stops once it is not. */
  get isOpen(): boolean {
    return this.sqlite ? this.sqlite.db.open : !this.closed;
  }

  private sqliteState(what: string): SqliteState {
    if (!this.sqlite) throw new SqliteOnly(what);
    return this.sqlite;
  }

  /**
   * Calls `listener` with an order's id each time this engine writes that order (null: possibly any
   * order), in the write's transaction (before its commit); returns its removal. Another node's or
   * process's commits reach caches through `commits` instead.
   */
  onOrderWrite(listener: OrderWriteListener): () => void {
    this.orderWriteListeners.add(listener);
    return () => this.orderWriteListeners.delete(listener);
  }

  private orderWritten(id: string | null): void {
    for (const listener of this.orderWriteListeners) listener(id);
  }

  /**
   * Runs `work` in one transaction, handing it the transaction: its stores, its clock, its pending
   * notifications. Waiters on the change feed are woken only after the commit.
   *
   * On SQLite (IMMEDIATE, so a write never upgrades a read lock and fails half-way) the process-wide
   * lock is held from BEGIN to COMMIT (or ROLLBACK), in arrival order: while `work` awaits its stores
   * no other transaction or read of this process runs on the connection. `work` awaits the database
   * only: one still pending once the microtasks have run (a timer, the network, or a transaction
   * opened inside it, which would wait for this one forever) is rolled back and refused with
   * TransactionEscaped. A use case called inside another's takes the caller's handle (`within`,
   * `tx.savepoint`), never calls this again.
   *
   * On PostgreSQL (issue 34) it runs on a pooled connection, READ COMMITTED, through runTransaction
   * (rerun whole after a deadlock, a serialization failure or a failover); transactions of this
   * process run side by side. After the commit every node is told (NOTIFY), so its waiters wake and
   * its caches drop.
   */
  async transaction<T>(work: TransactionWork<T, WriteTransaction>): Promise<T> {
    if (this.damaged) throw new ApiError('storage_damaged', `${this.damaged}; no change is saved until it is restored`);
    if (this.postgres) return await this.postgresTransaction(this.postgres, work);
    const sqlite = this.sqlite!;
    // The process lock is let go between tries: while another process holds the file, this
    // process's reads (the screens, GETs) go on.
    return await this.otherWriters.retry(() =>
      sqlite.lock.hold(async () => {
        // A fresh handle for each attempt: what a rolled-back attempt meant to announce is dropped with it.
        const [result, committed] = await this.withFullDiskRetry(async () => await this.attempt(sqlite, work));
        // Still under the lock: the kept load hears the commits in their order, before anyone reads after them.
        if (committed.kitchenLineWrites().length > 0) this.kitchenLinesCommitted(committed.kitchenLineWrites());
        for (const restaurantId of committed.committedNotifications()) this.notifier.notify(restaurantId);
        for (const listener of this.commitListeners) listener();
        return result;
      }),
    );
  }

  /**
   * Runs `work` as background work (the jobs' database pass): a transaction or read of it that
   * finds another process holding the file is refused at once (OtherProcessWriting, a 503
   * storage_unavailable) instead of waiting; the work runs again on the next tick. On PostgreSQL
   * it changes nothing.
   */
  async inBackground<T>(work: () => Promise<T>): Promise<T> {
    return await withoutWaiting(work);
  }

  /** SQLite: this engine's writes and reads waiting now for another process to let the file go. */
  get waitingForOtherWriter(): number {
    return this.otherWriters.waiting;
  }

  private async attempt<T>(sqlite: SqliteState, work: TransactionWork<T, WriteTransaction>): Promise<[T, WriteTransaction]> {
    const tx = new WriteTransaction(this.stores, this.clock, sqliteConnection(sqlite));
    try {
      sqlite.beginWrite.run();
    } catch (error) {
      // Another process holds the write lock: nothing ran, so the write may simply be tried again.
      throw isSqliteBusy(error) ? new FileBusy(error) : error;
    }
    sqlite.open = tx;
    this.openWrites += 1;
    try {
      const value = await guard(work(tx));
      sqlite.commitWrite.run();
      return [value, tx];
    } catch (error) {
      if (sqlite.db.inTransaction) sqlite.rollbackWrite.run();
      throw error;
    } finally {
      sqlite.open = null;
      this.openWrites -= 1;
    }
  }

  private async postgresTransaction<T>(storage: PostgresStorage, work: TransactionWork<T, WriteTransaction>): Promise<T> {
    let keyed = false; // issue 35: a write that claimed its Idempotency-Key may rerun after a COMMIT of unknown outcome
    let committed!: WriteTransaction;
    let wroteConfig = () => false;
    this.openWrites += 1;
    let result: T;
    try {
      result = await this.connections!.through(async () => await runTransaction(
        storage.pool,
        async (pooled) => {
          // A fresh handle for each attempt: what a rolled-back attempt meant to announce is dropped with it.
          const client = new TransactionClient(pooled);
          wroteConfig = () => client.wroteConfig;
          const held = new Set<string>();
          const connection: TransactionConnection = {
            // SAVEPOINT and RELEASE answer nothing the work reads: sent without waiting. A statement of
            // the savepoint that failed unawaited fails the transaction at its COMMIT all the same
            // (its error carried): a refusal the savepoint answers is an ApiError thrown by the work
            // itself, never a statement's. ROLLBACK TO is awaited: the work goes on after it.
            exec: async (sql) => (sql.startsWith('ROLLBACK') ? void (await client.query(sql)) : client.send(sql)),
            canRollBack: () => true,
            takeRestaurant: async (restaurantId) => {
              if (held.has(restaurantId)) return;
              held.add(restaurantId);
              // Sent, not awaited: on the pipelining connection what the work sends next (the key's
              // claim, its reads) goes out behind the row's take and runs after it, so it is taken
              // first all the same, a round trip sooner. Should the take fail (a lock timeout), the
              // next statement awaited throws its error (postgres/abort-cause.ts). The kept tables'
              // number goes out behind the row: what the work reads of them is as new as the row's
              // take (postgres/config-cache.ts); its own error is carried the same way.
              client.send(TAKE_KNOWN_CLOCK_SQL, [restaurantId]);
              client.configVersion().catch(() => {});
            },
            claimIdempotencyKey: async (request) => {
              keyed = true;
              return await claimIdempotencyKey(client, request);
            },
            heldRestaurants: () => [...held],
          };
          const stores = withKeptConfig(this.postgresStoresOn(client, (restaurantId) => tx.notify(restaurantId)), this.configCache, client);
          const tx: WriteTransaction = new WriteTransaction(stores, this.clock, connection);
          const value = await work(tx);
          committed = tx;
          return value;
        },
        { rerunAfterUnknownCommit: () => keyed },
      ));
    } finally {
      this.openWrites -= 1;
    }
    // After the commit: this node's waiters and caches at once, the other nodes' by NOTIFY.
    const fed = committed.committedNotifications();
    for (const restaurantId of fed) storage.announce(restaurantId, 'feed');
    const dataOnly = committed.heldRestaurants().filter((restaurantId) => !fed.includes(restaurantId));
    for (const restaurantId of dataOnly) storage.announce(restaurantId, 'data');
    if (fed.length === 0 && dataOnly.length === 0) storage.announce(SOME_RESTAURANT, 'data');
    // A table every node keeps was written (postgres/config-tables.ts): each drops what it kept.
    if (wroteConfig()) {
      const held = committed.heldRestaurants();
      for (const restaurantId of held.length > 0 ? held : [SOME_RESTAURANT]) storage.announce(restaurantId, 'config');
    }
    for (const listener of this.commitListeners) listener();
    return result;
  }

  /** The registry's twins on `db` (a transaction's client, or the pool for lone reads). */
  private postgresStoresOn(db: PostgresQueryable, eventAppended: ((restaurantId: string) => void) | null): AsyncStores {
    const stores = postgresStores(db, {
      orderNumberPrefix: this.role === 'replica' ? 'L' : '',
      // A lone write on the pool is committed at once: its restaurant is woken at once.
      eventAppended: eventAppended ?? ((restaurantId) => this.postgres?.announce(restaurantId, 'feed')),
    });
    stores.orders.onWrite((id) => this.orderWritten(id));
    return stores;
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
    const open = this.sqlite?.open;
    if (open) open.notify(restaurantId);
    else this.notifier.notify(restaurantId);
  }

  /**
   * A store's write to the kitchen's open or held lines (SQLite): inside a write transaction it is
   * kept by that transaction until it commits (dropped with it, or with its savepoint); outside one
   * the statement was committed on its own, so it is heard now.
   */
  private kitchenLineWritten(write: KitchenLineWrite): void {
    const open = this.sqlite?.open;
    if (open) open.kitchenLineWritten(write);
    else this.kitchenLinesCommitted([write]);
  }

  private kitchenLinesCommitted(writes: readonly KitchenLineWrite[]): void {
    for (const listener of this.kitchenLineListeners) listener(writes);
  }

  /**
   * Calls `listener` with this engine's writes to the kitchen's open and held lines once committed,
   * commit by commit in their order (a write rolled back, whole or to its savepoint, is never heard);
   * returns its removal. SQLite only: on PostgreSQL other nodes write the same lines, and nothing is
   * told here (services/kitchen/kept-kitchen-lines.ts reads them there). Another connection's
   * commits are not heard either: they move `commits`.
   */
  onKitchenLinesCommitted(listener: (writes: readonly KitchenLineWrite[]) => void): () => void {
    this.kitchenLineListeners.add(listener);
    return () => this.kitchenLineListeners.delete(listener);
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
    if (this.postgres) {
      // On a pooled connection of its own, side by side with this process's other transactions.
      const pool = this.postgres.pool;
      return await this.connections!.through(
        async () => await runTransaction(pool, async (pooled) => {
          const client = new TransactionClient(pooled);
          return await work({ stores: withKeptConfig(this.postgresStoresOn(client, null), this.configCache, client), clock: this.clock });
        }),
      );
    }
    const sqlite = this.sqlite!;
    return await this.otherWriters.retry(() =>
      sqlite.lock.hold(async () => {
        sqlite.beginRead.run();
        let result: T;
        try {
          result = await guard(work(sqlite.readHandle));
        } catch (error) {
          if (sqlite.db.inTransaction) sqlite.rollbackRead.run();
          // A reader meets SQLITE_BUSY only while another process recovers the log (after a crash):
          // it only read, so it is read again once that is over.
          throw isSqliteBusy(error) ? new FileBusy(error) : error;
        }
        sqlite.commitRead.run();
        return result;
      }),
    );
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
    return this.openWrites > 0;
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
    if (!this.diskFull || !this.sqlite?.db.open) return this.diskFull;
    try {
      await this.transaction(async () => this.db.pragma('application_id = ' + String(this.db.pragma('application_id', { simple: true }))));
    } catch (error) {
      // Another process holding the file says nothing of the disk: asked again on the next heartbeat.
      if (error instanceof OtherProcessWriting) return this.diskFull;
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
    if (!this.sqlite) throw new Error('unreachable: a full disk is SQLite\'s');
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
   * On PostgreSQL use `shutdown` (its writes are async); here the node is only stopped.
   */
  close(): void {
    if (!this.sqlite) {
      void this.shutdown();
      return;
    }
    const { db, lock, stores } = this.sqlite;
    if (!db.open) return;
    const open = lock.busy;
    // Closing, nothing else is served: the last writes may wait for another process, inside SQLite.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    try {
      const pending = open ? [] : this.verifiedKeys.pending();
      if (pending.length > 0) {
        db.transaction(() => {
          for (const [keyId, at] of pending) stores.apiKeys.touch(keyId, at);
        }).immediate();
      }
    } catch {
      // A key's last use is worth less than closing: it is lost, as with a crash.
    }
    try {
      const refusals = open ? [] : this.busyRefusals.take();
      if (refusals.length > 0) {
        db.transaction(() => {
          for (const entry of refusals) stores.busyRefusals.add(entry);
        }).immediate();
      }
    } catch {
      // Likewise a refusal's record.
    }
    this.stop();
    db.close();
  }

  /** Closes the engine on either database: on PostgreSQL the key uses and refusals are written, then the node stops. */
  async shutdown(): Promise<void> {
    if (!this.postgres) {
      this.close();
      return;
    }
    if (this.closed) return;
    this.closed = true;
    try {
      await this.flushKeyUses();
      await this.flushBusyRefusals();
    } catch {
      // As on SQLite: lost, as with a crash.
    }
    this.stop();
    await this.postgres.close();
  }

  private stop(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.commits.stop();
  }
}

/** The SQLite engine's connection and what it prepared on it. */
interface SqliteState {
  readonly db: Database;
  readonly stores: Stores;
  readonly dataVersion: DataVersion;
  /** Held from BEGIN to COMMIT/ROLLBACK by every transaction and read: one at a time on the one connection. */
  readonly lock: ProcessLock;
  /** The write transaction open now, if any (a handle, not a depth: see `transaction`). */
  open: WriteTransaction | null;
  readonly readHandle: ReadTransaction;
  readonly beginWrite: Statement;
  readonly commitWrite: Statement;
  readonly rollbackWrite: Statement;
  readonly beginRead: Statement;
  readonly commitRead: Statement;
  readonly rollbackRead: Statement;
}

function isPostgres(database: EngineOptions['database']): database is PostgresDatabase {
  return typeof database === 'object' && 'postgres' in database;
}

/**
 * A SQLite write's connection: the process lock already orders every write, so the restaurant needs
 * no row of its own, and a key's record is looked up (its answer saved with the work's).
 */
function sqliteConnection(sqlite: SqliteState): TransactionConnection {
  return {
    exec: async (sql) => void sqlite.db.exec(sql),
    // A failure SQLite already rolled back whole (a full disk) left no savepoint to go back to.
    canRollBack: () => sqlite.db.inTransaction,
    takeRestaurant: async () => {},
    claimIdempotencyKey: async (request: IdempotencyClaimRequest): Promise<IdempotencyClaim> => {
      const stored = sqlite.stores.idempotency.get(request.apiKeyId, request.key, request.notOlderThan);
      return stored ? { kind: 'answered', stored } : { kind: 'claimed', request };
    },
    heldRestaurants: () => [],
  };
}
