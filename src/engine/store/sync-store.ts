import type { Database, Statement } from 'better-sqlite3';

export type OutboxKind = 'create_order' | 'transition_order' | 'set_stock' | 'set_location_open' | 'set_item_done' | 'recall_order' | 'set_sold_out';

export interface OutboxRow {
  seq: number;
  idempotency_key: string;
  kind: OutboxKind;
  payload: string;
  order_id: string | null;
  location_id: string | null;
  status: 'pending' | 'sent' | 'conflict';
  attempts: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** A difference the periodic check found between the two sides, not a refused push. */
const DIVERGENCE_KIND = 'order_divergence';

/** An order's items' done marks the periodic check found different. */
const ITEMS_DIVERGENCE_KIND = 'items_divergence';

/** Stock quantities the periodic check found different (no order: `order_id` is null). */
const STOCK_DIVERGENCE_KIND = 'stock_divergence';

/** `outbox_seq` of a conflict no queued change caused (a divergence). */
const NO_OUTBOX_CHANGE = 0;

export interface ConflictRow {
  id: number;
  /** The refused change; NO_OUTBOX_CHANGE for a divergence. */
  outbox_seq: number;
  kind: OutboxKind | typeof DIVERGENCE_KIND | typeof STOCK_DIVERGENCE_KIND | typeof ITEMS_DIVERGENCE_KIND;
  order_id: string | null;
  local_change: string;
  upstream_error: string;
  upstream_state: string | null;
  created_at: number;
  /** When the upstream's state was put in place locally; null while it is still to be read (retried). */
  resolved_at: number | null;
  resolve_attempts: number;
  next_attempt_at: number | null;
  last_error: string | null;
}

/** A conflict whose upstream state is still to be read, with the change the upstream refused. */
export interface UnresolvedConflict extends ConflictRow {
  outbox_kind: OutboxKind;
  outbox_order_id: string | null;
  outbox_location_id: string | null;
  outbox_payload: string;
}

/** The replica's sync bookkeeping. Every write here belongs in the transaction of the change it records. */
export class SyncStore {
  private readonly getState: Statement<[string], { value: string }>;
  private readonly putState: Statement<[string, string]>;
  private readonly insertOutbox: Statement<[string, OutboxKind, string, string | null, string | null, number]>;
  private readonly nextPending: Statement<[], OutboxRow>;
  private readonly firstPending: Statement<[number], OutboxRow>;
  private readonly pendingCount: Statement<[], { n: number }>;
  private readonly pendingForOrder: Statement<[string], { n: number }>;
  private readonly pendingStockAt: Statement<[string], OutboxRow>;
  private readonly pendingOpenCloseAt: Statement<[string], { n: number }>;
  private readonly laterForOrder: Statement<[string, number], OutboxRow>;
  private readonly pendingCreates: Statement<[], { n: number }>;
  private readonly markSent: Statement<[number, number]>;
  private readonly markConflict: Statement<[string, number]>;
  private readonly recordAttempt: Statement<[string, number]>;
  private readonly insertConflict: Statement<[number, OutboxKind | typeof DIVERGENCE_KIND | typeof STOCK_DIVERGENCE_KIND | typeof ITEMS_DIVERGENCE_KIND, string | null, string, string, string | null, number, number | null, number | null]>;
  private readonly selectDueConflicts: Statement<[number], UnresolvedConflict>;
  private readonly unresolvedCount: Statement<[], { n: number }>;
  private readonly markResolved: Statement<[string | null, number, number]>;
  private readonly markResolveFailed: Statement<[string, number, number]>;
  private readonly lastDivergence: Statement<[string], ConflictRow>;
  private readonly lastItemsDivergence: Statement<[string], ConflictRow>;
  private readonly pendingKitchenData: Statement<[], { order_id: string }>;
  private readonly markOutboxConflict: Statement<[string, number]>;
  private readonly updatePayload: Statement<[string, number]>;
  private readonly allConflicts: Statement<[], ConflictRow>;
  private readonly insertAlias: Statement<[string, string]>;
  private readonly aliasOf: Statement<[string], { upstream_id: string }>;
  private readonly renameInOutbox: Statement<[string, string]>;

  constructor(db: Database) {
    this.getState = db.prepare('SELECT value FROM sync_state WHERE key = ?');
    this.putState = db.prepare(
      'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.insertOutbox = db.prepare(
      `INSERT INTO sync_outbox (idempotency_key, kind, payload, order_id, location_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.nextPending = db.prepare("SELECT * FROM sync_outbox WHERE status = 'pending' ORDER BY seq LIMIT 1");
    this.firstPending = db.prepare("SELECT * FROM sync_outbox WHERE status = 'pending' ORDER BY seq LIMIT ?");
    this.pendingCount = db.prepare("SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending'");
    // An item bump is kitchen data: it never holds back the order's own updates from upstream.
    this.pendingForOrder = db.prepare(
      "SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending' AND order_id = ? AND kind <> 'set_item_done'",
    );
    this.pendingStockAt = db.prepare(
      "SELECT * FROM sync_outbox WHERE status = 'pending' AND kind = 'set_stock' AND location_id = ? ORDER BY seq",
    );
    this.pendingOpenCloseAt = db.prepare(
      "SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending' AND kind = 'set_location_open' AND location_id = ?",
    );
    this.laterForOrder = db.prepare(
      "SELECT * FROM sync_outbox WHERE status = 'pending' AND order_id = ? AND seq > ? ORDER BY seq",
    );
    this.pendingCreates = db.prepare(
      "SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending' AND kind = 'create_order'",
    );
    this.markSent = db.prepare("UPDATE sync_outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1 WHERE seq = ?");
    this.markConflict = db.prepare(
      "UPDATE sync_outbox SET status = 'conflict', last_error = ?, attempts = attempts + 1 WHERE seq = ?",
    );
    this.recordAttempt = db.prepare('UPDATE sync_outbox SET attempts = attempts + 1, last_error = ? WHERE seq = ?');
    this.insertConflict = db.prepare(
      `INSERT INTO sync_conflicts (outbox_seq, kind, order_id, local_change, upstream_error, upstream_state, created_at, resolved_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectDueConflicts = db.prepare(
      `SELECT c.*, o.kind AS outbox_kind, o.order_id AS outbox_order_id, o.location_id AS outbox_location_id, o.payload AS outbox_payload
       FROM sync_conflicts c JOIN sync_outbox o ON o.seq = c.outbox_seq
       WHERE c.resolved_at IS NULL AND c.next_attempt_at <= ? ORDER BY c.id`,
    );
    this.unresolvedCount = db.prepare('SELECT COUNT(*) AS n FROM sync_conflicts WHERE resolved_at IS NULL');
    this.markResolved = db.prepare('UPDATE sync_conflicts SET upstream_state = ?, resolved_at = ?, resolve_attempts = resolve_attempts + 1 WHERE id = ?');
    this.markResolveFailed = db.prepare(
      'UPDATE sync_conflicts SET last_error = ?, next_attempt_at = ?, resolve_attempts = resolve_attempts + 1 WHERE id = ?',
    );
    this.lastDivergence = db.prepare(
      `SELECT * FROM sync_conflicts WHERE kind = '${DIVERGENCE_KIND}' AND order_id = ? ORDER BY id DESC LIMIT 1`,
    );
    this.updatePayload = db.prepare("UPDATE sync_outbox SET payload = ? WHERE seq = ? AND status = 'pending'");
    this.lastItemsDivergence = db.prepare(
      `SELECT * FROM sync_conflicts WHERE kind = '${ITEMS_DIVERGENCE_KIND}' AND order_id = ? ORDER BY id DESC LIMIT 1`,
    );
    this.pendingKitchenData = db.prepare(
      "SELECT DISTINCT order_id FROM sync_outbox WHERE status = 'pending' AND kind IN ('set_item_done', 'recall_order') AND order_id IS NOT NULL",
    );
    this.markOutboxConflict = db.prepare(
      "UPDATE sync_outbox SET status = 'conflict', last_error = ?, attempts = attempts + 1 WHERE seq = ?",
    );
    this.allConflicts = db.prepare('SELECT * FROM sync_conflicts ORDER BY id DESC LIMIT 100');
    this.insertAlias = db.prepare(
      'INSERT INTO order_id_aliases (local_id, upstream_id) VALUES (?, ?) ON CONFLICT (local_id) DO UPDATE SET upstream_id = excluded.upstream_id',
    );
    this.aliasOf = db.prepare('SELECT upstream_id FROM order_id_aliases WHERE local_id = ?');
    this.renameInOutbox = db.prepare('UPDATE sync_outbox SET order_id = ? WHERE order_id = ?');
  }

  state(key: string): string | undefined {
    return this.getState.get(key)?.value;
  }

  setState(key: string, value: string): void {
    this.putState.run(key, value);
  }

  append(idempotencyKey: string, kind: OutboxKind, payload: unknown, refs: { orderId?: string; locationId?: string }, at: number): number {
    return Number(
      this.insertOutbox.run(idempotencyKey, kind, JSON.stringify(payload), refs.orderId ?? null, refs.locationId ?? null, at)
        .lastInsertRowid,
    );
  }

  nextToPush(): OutboxRow | undefined {
    return this.nextPending.get();
  }

  /** The first `limit` pending changes, in queue order (the pusher picks what it sends together from them). */
  firstToPush(limit: number): OutboxRow[] {
    return this.firstPending.all(limit);
  }

  pending(): number {
    return this.pendingCount.get()!.n;
  }

  hasPendingForOrder(orderId: string): boolean {
    return this.pendingForOrder.get(orderId)!.n > 0;
  }

  hasPendingOpenClose(locationId: string): boolean {
    return this.pendingOpenCloseAt.get(locationId)!.n > 0;
  }

  /** Pending changes of the same order queued after `seq`. */
  pendingAfter(orderId: string, seq: number): OutboxRow[] {
    return this.laterForOrder.all(orderId, seq);
  }

  hasPendingCreates(): boolean {
    return this.pendingCreates.get()!.n > 0;
  }

  /** Products whose stock at the location has a local write not yet pushed. */
  productsWithPendingStock(locationId: string): Set<string> {
    const products = new Set<string>();
    for (const row of this.pendingStockAt.all(locationId)) {
      for (const item of (JSON.parse(row.payload) as { items: { product_id: string }[] }).items) products.add(item.product_id);
    }
    return products;
  }

  sent(seq: number, at: number): void {
    this.markSent.run(at, seq);
  }

  failedAttempt(seq: number, error: string): void {
    this.recordAttempt.run(error, seq);
  }

  /**
   * The upstream refused the change: the row is done (never resent) and the conflict recorded.
   * `resolved`: its state is already in place locally; otherwise it is to be read from the
   * upstream (an intent: `dueConflicts`, retried until it succeeds). Returns the conflict's id.
   */
  conflict(row: OutboxRow, upstreamError: unknown, upstreamState: unknown, at: number, resolved = true): number {
    this.markConflict.run(JSON.stringify(upstreamError), row.seq);
    return this.recordConflict(row, row.payload, upstreamError, upstreamState, at, resolved);
  }

  /** A conflict about part of a change (stock of some products), the row itself going on. */
  recordConflict(row: OutboxRow, localChange: string, upstreamError: unknown, upstreamState: unknown, at: number, resolved = true): number {
    return Number(
      this.insertConflict.run(
        row.seq,
        row.kind,
        row.order_id,
        localChange,
        JSON.stringify(upstreamError),
        upstreamState === undefined || upstreamState === null ? null : JSON.stringify(upstreamState),
        at,
        resolved ? at : null,
        resolved ? null : at,
      ).lastInsertRowid,
    );
  }

  /** Marks a row done as a conflict without recording one (its conflicts were recorded apart). */
  closeAsConflict(seq: number, error: unknown): void {
    this.markOutboxConflict.run(JSON.stringify(error), seq);
  }

  /** What is left of a pending change to send (part of it became a conflict). */
  rewritePayload(seq: number, payload: string): void {
    this.updatePayload.run(payload, seq);
  }

  /** Conflicts whose upstream state is still to be read, due at `now` (engine clock). */
  dueConflicts(now: number): UnresolvedConflict[] {
    return this.selectDueConflicts.all(now);
  }

  unresolvedConflicts(): number {
    return this.unresolvedCount.get()!.n;
  }

  resolved(conflictId: number, upstreamState: unknown, at: number): void {
    this.markResolved.run(upstreamState === undefined || upstreamState === null ? null : JSON.stringify(upstreamState), at, conflictId);
  }

  resolveFailed(conflictId: number, error: string, nextAttemptAt: number): void {
    this.markResolveFailed.run(error, nextAttemptAt, conflictId);
  }

  /** The last divergence recorded for an order, to record one difference once (not at every check). */
  lastDivergenceOf(orderId: string): ConflictRow | undefined {
    return this.lastDivergence.get(orderId);
  }

  /** Both sides of an order the periodic check found different; the caller makes the upstream's stand. */
  divergence(orderId: string, local: unknown, upstreamError: unknown, upstreamState: unknown, at: number): void {
    this.insertConflict.run(
      NO_OUTBOX_CHANGE,
      DIVERGENCE_KIND,
      orderId,
      JSON.stringify(local),
      JSON.stringify(upstreamError),
      upstreamState === undefined || upstreamState === null ? null : JSON.stringify(upstreamState),
      at,
      at,
      null,
    );
  }

  /** Orders with an item bump or a recall of ours still queued. */
  ordersWithPendingKitchenData(): Set<string> {
    return new Set(this.pendingKitchenData.all().map((r) => r.order_id));
  }

  /** The last items' difference recorded for an order. */
  lastItemsDivergenceOf(orderId: string): ConflictRow | undefined {
    return this.lastItemsDivergence.get(orderId);
  }

  /** An order's done marks the periodic check found different; the caller puts the upstream's in place. */
  itemsDivergence(orderId: string, local: unknown, upstreamError: unknown, upstreamState: unknown, at: number): void {
    this.insertConflict.run(NO_OUTBOX_CHANGE, ITEMS_DIVERGENCE_KIND, orderId, JSON.stringify(local), JSON.stringify(upstreamError), JSON.stringify(upstreamState), at, at, null);
  }

  /** Stock quantities of a location the periodic check found different; the caller puts the upstream's in place. */
  stockDivergence(local: unknown, upstreamError: unknown, upstreamState: unknown, at: number): void {
    this.insertConflict.run(NO_OUTBOX_CHANGE, STOCK_DIVERGENCE_KIND, null, JSON.stringify(local), JSON.stringify(upstreamError), JSON.stringify(upstreamState), at, at, null);
  }

  conflicts(): ConflictRow[] {
    return this.allConflicts.all();
  }

  alias(localId: string, upstreamId: string): void {
    this.insertAlias.run(localId, upstreamId);
    this.renameInOutbox.run(upstreamId, localId);
  }

  upstreamIdOf(localId: string): string | undefined {
    return this.aliasOf.get(localId)?.upstream_id;
  }
}
