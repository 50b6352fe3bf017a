// A kitchen screen's changes (a bump, an item mark) carry the screen's own key: a screen that sends
// one again (it never got the answer, or it was offline and queued it) gets it applied once.
export default /* sql */ `
CREATE TABLE kitchen_changes (
  restaurant_id TEXT NOT NULL,
  change_id TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (restaurant_id, change_id)
) WITHOUT ROWID;
CREATE INDEX kitchen_changes_by_age ON kitchen_changes (created_at);
`;
