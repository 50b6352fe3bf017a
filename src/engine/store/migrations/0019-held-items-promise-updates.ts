// Issue 32 (the kitchen keeps its promises): lines held back so that an order's items finish
// together, and the audit of promises moved later when the live load made them slip. A line whose station would finish it long before the order's slowest line waits here
// instead of going to its station; the jobs fire it when its station's queue says it must start.
export default /* sql */ `
-- A line held back from its station (its 'held' row is in kitchen_item_timings). fire_at: when it is
-- planned to fire (what the screen shows: "sale a las HH:MM"); target_ready_at: when the order's
-- slowest line is expected done (it fires earlier when its station's queue says it would finish
-- after that). Deleted when it fires, is bumped, or its order leaves the kitchen.
CREATE TABLE kitchen_held_items (
  order_id TEXT NOT NULL REFERENCES orders(id),
  item_index INTEGER NOT NULL,
  location_id TEXT NOT NULL,
  test INTEGER NOT NULL CHECK (test IN (0, 1)),
  station_id TEXT NOT NULL,
  product_id TEXT,
  quantity INTEGER NOT NULL,
  held_at INTEGER NOT NULL,
  fire_at INTEGER NOT NULL,
  target_ready_at INTEGER NOT NULL,
  PRIMARY KEY (order_id, item_index)
) WITHOUT ROWID;
CREATE INDEX kitchen_held_items_by_location ON kitchen_held_items (location_id, fire_at);

-- Each time an open order's promise was moved later (its predicted ready time slipped past it by
-- more than a few minutes): the audit, append-only. order_promises keeps the promise made at
-- creation (what the margin is calibrated on); the order's current promise is its last row here.
CREATE TABLE order_promise_updates (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id TEXT NOT NULL REFERENCES orders(id),
  at INTEGER NOT NULL,
  previous_promised_ready_at INTEGER NOT NULL,
  expected_ready_at INTEGER NOT NULL,
  promised_ready_at INTEGER NOT NULL
);
CREATE INDEX order_promise_updates_by_order ON order_promise_updates (order_id, seq);
-- The promises of orders not ready yet, per location (what the slip check reads every tick).
CREATE INDEX order_promises_open ON order_promises (location_id, created_at) WHERE ready_at IS NULL;

-- The order a station takes its open lines in when they were fired in the same millisecond (two
-- orders at once, a frozen test clock): the seq of the log row that opened the line. Without it,
-- ties went by order id (random), so a new order could be scheduled ahead of older ones and move
-- their predictions (issue 32: each move replanned their held lines, an event each, per order).
ALTER TABLE kitchen_open_items ADD COLUMN fire_seq INTEGER NOT NULL DEFAULT 0;
DROP INDEX kitchen_open_items_by_location;
CREATE INDEX kitchen_open_items_by_location ON kitchen_open_items (location_id, fired_at, fire_seq);
`;
