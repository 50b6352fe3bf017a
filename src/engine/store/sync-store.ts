import type { Database, Statement } from 'better-sqlite3';

export type OutboxKind = 'create_order' | 'transition_order' | 'set_stock' | 'set_location_open' | 'set_item_done';

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
export const DIVERGENCE_KIND = 'order_divergence';

/** `outbox_seq` of a conflict no queued change caused (a divergence). */
export const NO_OUTBOX_CHANGE = 0;

export interface ConflictRow {
  id: number;
  /** The refused change; NO_OUTBOX_CHANGE for a divergence. */
  outbox_seq: number;
  kind: OutboxKind | typeof DIVERGENCE_KIND;
  order_id: string | null;
  local_change: string;
  upstream_error: string;
  upstream_state: string | null;
  created_at: number;
}

/** The replica's sync bookkeeping. Every write here belongs in the transaction of the change it records. */
export class SyncStore {
  private readonly getState: Statement<[string], { value: string }>;
  private readonly putState: Statement<[string, string]>;
  private readonly insertOutbox: Statement<[string, OutboxKind, string, string | null, string | null, number]>;
  private readonly nextPending: Statement<[], OutboxRow>;
  private readonly pendingCount: Statement<[], { n: number }>;
  private readonly pendingForOrder: Statement<[string], { n: number }>;
  private readonly pendingStockAt: Statement<[string], OutboxRow>;
  private readonly pendingOpenCloseAt: Statement<[string], { n: number }>;
  private readonly laterForOrder: Statement<[string, number], OutboxRow>;
  private readonly pendingCreates: Statement<[], { n: number }>;
  private readonly markSent: Statement<[number, number]>;
  private readonly markConflict: Statement<[string, number]>;
  private readonly recordAttempt: Statement<[string, number]>;
  private readonly insertConflict: Statement<[number, OutboxKind | typeof DIVERGENCE_KIND, string | null, string, string, string | null, number]>;
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
      `INSERT INTO sync_conflicts (outbox_seq, kind, order_id, local_change, upstream_error, upstream_state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
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

  conflict(row: OutboxRow, upstreamError: unknown, upstreamState: unknown, at: number): void {
    this.markConflict.run(JSON.stringify(upstreamError), row.seq);
    this.insertConflict.run(
      row.seq,
      row.kind,
      row.order_id,
      row.payload,
      JSON.stringify(upstreamError),
      upstreamState === undefined ? null : JSON.stringify(upstreamState),
      at,
    );
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
    );
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
