// Restaurants, their catalogue, locations and stock; orders; keys; the change feed; idempotency.
export default /* sql */ `
-- Times are integers (epoch milliseconds, UTC); money is integer CLP.

CREATE TABLE restaurants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  register_mode TEXT NOT NULL CHECK (register_mode IN ('manual', 'schedule')),
  time_zone TEXT NOT NULL DEFAULT 'America/Santiago',
  payment_timeout_minutes INTEGER NOT NULL DEFAULT 30,
  -- subsidy rules for delivery quotes, as imported (JSON array)
  shipping_subsidies TEXT NOT NULL DEFAULT '[]',
  next_order_number INTEGER NOT NULL DEFAULT 1,
  next_test_order_number INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
);

CREATE TABLE locations (
  id TEXT PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  name TEXT NOT NULL,
  address TEXT NOT NULL,
  latitude REAL,
  longitude REAL,
  is_active INTEGER NOT NULL DEFAULT 1,
  -- manual register mode: the day's cash register
  register_open INTEGER NOT NULL DEFAULT 0,
  -- schedule register mode: weekly schedule (JSON object, day -> [[opens, closes], ...])
  weekly_schedule TEXT NOT NULL DEFAULT '{}',
  preparation_lead_minutes INTEGER NOT NULL DEFAULT 30,
  -- delivery settings as imported (JSON object: own delivery, courier preference)
  delivery TEXT NOT NULL DEFAULT '{}',
  position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX locations_by_restaurant ON locations (restaurant_id, position);

-- Exceptions to the weekly schedule: a closed day, or other hours on that day.
CREATE TABLE location_exceptions (
  id INTEGER PRIMARY KEY,
  location_id TEXT NOT NULL REFERENCES locations(id),
  local_date TEXT NOT NULL,            -- YYYY-MM-DD in the restaurant's time zone
  closed INTEGER NOT NULL,
  hours TEXT NOT NULL DEFAULT '[]',    -- JSON [[opens, closes], ...] when not closed
  label TEXT,
  source TEXT NOT NULL CHECK (source IN ('config', 'api'))
);
CREATE INDEX location_exceptions_by_day ON location_exceptions (location_id, local_date);

CREATE TABLE categories (
  id TEXT PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  name TEXT NOT NULL,
  description TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX categories_by_restaurant ON categories (restaurant_id, position);

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  category_id TEXT NOT NULL REFERENCES categories(id),
  slug TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  price INTEGER NOT NULL CHECK (price >= 0),
  offer_price INTEGER CHECK (offer_price >= 0),
  image_url TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  track_stock INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL DEFAULT 0,
  UNIQUE (restaurant_id, slug)
);
CREATE INDEX products_by_category ON products (category_id, position);

CREATE TABLE modifier_groups (
  id TEXT PRIMARY KEY,
  product_id TEXT NOT NULL REFERENCES products(id),
  name TEXT NOT NULL,
  required INTEGER NOT NULL DEFAULT 0,
  min INTEGER NOT NULL DEFAULT 0 CHECK (min >= 0),
  max INTEGER NOT NULL CHECK (max >= min),
  position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX modifier_groups_by_product ON modifier_groups (product_id, position);

CREATE TABLE modifier_options (
  id TEXT PRIMARY KEY,
  group_id TEXT NOT NULL REFERENCES modifier_groups(id),
  name TEXT NOT NULL,
  price INTEGER NOT NULL DEFAULT 0 CHECK (price >= 0),
  position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX modifier_options_by_group ON modifier_options (group_id, position);

CREATE TABLE stock (
  location_id TEXT NOT NULL REFERENCES locations(id),
  product_id TEXT NOT NULL REFERENCES products(id),
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  PRIMARY KEY (location_id, product_id)
) WITHOUT ROWID;
CREATE INDEX stock_by_product ON stock (product_id);

CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  test INTEGER NOT NULL,
  number TEXT NOT NULL,
  status TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('delivery', 'retiro')),
  location_id TEXT REFERENCES locations(id),
  customer_name TEXT,
  customer_phone TEXT,
  customer_email TEXT,
  address TEXT,
  notes TEXT,
  items TEXT NOT NULL,                 -- JSON array of order items as the API shows them
  subtotal INTEGER NOT NULL,
  shipping_fee INTEGER NOT NULL,
  discount INTEGER NOT NULL,
  total INTEGER NOT NULL,
  payment_kind TEXT NOT NULL CHECK (payment_kind IN ('external', 'online')),
  payment_method TEXT,
  paid INTEGER NOT NULL DEFAULT 0,
  delivery_provider TEXT,
  delivery_status TEXT,
  delivery_tracking_url TEXT,
  scheduled_for INTEGER,
  stock_taken INTEGER NOT NULL DEFAULT 0,
  managed_by TEXT,                     -- name of the POS integration that owns the order
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (restaurant_id, test, number)
);
CREATE INDEX orders_by_world_created ON orders (restaurant_id, test, created_at DESC, id DESC);
CREATE INDEX orders_by_world_status ON orders (restaurant_id, test, status, created_at DESC, id DESC);
CREATE INDEX orders_by_world_location ON orders (restaurant_id, test, location_id, created_at DESC, id DESC);

-- Online payment sessions: one per attempt window of an online order.
CREATE TABLE payment_sessions (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders(id),
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'paid', 'closed')),
  return_url TEXT NOT NULL,
  preselected_method TEXT,
  last_result TEXT,                    -- success | failed | cancelled, as the customer last chose
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX payment_sessions_by_order ON payment_sessions (order_id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  lookup TEXT NOT NULL UNIQUE,         -- first characters of the secret, to find the row
  salt BLOB NOT NULL,
  hash BLOB NOT NULL,                  -- sha256(salt || key)
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  can_write INTEGER NOT NULL,
  label TEXT,
  last4 TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX api_keys_by_restaurant ON api_keys (restaurant_id, created_at);

-- The change feed. world says who sees the event: live keys, test keys, or both.
CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  world TEXT NOT NULL CHECK (world IN ('live', 'test', 'both')),
  type TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX events_by_restaurant ON events (restaurant_id, seq);

CREATE TABLE idempotency_keys (
  api_key_id TEXT NOT NULL REFERENCES api_keys(id),
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
`;
