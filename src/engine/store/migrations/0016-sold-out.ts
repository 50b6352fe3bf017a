// Issue 30: the per-location "agotado" (86) switch, for any product or option, tracked or not.
// A row means "sold out at this location" until it is switched back or until `until` (the end of
// the kitchen's day, from the restaurant's `sold_out_resets_at`; null: until switched back). Rows
// past their `until` mean nothing and are purged on the next switch at that location.
// Also issue 30: `orders.local_number`, the number a replica's hub answered for an order typed into
// its own API ("L7"), kept once the upstream's number replaces it (shown "1042 · L7" until done).
// And a replica pushes its sold-out switches upstream like its stock: the outbox's checked kinds
// are rebuilt to take `set_sold_out`.
export default /* sql */ `
ALTER TABLE orders ADD COLUMN local_number TEXT;

CREATE TABLE sync_outbox_next (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  idempotency_key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('create_order', 'transition_order', 'set_stock', 'set_location_open', 'set_item_done', 'recall_order', 'set_sold_out')),
  payload TEXT NOT NULL,
  order_id TEXT,
  location_id TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'conflict')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
);
INSERT INTO sync_outbox_next SELECT * FROM sync_outbox;
DROP TABLE sync_outbox;
ALTER TABLE sync_outbox_next RENAME TO sync_outbox;
CREATE INDEX sync_outbox_by_status ON sync_outbox (status, seq);
CREATE INDEX sync_outbox_by_order ON sync_outbox (order_id, status);

ALTER TABLE restaurants ADD COLUMN sold_out_resets_at TEXT DEFAULT '04:00';

CREATE TABLE sold_out (
  location_id TEXT NOT NULL REFERENCES locations(id),
  item_kind TEXT NOT NULL CHECK (item_kind IN ('product', 'option')),
  item_id TEXT NOT NULL,
  since INTEGER NOT NULL,
  until INTEGER,
  PRIMARY KEY (location_id, item_kind, item_id)
) WITHOUT ROWID;
`;
