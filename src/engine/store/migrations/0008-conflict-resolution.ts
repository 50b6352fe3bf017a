// A conflict is resolved once the upstream's state is in place locally. A refused push records
// its conflict at once and reads the upstream's state afterwards, outside the transaction, with
// retries (sync/resolve-conflicts.ts): `resolved_at` stays NULL and `next_attempt_at` says when
// to try again (engine clock). Conflicts recorded before this version were resolved on the spot.
// A recall is a kitchen command pushed through the outbox like an item bump: the outbox's checked
// kinds are rebuilt to take it.
export default /* sql */ `
CREATE TABLE sync_outbox_next (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  idempotency_key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('create_order', 'transition_order', 'set_stock', 'set_location_open', 'set_item_done', 'recall_order')),
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

ALTER TABLE sync_conflicts ADD COLUMN resolved_at INTEGER;
ALTER TABLE sync_conflicts ADD COLUMN resolve_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_conflicts ADD COLUMN next_attempt_at INTEGER;
ALTER TABLE sync_conflicts ADD COLUMN last_error TEXT;
UPDATE sync_conflicts SET resolved_at = created_at;
CREATE INDEX sync_conflicts_unresolved ON sync_conflicts (next_attempt_at) WHERE resolved_at IS NULL;
`;
