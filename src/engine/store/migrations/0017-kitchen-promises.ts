// Issue 32 (the kitchen keeps its promises): the item timing log, the items open at each station,
// the prep times learned from the log, the cooks a hub set on a station during service, each
// order's promise with when it was actually ready (what the promise's margin is calibrated on), and
// busy mode's state per location with which keys are store fronts.
export default /* sql */ `
-- Append-only: one row per thing that happened to an order line in the kitchen. Never updated.
-- kind: fired (reached its station), started, done, undone, recalled, held (kept back to finish
-- with the order's other items). source says how it is known: for started, 'ticket' (the ticket
-- moved to en_preparacion) or 'explicit'; for done, 'item' (the line bumped) or 'ticket' (the
-- ticket bumped to listo with the line still open).
CREATE TABLE kitchen_item_timings (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  order_id TEXT NOT NULL REFERENCES orders(id),
  location_id TEXT,
  item_index INTEGER NOT NULL CHECK (item_index >= 0),
  kind TEXT NOT NULL CHECK (kind IN ('fired', 'started', 'done', 'undone', 'recalled', 'held')),
  source TEXT,
  station_id TEXT,
  product_id TEXT,
  quantity INTEGER NOT NULL,
  channel TEXT,
  device TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX kitchen_item_timings_by_order ON kitchen_item_timings (order_id, item_index, seq);
CREATE INDEX kitchen_item_timings_by_time ON kitchen_item_timings (restaurant_id, at);
-- A station's last bumps: when its cooks were last free (what the promise's schedule starts from).
CREATE INDEX kitchen_item_timings_done ON kitchen_item_timings (location_id, station_id, seq) WHERE kind = 'done';

-- The lines fired and not yet done, per location: what the promise schedules a new order behind.
-- Derived from the log in the same transactions. A live promise is made behind live lines only (a
-- sandbox integration's test orders do not delay real customers); a sandbox one behind both.
CREATE TABLE kitchen_open_items (
  order_id TEXT NOT NULL REFERENCES orders(id),
  item_index INTEGER NOT NULL,
  location_id TEXT NOT NULL,
  test INTEGER NOT NULL CHECK (test IN (0, 1)),
  station_id TEXT,
  product_id TEXT,
  quantity INTEGER NOT NULL,
  fired_at INTEGER NOT NULL,
  started_at INTEGER,
  PRIMARY KEY (order_id, item_index)
) WITHOUT ROWID;
CREATE INDEX kitchen_open_items_by_location ON kitchen_open_items (location_id, fired_at);

-- Prep times learned from the log (mean, median and p90 seconds of one unit), per station and product.
CREATE TABLE kitchen_prep_stats (
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  station_id TEXT NOT NULL,
  product_id TEXT NOT NULL,
  mean_seconds INTEGER NOT NULL,
  median_seconds INTEGER NOT NULL,
  p90_seconds INTEGER NOT NULL,
  samples INTEGER NOT NULL,
  excluded INTEGER NOT NULL,
  learned_at INTEGER NOT NULL,
  PRIMARY KEY (restaurant_id, station_id, product_id)
) WITHOUT ROWID;

-- Cooks on a station as the hub set them during service ("+ / -"); the restaurant file's default otherwise.
CREATE TABLE kitchen_station_cooks (
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  station_id TEXT NOT NULL,
  cooks INTEGER NOT NULL CHECK (cooks >= 1),
  set_at INTEGER NOT NULL,
  PRIMARY KEY (restaurant_id, station_id)
) WITHOUT ROWID;

-- Each order's promise when it was made, and when it was ready (listo): the margin's calibration.
CREATE TABLE order_promises (
  order_id TEXT PRIMARY KEY REFERENCES orders(id),
  restaurant_id TEXT NOT NULL,
  location_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expected_ready_at INTEGER NOT NULL,
  promised_ready_at INTEGER NOT NULL,
  ready_at INTEGER
) WITHOUT ROWID;
CREATE INDEX order_promises_ready ON order_promises (location_id, ready_at) WHERE ready_at IS NOT NULL;

-- Busy mode per location: paused (store fronts' orders refused) or not, since when the wait has been
-- above the threshold, the last pauses (at most 2 an hour), and the manager's override from the hub.
CREATE TABLE location_busy_states (
  location_id TEXT PRIMARY KEY REFERENCES locations(id),
  paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
  changed_at INTEGER NOT NULL,
  above_since INTEGER,
  wait_minutes INTEGER NOT NULL,
  recent_pauses TEXT NOT NULL DEFAULT '[]',
  override TEXT CHECK (override IN ('pause', 'resume'))
) WITHOUT ROWID;

-- Which keys are a store front's (their orders are refused in busy mode) or a POS's (never refused).
-- A key with no row is neither: never refused.
CREATE TABLE api_key_channel_kinds (
  api_key_id TEXT PRIMARY KEY REFERENCES api_keys(id),
  kind TEXT NOT NULL CHECK (kind IN ('store_front', 'pos'))
) WITHOUT ROWID;
`;
