// A conflict is resolved once the upstream's state is in place locally. A refused push records
// its conflict at once and reads the upstream's state afterwards, outside the transaction, with
// retries (sync/resolve-conflicts.ts): `resolved_at` stays NULL and `next_attempt_at` says when
// to try again (engine clock). Conflicts recorded before this version were resolved on the spot.
export default /* sql */ `
ALTER TABLE sync_conflicts ADD COLUMN resolved_at INTEGER;
ALTER TABLE sync_conflicts ADD COLUMN resolve_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_conflicts ADD COLUMN next_attempt_at INTEGER;
ALTER TABLE sync_conflicts ADD COLUMN last_error TEXT;
UPDATE sync_conflicts SET resolved_at = created_at;
CREATE INDEX sync_conflicts_unresolved ON sync_conflicts (next_attempt_at) WHERE resolved_at IS NULL;
`;
