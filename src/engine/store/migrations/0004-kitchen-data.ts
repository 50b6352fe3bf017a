// The kitchen's own data, which the public API does not show: item-level bumps, recalled tickets,
// the channel an order came through, and the restaurant file's stations and allergen flags. The
// replica's outbox learns to carry item bumps.
export default /* sql */ `
-- One row per order line a cook struck (or un-struck); a line without a row is not done.
CREATE TABLE kitchen_item_states (
  order_id TEXT NOT NULL REFERENCES orders(id),
  item_index INTEGER NOT NULL CHECK (item_index >= 0),
  done INTEGER NOT NULL CHECK (done IN (0, 1)),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (order_id, item_index)
) WITHOUT ROWID;

-- A finished ticket brought back on the board until recalled_until (its state is not changed).
CREATE TABLE kitchen_recalls (
  order_id TEXT PRIMARY KEY REFERENCES orders(id),
  recalled_at INTEGER NOT NULL,
  recalled_until INTEGER NOT NULL
) WITHOUT ROWID;

-- Where an order came from: the integration's name (its API key's label), a POS's, or "kitchen".
CREATE TABLE kitchen_order_channels (
  order_id TEXT PRIMARY KEY REFERENCES orders(id),
  channel TEXT NOT NULL
) WITHOUT ROWID;

-- The restaurant file's kitchen settings (JSON): stations, which products they prepare, and the
-- modifier options flagged as allergens. Replaced whole on import; a replica keeps its upstream's.
CREATE TABLE kitchen_settings (
  restaurant_id TEXT PRIMARY KEY REFERENCES restaurants(id),
  settings TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- The outbox's kinds are checked, so the table is rebuilt to accept item bumps.
CREATE TABLE sync_outbox_next (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  idempotency_key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('create_order', 'transition_order', 'set_stock', 'set_location_open', 'set_item_done')),
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
`;
