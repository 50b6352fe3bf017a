// Issue 34: the storage port on SQLite, the hub's database. Today's stores (prepared statements,
// BEGIN IMMEDIATE) behind one process-wide async lock held from BEGIN to COMMIT: with the port's
// awaits, another request could otherwise run its statements, or read, inside this transaction. SQLite has
// one writer, so the feed's AUTOINCREMENT sequence is already in commit order and the restaurant's
// row hands out the order numbers as today.
import type { Database, Statement } from 'better-sqlite3';
import type { World } from '../../shared/world.ts';
import { ChangeNotifier } from '../change-notifier.ts';
import { ApiKeysStore, type ApiKeyRow } from '../store/api-keys-store.ts';
import { EventsStore, type EventRow, type EventWorld } from '../store/events-store.ts';
import { IdempotencyStore } from '../store/idempotency-store.ts';
import { MailOutboxStore, type MailRow } from '../store/mail-outbox-store.ts';
import { OrdersStore, type OrderRow } from '../store/orders-store.ts';
import { RestaurantsStore } from '../store/restaurants-store.ts';
import { StockStore } from '../store/stock-store.ts';
import { checkLease, claimSql, finishParams, finishSql, sqliteParams, type JobClaim, type JobOutcome, type JobQueue } from './job-queues.ts';
import { ProcessLock } from '../process-lock.ts';
import { CLAIMED_STATUS, type IdempotencyClaim, type IdempotencyClaimRequest, type RestaurantWrite, type StoragePort } from './storage-port.ts';
import { worldOf } from '../../shared/world.ts';

export class SqliteStorage implements StoragePort {
  readonly kind = 'sqlite';
  private readonly lock = new ProcessLock();
  private readonly notifier = new ChangeNotifier();
  private readonly changeListeners = new Set<(restaurantId: string | null) => void>();
  private readonly apiKeys: ApiKeysStore;
  private readonly events: EventsStore;
  private readonly idempotency: IdempotencyStore;
  private readonly mail: MailOutboxStore;
  private readonly orders: OrdersStore;
  private readonly restaurants: RestaurantsStore;
  private readonly stock: StockStore;
  /** Restaurants whose feed the open transaction appended to (the lock allows one at a time). */
  private readonly touched = new Set<string>();
  private readonly jobStatements = new Map<string, Statement>();

  constructor(private readonly db: Database) {
    this.apiKeys = new ApiKeysStore(db);
    this.events = new EventsStore(db, (restaurantId) => this.touched.add(restaurantId));
    this.idempotency = new IdempotencyStore(db);
    this.mail = new MailOutboxStore(db);
    this.orders = new OrdersStore(db);
    this.restaurants = new RestaurantsStore(db);
    this.stock = new StockStore(db);
  }

  write<T>(restaurantId: string, work: (tx: RestaurantWrite) => Promise<T>): Promise<T> {
    return this.lock.hold(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      let result: T;
      try {
        if (!this.restaurants.get(restaurantId)) throw new Error(`no restaurant ${restaurantId}`);
        result = await work(this.restaurantWrite(restaurantId));
        this.db.exec('COMMIT');
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        this.touched.clear();
        throw error;
      }
      const woken = [...this.touched];
      this.touched.clear();
      for (const touched of woken) this.notifier.notify(touched);
      for (const listener of [...this.changeListeners]) listener(restaurantId);
      return result;
    });
  }

  private restaurantWrite(restaurantId: string): RestaurantWrite {
    return {
      restaurantId,
      claimIdempotencyKey: async (request: IdempotencyClaimRequest): Promise<IdempotencyClaim> => {
        const stored = this.idempotency.get(request.apiKeyId, request.key, request.notOlderThan);
        if (stored) return { kind: 'answered', stored };
        this.idempotency.save(request.apiKeyId, request.key, request.requestHash, CLAIMED_STATUS, '', request.at);
        return { kind: 'claimed', request };
      },
      recordAnswer: async (claim, status, body) => {
        const { apiKeyId, key, requestHash, at } = claim.request;
        this.idempotency.save(apiKeyId, key, requestHash, status, body, at);
      },
      takeOrderNumber: async (test) => this.restaurants.takeOrderNumber(restaurantId, worldOf(test)),
      tryTakeStock: async (locationId, productId, amount) => this.stock.tryTake(locationId, productId, amount),
      insertOrder: async (row: OrderRow) => this.orders.insert(row),
      revokeApiKey: async (keyId, at) => this.apiKeys.revoke(restaurantId, keyId, at),
      appendEvent: async (world: EventWorld, type, createdAt, data) => this.events.append(restaurantId, world, type, createdAt, data),
    };
  }

  // Reads take the lock too: on this one connection, a read between another use case's BEGIN and
  // COMMIT would see what that use case has not committed (and may roll back).
  readFeed(restaurantId: string, world: World, afterSeq: number, limit: number): Promise<EventRow[]> {
    return this.lock.hold(async () => this.events.list(restaurantId, world, afterSeq, limit));
  }

  findApiKey(lookup: string): Promise<ApiKeyRow | undefined> {
    return this.lock.hold(async () => this.apiKeys.findByLookup(lookup));
  }

  lastFeedSeq(restaurantId: string): Promise<number> {
    return this.lock.hold(async () => this.events.lastSeq(restaurantId));
  }

  waitForChange(restaurantId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.notifier.waitForChange(restaurantId, timeoutMs, signal);
  }

  /** The hub is one process on its file (the serving lock keeps a second one out). */
  async nodeCount(): Promise<number> {
    return 1;
  }

  onChange(listener: (restaurantId: string | null) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  claimDueMail(now: number, leaseUntil: number, limit: number): Promise<MailRow[]> {
    return this.lock.hold(async () =>
      this.db.transaction(() =>
        this.mail
          .due(now, limit)
          .filter((id) => this.mail.claim(id, now, leaseUntil))
          .map((id) => this.mail.get(id)!),
      ).immediate(),
    );
  }

  claimJobs(queue: JobQueue, now: number, leaseUntil: number, limit: number): Promise<JobClaim[]> {
    checkLease(now, leaseUntil);
    return this.lock.hold(async () => {
      const claim = this.statement(claimSql(queue, '@'));
      const rows = this.db.transaction(() => claim.all(sqliteParams([now, leaseUntil, limit])) as { id: number | string }[]).immediate();
      return rows.map((row) => ({ queue, id: String(row.id), leaseUntil }));
    });
  }

  finishJob(claim: JobClaim, outcome: JobOutcome, at: number): Promise<boolean> {
    return this.lock.hold(async () => this.statement(finishSql(claim.queue, outcome.kind, '@')).run(sqliteParams(finishParams(claim, outcome, at))).changes === 1);
  }

  /** The job queues' statements, prepared once each (a handful: three queues, a claim and three finishes). */
  private statement(sql: string): Statement {
    let statement = this.jobStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.jobStatements.set(sql, statement);
    }
    return statement;
  }

  async close(): Promise<void> {
    await this.lock.hold(async () => this.db.close());
  }
}
