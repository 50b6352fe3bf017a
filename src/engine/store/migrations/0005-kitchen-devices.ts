// Kitchen screens paired to a restaurant (browser tablets) and the short-lived codes that pair
// them. A device token is kept like an API key: a lookup prefix, a salt and a hash, never in clear.
export default /* sql */ `
CREATE TABLE kitchen_devices (
  id TEXT PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  name TEXT NOT NULL,
  lookup TEXT NOT NULL UNIQUE,
  salt BLOB NOT NULL,
  hash BLOB NOT NULL,
  paired_at INTEGER NOT NULL,
  last_seen_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX kitchen_devices_restaurant ON kitchen_devices (restaurant_id, paired_at);

-- Six digits, single use, valid until expires_at (10 minutes). A used code keeps the device it paired.
CREATE TABLE kitchen_pairing_codes (
  id TEXT PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  code TEXT NOT NULL,
  device_name TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  device_id TEXT REFERENCES kitchen_devices(id)
);
CREATE INDEX kitchen_pairing_codes_code ON kitchen_pairing_codes (code, expires_at);
`;
