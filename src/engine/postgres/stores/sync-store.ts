// Issue 34: SyncStore (store/sync-store.ts) on PostgreSQL: a replica's outbox, conflicts, aliases
// and sync state, the same statements with `RETURNING` for the ids SQLite takes from the rowid. A
// replica has one pusher (its sync loop), so the outbox is not claimed: its rows are read and then
// marked by seq, as on SQLite. Conflicts' kinds (divergences) are the SQLite store's.
import type { AsyncStore } from '../../store/async-store.ts';
import type { ConflictRow, OutboxKind, OutboxRow, SyncStore, UnresolvedConflict } from '../../store/sync-store.ts';
import { firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const DIVERGENCE_KIND = 'order_divergence';
const ITEMS_DIVERGENCE_KIND = 'items_divergence';
const STOCK_DIVERGENCE_KIND = 'stock_divergence';
/** `outbox_seq` of a conflict no queued change caused (a divergence). */
const NO_OUTBOX_CHANGE = 0;

const SQL = {
  getState: 'SELECT value FROM sync_state WHERE key = $1',
  putState: 'INSERT INTO sync_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  insertOutbox: `INSERT INTO sync_outbox (idempotency_key, kind, payload, order_id, location_id, created_at)
    VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq`,
  nextPending: "SELECT * FROM sync_outbox WHERE status = 'pending' ORDER BY seq LIMIT 1",
  firstPending: "SELECT * FROM sync_outbox WHERE status = 'pending' ORDER BY seq LIMIT $1",
  pendingCount: "SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending'",
  // An item bump is kitchen data: it never holds back the order's own updates from upstream.
  pendingForOrder: "SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending' AND order_id = $1 AND kind <> 'set_item_done'",
  pendingStockAt: "SELECT * FROM sync_outbox WHERE status = 'pending' AND kind = 'set_stock' AND location_id = $1 ORDER BY seq",
  pendingOpenCloseAt: "SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending' AND kind = 'set_location_open' AND location_id = $1",
  laterForOrder: "SELECT * FROM sync_outbox WHERE status = 'pending' AND order_id = $1 AND seq > $2 ORDER BY seq",
  pendingCreates: "SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending' AND kind = 'create_order'",
  markSent: "UPDATE sync_outbox SET status = 'sent', sent_at = $1, attempts = attempts + 1 WHERE seq = $2",
  markConflict: "UPDATE sync_outbox SET status = 'conflict', last_error = $1, attempts = attempts + 1 WHERE seq = $2",
  recordAttempt: 'UPDATE sync_outbox SET attempts = attempts + 1, last_error = $1 WHERE seq = $2',
  insertConflict: `INSERT INTO sync_conflicts (outbox_seq, kind, order_id, local_change, upstream_error, upstream_state, created_at, resolved_at, next_attempt_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
  dueConflicts: `SELECT c.*, o.kind AS outbox_kind, o.order_id AS outbox_order_id, o.location_id AS outbox_location_id, o.payload AS outbox_payload
    FROM sync_conflicts c JOIN sync_outbox o ON o.seq = c.outbox_seq
    WHERE c.resolved_at IS NULL AND c.next_attempt_at <= $1 ORDER BY c.id`,
  unresolvedCount: 'SELECT COUNT(*) AS n FROM sync_conflicts WHERE resolved_at IS NULL',
  markResolved: 'UPDATE sync_conflicts SET upstream_state = $1, resolved_at = $2, resolve_attempts = resolve_attempts + 1 WHERE id = $3',
  markResolveFailed: 'UPDATE sync_conflicts SET last_error = $1, next_attempt_at = $2, resolve_attempts = resolve_attempts + 1 WHERE id = $3',
  lastDivergence: `SELECT * FROM sync_conflicts WHERE kind = '${DIVERGENCE_KIND}' AND order_id = $1 ORDER BY id DESC LIMIT 1`,
  lastItemsDivergence: `SELECT * FROM sync_conflicts WHERE kind = '${ITEMS_DIVERGENCE_KIND}' AND order_id = $1 ORDER BY id DESC LIMIT 1`,
  updatePayload: "UPDATE sync_outbox SET payload = $1 WHERE seq = $2 AND status = 'pending'",
  pendingKitchenData: "SELECT DISTINCT order_id FROM sync_outbox WHERE status = 'pending' AND kind IN ('set_item_done', 'recall_order') AND order_id IS NOT NULL",
  allConflicts: 'SELECT * FROM sync_conflicts ORDER BY id DESC LIMIT 100',
  insertAlias: 'INSERT INTO order_id_aliases (local_id, upstream_id) VALUES ($1, $2) ON CONFLICT (local_id) DO UPDATE SET upstream_id = excluded.upstream_id',
  aliasOf: 'SELECT upstream_id FROM order_id_aliases WHERE local_id = $1',
  renameInOutbox: 'UPDATE sync_outbox SET order_id = $1 WHERE order_id = $2',
};

const jsonOrNull = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

export class PostgresSyncStore implements AsyncStore<SyncStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async state(key: string): Promise<string | undefined> {
    return (await firstRow<{ value: string }>(this.db, SQL.getState, [key]))?.value;
  }

  async setState(key: string, value: string): Promise<void> {
    await this.db.query(SQL.putState, [key, value]);
  }

  async append(idempotencyKey: string, kind: OutboxKind, payload: unknown, refs: { orderId?: string; locationId?: string }, at: number): Promise<number> {
    return this.returned('seq', SQL.insertOutbox, [idempotencyKey, kind, JSON.stringify(payload), refs.orderId ?? null, refs.locationId ?? null, at]);
  }

  nextToPush(): Promise<OutboxRow | undefined> {
    return firstRow<OutboxRow>(this.db, SQL.nextPending);
  }

  firstToPush(limit: number): Promise<OutboxRow[]> {
    return rowsOf<OutboxRow>(this.db, SQL.firstPending, [limit]);
  }

  pending(): Promise<number> {
    return this.count(SQL.pendingCount, []);
  }

  async hasPendingForOrder(orderId: string): Promise<boolean> {
    return (await this.count(SQL.pendingForOrder, [orderId])) > 0;
  }

  async hasPendingOpenClose(locationId: string): Promise<boolean> {
    return (await this.count(SQL.pendingOpenCloseAt, [locationId])) > 0;
  }

  pendingAfter(orderId: string, seq: number): Promise<OutboxRow[]> {
    return rowsOf<OutboxRow>(this.db, SQL.laterForOrder, [orderId, seq]);
  }

  async hasPendingCreates(): Promise<boolean> {
    return (await this.count(SQL.pendingCreates, [])) > 0;
  }

  async productsWithPendingStock(locationId: string): Promise<Set<string>> {
    const products = new Set<string>();
    for (const row of await rowsOf<OutboxRow>(this.db, SQL.pendingStockAt, [locationId])) {
      for (const item of (JSON.parse(row.payload) as { items: { product_id: string }[] }).items) products.add(item.product_id);
    }
    return products;
  }

  async sent(seq: number, at: number): Promise<void> {
    await this.db.query(SQL.markSent, [at, seq]);
  }

  async failedAttempt(seq: number, error: string): Promise<void> {
    await this.db.query(SQL.recordAttempt, [error, seq]);
  }

  async conflict(row: OutboxRow, upstreamError: unknown, upstreamState: unknown, at: number, resolved = true): Promise<number> {
    await this.db.query(SQL.markConflict, [JSON.stringify(upstreamError), row.seq]);
    return await this.recordConflict(row, row.payload, upstreamError, upstreamState, at, resolved);
  }

  recordConflict(row: OutboxRow, localChange: string, upstreamError: unknown, upstreamState: unknown, at: number, resolved = true): Promise<number> {
    return this.returned('id', SQL.insertConflict, [
      row.seq, row.kind, row.order_id, localChange, JSON.stringify(upstreamError), jsonOrNull(upstreamState), at, resolved ? at : null, resolved ? null : at,
    ]);
  }

  async closeAsConflict(seq: number, error: unknown): Promise<void> {
    await this.db.query(SQL.markConflict, [JSON.stringify(error), seq]);
  }

  async rewritePayload(seq: number, payload: string): Promise<void> {
    await this.db.query(SQL.updatePayload, [payload, seq]);
  }

  dueConflicts(now: number): Promise<UnresolvedConflict[]> {
    return rowsOf<UnresolvedConflict>(this.db, SQL.dueConflicts, [now]);
  }

  unresolvedConflicts(): Promise<number> {
    return this.count(SQL.unresolvedCount, []);
  }

  async resolved(conflictId: number, upstreamState: unknown, at: number): Promise<void> {
    await this.db.query(SQL.markResolved, [jsonOrNull(upstreamState), at, conflictId]);
  }

  async resolveFailed(conflictId: number, error: string, nextAttemptAt: number): Promise<void> {
    await this.db.query(SQL.markResolveFailed, [error, nextAttemptAt, conflictId]);
  }

  lastDivergenceOf(orderId: string): Promise<ConflictRow | undefined> {
    return firstRow<ConflictRow>(this.db, SQL.lastDivergence, [orderId]);
  }

  async divergence(orderId: string, local: unknown, upstreamError: unknown, upstreamState: unknown, at: number): Promise<void> {
    await this.db.query(SQL.insertConflict, [
      NO_OUTBOX_CHANGE, DIVERGENCE_KIND, orderId, JSON.stringify(local), JSON.stringify(upstreamError), jsonOrNull(upstreamState), at, at, null,
    ]);
  }

  async ordersWithPendingKitchenData(): Promise<Set<string>> {
    return new Set((await rowsOf<{ order_id: string }>(this.db, SQL.pendingKitchenData)).map((r) => r.order_id));
  }

  lastItemsDivergenceOf(orderId: string): Promise<ConflictRow | undefined> {
    return firstRow<ConflictRow>(this.db, SQL.lastItemsDivergence, [orderId]);
  }

  async itemsDivergence(orderId: string, local: unknown, upstreamError: unknown, upstreamState: unknown, at: number): Promise<void> {
    await this.db.query(SQL.insertConflict, [
      NO_OUTBOX_CHANGE, ITEMS_DIVERGENCE_KIND, orderId, JSON.stringify(local), JSON.stringify(upstreamError), JSON.stringify(upstreamState), at, at, null,
    ]);
  }

  async stockDivergence(local: unknown, upstreamError: unknown, upstreamState: unknown, at: number): Promise<void> {
    await this.db.query(SQL.insertConflict, [
      NO_OUTBOX_CHANGE, STOCK_DIVERGENCE_KIND, null, JSON.stringify(local), JSON.stringify(upstreamError), JSON.stringify(upstreamState), at, at, null,
    ]);
  }

  conflicts(): Promise<ConflictRow[]> {
    return rowsOf<ConflictRow>(this.db, SQL.allConflicts);
  }

  async alias(localId: string, upstreamId: string): Promise<void> {
    await this.db.query(SQL.insertAlias, [localId, upstreamId]);
    await this.db.query(SQL.renameInOutbox, [upstreamId, localId]);
  }

  async upstreamIdOf(localId: string): Promise<string | undefined> {
    return (await firstRow<{ upstream_id: string }>(this.db, SQL.aliasOf, [localId]))?.upstream_id;
  }

  private async count(sql: string, params: unknown[]): Promise<number> {
    return (await firstRow<{ n: number }>(this.db, sql, params))?.n ?? 0;
  }

  private async returned(column: 'seq' | 'id', sql: string, params: unknown[]): Promise<number> {
    const row = await firstRow<Record<typeof column, number>>(this.db, sql, params);
    if (!row) throw new Error(`no ${column} returned`);
    return row[column];
  }
}
