// A replica's sync state: the feed cursor, the outbox of local writes, order ids given by the
// upstream, conflicts, and the location status the upstream last reported.
export default /* sql */ `
CREATE TABLE sync_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE sync_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  idempotency_key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('create_order', 'transition_order', 'set_stock', 'set_location_open')),
  payload TEXT NOT NULL,
  order_id TEXT,
  location_id TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'conflict')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE INDEX sync_outbox_by_status ON sync_outbox (status, seq);
CREATE INDEX sync_outbox_by_order ON sync_outbox (order_id, status);

-- Orders created on the replica keep answering to their local id after the upstream gave its own.
CREATE TABLE order_id_aliases (
  local_id TEXT PRIMARY KEY,
  upstream_id TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX order_id_aliases_by_upstream ON order_id_aliases (upstream_id);

CREATE TABLE sync_conflicts (
  id INTEGER PRIMARY KEY,
  outbox_seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  order_id TEXT,
  local_change TEXT NOT NULL,
  upstream_error TEXT NOT NULL,
  upstream_state TEXT,
  created_at INTEGER NOT NULL
);

-- Replica: the status the upstream last reported (JSON), which stands while it cannot be reached.
ALTER TABLE locations ADD COLUMN known_status TEXT;
`;
