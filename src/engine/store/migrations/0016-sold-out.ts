// Issue 30: the per-location "agotado" (86) switch, for any product or option, tracked or not.
// A row means "sold out at this location" until it is switched back or until `until` (the end of
// the kitchen's day, from the restaurant's `sold_out_resets_at`; null: until switched back). Rows
// past their `until` mean nothing and are purged on the next switch at that location.
// Also issue 30: `orders.local_number`, the number a replica's hub answered for an order typed into
// its own API ("L7"), kept once the upstream's number replaces it (shown "1042 · L7" until done).
export default /* sql */ `
ALTER TABLE orders ADD COLUMN local_number TEXT;

ALTER TABLE restaurants ADD COLUMN sold_out_resets_at TEXT DEFAULT '04:00';

CREATE TABLE sold_out (
  location_id TEXT NOT NULL REFERENCES locations(id),
  item_kind TEXT NOT NULL CHECK (item_kind IN ('product', 'option')),
  item_id TEXT NOT NULL,
  since INTEGER NOT NULL,
  until INTEGER,
  PRIMARY KEY (location_id, item_kind, item_id)
) WITHOUT ROWID;
`;
