// Issue 34: the storage port on PostgreSQL, SQL written for it, READ COMMITTED. Several nodes (each
// its own pool, its own LISTEN connection) on one database behave as one:
// - every write takes its restaurant's clock row first (an upsert, so it is locked to the commit):
//   the restaurant's writes commit one after another, and the feed's sequence and the order numbers
//   the row hands out are gapless and in commit order;
// - an Idempotency-Key is claimed first (INSERT … ON CONFLICT … RETURNING): a second transaction
//   with the same key waits for the first and then reads its answer;
// - the stock take is conditional (`quantity >= n`), which PostgreSQL re-checks on the newest row;
// - NOTIFY goes out after every commit, heard by every node's LISTEN connection, and every node
//   re-polls the clock rows, so a lost notification only delays: waiters wake, caches drop
//   (`onChange`); jobs are claimed with FOR UPDATE SKIP LOCKED and a lease.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { World } from '../../shared/world.ts';
import { ChangeNotifier, SOME_RESTAURANT } from '../change-notifier.ts';
import type { EventRow, EventWorld } from '../store/events-store.ts';
import type { ApiKeyRow } from '../store/api-keys-store.ts';
import type { StoredResponse } from '../store/idempotency-store.ts';
import type { MailRow } from '../store/mail-outbox-store.ts';
import type { OrderRow } from '../store/orders-store.ts';
import { checkLease, claimSql, finishParams, finishSql, type JobClaim, type JobOutcome, type JobQueue } from '../storage/job-queues.ts';
import { CLAIMED_STATUS, type IdempotencyClaim, type IdempotencyClaimRequest, type RestaurantWrite, type StoragePort } from '../storage/storage-port.ts';
import type { PostgresQueryable } from './stores/queryable.ts';
import { ClockWatch } from './clock-watch.ts';
import { APPEND_EVENT_SQL, LAST_EVENT_SEQ_SQL, TAKE_CLOCK_SQL, TAKE_LIVE_NUMBER_SQL, TAKE_TEST_NUMBER_SQL } from './clock-sql.ts';
import { FEED_CHANNEL, FeedListener, feedPayload, type CommitKind } from './feed-listener.ts';
import { createPostgresClient, createPostgresPool } from './postgres-pool.ts';
import { READ_FEED_SQL } from './stores/events-store.ts';
import { runTransaction } from './run-transaction.ts';

export interface PostgresStorageOptions {
  connectionString: string;
  /** This node's connections (default 10). */
  poolSize?: number;
  /**
   * How long a waiter waits before looking again without a notification, and how often the node
   * re-reads the clock rows to tell caches and waiters of commits whose notification it missed (default 1 s).
   */
  rePollMs?: number;
  /** Errors no caller waits on (a dropped connection); never given a connection string. */
  onError: (error: Error) => void;
}

/** The LISTEN connection's name in pg_stat_activity: one per node, so the nodes are counted by it. */
const LISTEN_APPLICATION = 'comanda listen';

const ORDER_COLUMNS = [
  'id', 'restaurant_id', 'test', 'number', 'status', 'type', 'location_id', 'customer_name', 'customer_phone',
  'customer_email', 'address', 'notes', 'items', 'subtotal', 'shipping_fee', 'discount', 'total', 'payment_kind',
  'payment_method', 'paid', 'refunded', 'delivery_provider', 'delivery_status', 'delivery_tracking_url', 'scheduled_for',
  'stock_taken', 'managed_by', 'created_at', 'updated_at',
] as const satisfies readonly (keyof OrderRow)[];

const SQL = {
  takeClock: TAKE_CLOCK_SQL,
  claimKey: `INSERT INTO idempotency_keys (api_key_id, key, request_hash, status, body, created_at) VALUES ($1, $2, $3, $4, '', $5)
    ON CONFLICT (api_key_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
      body = excluded.body, created_at = excluded.created_at
    WHERE idempotency_keys.created_at <= $6
    RETURNING 1 AS claimed`,
  readKey: 'SELECT request_hash, status, body FROM idempotency_keys WHERE api_key_id = $1 AND key = $2',
  answer: 'UPDATE idempotency_keys SET status = $3, body = $4 WHERE api_key_id = $1 AND key = $2',
  takeLiveNumber: TAKE_LIVE_NUMBER_SQL,
  takeTestNumber: TAKE_TEST_NUMBER_SQL,
  takeStock: 'UPDATE stock SET quantity = quantity - $1 WHERE location_id = $2 AND product_id = $3 AND quantity >= $1',
  insertOrder: `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}) VALUES (${ORDER_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
  appendEvent: APPEND_EVENT_SQL,
  readFeed: READ_FEED_SQL,
  lastSeq: LAST_EVENT_SEQ_SQL,
  claimMail: `UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = $2, updated_at = $1
    WHERE id IN (
      SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= $1
      ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED
    )
    RETURNING *`,
  notify: 'SELECT pg_notify($1, $2)',
  countNodes: `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
  keyByLookup: `SELECT id, restaurant_id, lookup, salt, hash, world, can_write, kind, label, last4, created_at, last_used_at, revoked_at
    FROM api_keys WHERE lookup = $1`,
  revokeKey: 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND restaurant_id = $3 AND revoked_at IS NULL',
};

/**
 * Claims an Idempotency-Key first, in the transaction of `client` (the port's writes and the Engine's,
 * engine.ts): the key's row is written before the work, so a second transaction with the same key,
 * on any node, waits for this one and then reads its answer, instead of both missing it and both
 * doing the work.
 */
export async function claimIdempotencyKey(client: PostgresQueryable, request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
  const { apiKeyId, key, requestHash, at, notOlderThan } = request;
  const claimed = await client.query(SQL.claimKey, [apiKeyId, key, requestHash, CLAIMED_STATUS, at, notOlderThan]);
  if (claimed.rowCount === 1) return { kind: 'claimed', request };
  // Another transaction held the key: PostgreSQL waited for it to commit, so its answer is there.
  const stored = await client.query<StoredResponse>(SQL.readKey, [apiKeyId, key]);
  const row = stored.rows[0];
  if (!row) throw new Error('an idempotency key vanished between its conflict and its read');
  return { kind: 'answered', stored: row };
}

// The restaurant named in a commit's notification when it is not known (change-notifier.ts).
export { SOME_RESTAURANT };

export class PostgresStorage implements StoragePort {
  readonly kind = 'postgres';
  /** Names this node in its notifications, so it skips its own (its waiters were woken at the commit). */
  readonly nodeId = randomUUID();
  private readonly notifier = new ChangeNotifier();
  private readonly changeListeners = new Set<(restaurantId: string | null) => void>();
  private readonly configListeners = new Set<(restaurantId: string | null) => void>();
  private readonly listener: FeedListener;
  private readonly clockWatch: ClockWatch;
  private readonly rePollMs: number;
  /** This node's pool's connections (`poolSize`, default 10). */
  readonly poolSize: number;
  private closing: Promise<void> | null = null;

  private constructor(
    readonly pool: pg.Pool,
    options: PostgresStorageOptions,
  ) {
    this.rePollMs = options.rePollMs ?? 1_000;
    this.poolSize = options.poolSize ?? 10;
    this.listener = new FeedListener(
      this.nodeId,
      () => createPostgresClient({ connectionString: options.connectionString, applicationName: LISTEN_APPLICATION, onError: options.onError }),
      (restaurantId, kind) => (restaurantId === null ? this.wakeAll() : this.wake(restaurantId, kind)),
      options.onError,
    );
    this.clockWatch = new ClockWatch(pool, this.rePollMs, (restaurantId, kind) => (restaurantId === null ? this.wake(SOME_RESTAURANT, kind) : this.wake(restaurantId, kind)), options.onError);
  }

  /** A node: its pool and its LISTEN connection (the schema must be migrated: migratePostgres). */
  static async open(options: PostgresStorageOptions): Promise<PostgresStorage> {
    const pool = createPostgresPool({ connectionString: options.connectionString, max: options.poolSize ?? 10, onError: options.onError });
    const storage = new PostgresStorage(pool, options);
    try {
      await storage.listener.start();
      await storage.clockWatch.start();
    } catch (error) {
      await storage.close();
      throw error;
    }
    return storage;
  }

  async write<T>(restaurantId: string, work: (tx: RestaurantWrite) => Promise<T>): Promise<T> {
    let keyed = false; // issue 35: a write that claimed its Idempotency-Key may rerun after a COMMIT of unknown outcome
    let keysChanged = false;
    const { result, appended } = await runTransaction(this.pool, async (client) => {
      keysChanged = false;
      // Not awaited before the work: on the pipelining connection the work's statements go out
      // behind it and run after it, so the clock row is still taken first, a round trip sooner.
      const clock = client.query(SQL.takeClock, [restaurantId]);
      let appended = false;
      const tx = this.restaurantWrite(client, restaurantId, () => (appended = true), () => (keysChanged = true));
      const claim = tx.claimIdempotencyKey;
      const [, result] = await Promise.all([clock, work({ ...tx, claimIdempotencyKey: (request) => ((keyed = true), claim(request)) })]);
      return { result, appended: () => appended };
    }, { rerunAfterUnknownCommit: () => keyed });
    // A key revoked: every node drops the keys it verified (config-tables.ts); 'config' tells the caches as 'data' does.
    if (appended()) this.announce(restaurantId, 'feed');
    if (keysChanged) this.announce(restaurantId, 'config');
    else if (!appended()) this.announce(restaurantId, 'data');
    return result;
  }

  private restaurantWrite(client: pg.PoolClient, restaurantId: string, appended: () => void, keysChanged: () => void): RestaurantWrite {
    return {
      restaurantId,
      claimIdempotencyKey: async (request) => await claimIdempotencyKey(client, request),
      recordAnswer: async (claim, status, body) => {
        await client.query(SQL.answer, [claim.request.apiKeyId, claim.request.key, status, body]);
      },
      takeOrderNumber: async (test) => {
        const { rows } = await client.query<{ n: number }>(test ? SQL.takeTestNumber : SQL.takeLiveNumber, [restaurantId]);
        if (!rows[0]) throw new Error(`restaurant ${restaurantId} has no clock row`);
        return `${test ? 'T' : ''}${rows[0].n}`;
      },
      tryTakeStock: async (locationId, productId, amount) =>
        (await client.query(SQL.takeStock, [amount, locationId, productId])).rowCount === 1,
      insertOrder: async (row) => {
        await client.query(SQL.insertOrder, ORDER_COLUMNS.map((column) => row[column]));
      },
      revokeApiKey: async (keyId, at) => {
        keysChanged();
        return (await client.query(SQL.revokeKey, [at, keyId, restaurantId])).rowCount === 1;
      },
      appendEvent: async (world: EventWorld, type, createdAt, data) => {
        const { rows } = await client.query<{ seq: number }>(SQL.appendEvent, [restaurantId, world, type, createdAt, JSON.stringify(data)]);
        appended();
        return rows[0]!.seq;
      },
    };
  }

  async readFeed(restaurantId: string, world: World, afterSeq: number, limit: number): Promise<EventRow[]> {
    return (await this.pool.query<EventRow>(SQL.readFeed, [restaurantId, afterSeq, world, limit])).rows;
  }

  async lastFeedSeq(restaurantId: string): Promise<number> {
    const { rows } = await this.pool.query<{ last_event_seq: number }>(SQL.lastSeq, [restaurantId]);
    return rows[0]?.last_event_seq ?? 0;
  }

  async findApiKey(lookup: string): Promise<ApiKeyRow | undefined> {
    return (await this.pool.query<ApiKeyRow>(SQL.keyByLookup, [lookup])).rows[0];
  }

  waitForChange(restaurantId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.notifier.waitForChange(restaurantId, Math.min(timeoutMs, this.rePollMs), signal);
  }

  async nodeCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(SQL.countNodes, [LISTEN_APPLICATION]);
    // This node's own LISTEN connection may be reconnecting: it still counts.
    return Math.max(1, rows[0]?.n ?? 0);
  }

  onChange(listener: (restaurantId: string | null) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Calls `listener` after every commit that wrote a table nodes keep in memory (config-tables.ts), on
   * any node: this one's at once, another's by its NOTIFY or the re-poll (which sees the kept tables'
   * number move: then with null, as when LISTEN came back and what was missed is unknown).
   */
  onConfigChange(listener: (restaurantId: string | null) => void): () => void {
    this.configListeners.add(listener);
    return () => this.configListeners.delete(listener);
  }

  async claimDueMail(now: number, leaseUntil: number, limit: number): Promise<MailRow[]> {
    return runTransaction(this.pool, async (client) => (await client.query<MailRow>(SQL.claimMail, [now, leaseUntil, limit])).rows);
  }

  async claimJobs(queue: JobQueue, now: number, leaseUntil: number, limit: number): Promise<JobClaim[]> {
    checkLease(now, leaseUntil);
    // One statement: its own transaction, the rows it picks locked until it commits.
    const { rows } = await this.pool.query<{ id: number | string }>(claimSql(queue, '$'), [now, leaseUntil, limit]);
    return rows.map((row) => ({ queue, id: String(row.id), leaseUntil }));
  }

  async finishJob(claim: JobClaim, outcome: JobOutcome, at: number): Promise<boolean> {
    return (await this.pool.query(finishSql(claim.queue, outcome.kind, '$'), finishParams(claim, outcome, at))).rowCount === 1;
  }

  /** Stops the LISTEN connection and the pool; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.listener.stop();
      await this.clockWatch.stop();
      await this.pool.end();
    })();
    return this.closing;
  }

  /** After the commit: this node's waiters and caches at once, the other nodes' through NOTIFY. */
  announce(restaurantId: string, kind: CommitKind): void {
    this.wake(restaurantId, kind);
    this.pool.query(SQL.notify, [FEED_CHANNEL, feedPayload(this.nodeId, restaurantId, kind)]).catch(() => {
      // A lost notification only delays the other nodes' waiters until their re-poll.
    });
  }

  private wake(restaurantId: string, kind: CommitKind): void {
    if (kind === 'feed') this.notifier.notify(restaurantId);
    if (kind === 'config') this.configChanged(restaurantId);
    for (const listener of [...this.changeListeners]) listener(restaurantId);
  }

  /** SOME_RESTAURANT (or null): which restaurant is not known, so every one's kept rows go. */
  private configChanged(restaurantId: string | null): void {
    for (const listener of [...this.configListeners]) listener(restaurantId);
  }

  private wakeAll(): void {
    this.notifier.notifyAll();
    this.configChanged(null);
    for (const listener of [...this.changeListeners]) listener(null);
  }
}
