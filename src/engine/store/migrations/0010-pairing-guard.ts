// Pairing that cannot be guessed (issue 19). A pairing offer now carries a long random secret for
// its URL and QR code (kept as a SHA-256 digest, never in clear) besides the six digits typed by
// hand. Wrong codes typed count against every restaurant that had a live code at the time; 20 in
// ten minutes void that restaurant's live six-digit codes (the lockout is noted for the manager).
// The per-address limit on pairing attempts lives here too, so a restart does not reset it.
export default /* sql */ `
ALTER TABLE kitchen_pairing_codes ADD COLUMN secret_hash BLOB;
ALTER TABLE kitchen_pairing_codes ADD COLUMN code_voided_at INTEGER;
CREATE UNIQUE INDEX kitchen_pairing_codes_secret ON kitchen_pairing_codes (secret_hash);
CREATE INDEX kitchen_pairing_codes_expiry ON kitchen_pairing_codes (expires_at);

-- One row per wrong code typed and restaurant it counted against; only the last ten minutes are kept.
CREATE TABLE kitchen_pairing_failures (
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  at INTEGER NOT NULL
);
CREATE INDEX kitchen_pairing_failures_restaurant ON kitchen_pairing_failures (restaurant_id, at);

-- The last time a restaurant's six-digit codes were voided by too many wrong tries.
CREATE TABLE kitchen_pairing_lockouts (
  restaurant_id TEXT PRIMARY KEY REFERENCES restaurants(id),
  voided_at INTEGER NOT NULL,
  failures INTEGER NOT NULL
);

-- Token buckets of pairing attempts per client address (IPv6 by /64); a row idle until full_at is dropped.
CREATE TABLE kitchen_pairing_buckets (
  address TEXT PRIMARY KEY,
  tokens REAL NOT NULL,
  updated_at INTEGER NOT NULL,
  full_at INTEGER NOT NULL
);
CREATE INDEX kitchen_pairing_buckets_full ON kitchen_pairing_buckets (full_at);
`;
