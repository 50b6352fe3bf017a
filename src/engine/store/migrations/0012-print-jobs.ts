// Kitchen printers and their print jobs (issue 22), and a role for paired screens (the pickup screen).
// A print job is an intent like a courier delivery: written in the order's transaction, sent by the
// jobs runner after the commit, one printer's jobs strictly in order. A job found `sending` when the
// engine starts was cut off mid-send by a crash: it is sent again once, marked as a reprint.
export default /* sql */ `
-- ESC/POS network printers (raw TCP, usually port 9100), per restaurant.
-- stations: JSON array of station ids it prints for ([] = every station).
-- print_when: JSON array of 'arrival' | 'fallback' | 'bag'.
-- state: what the last contact said: unknown, ok, unreachable, paper_out.
CREATE TABLE printers (
  id TEXT PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  name TEXT NOT NULL,
  host TEXT NOT NULL,
  port INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
  width_mm INTEGER NOT NULL CHECK (width_mm IN (58, 80)),
  code_page TEXT NOT NULL,
  stations TEXT NOT NULL,
  print_when TEXT NOT NULL,
  fallback_seconds INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'unknown' CHECK (state IN ('unknown', 'ok', 'unreachable', 'paper_out')),
  state_detail TEXT,
  state_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  removed_at INTEGER
);
CREATE UNIQUE INDEX printers_name ON printers (restaurant_id, name) WHERE removed_at IS NULL;

-- One ticket (or bag label, or test page) for one printer. seq orders a printer's jobs.
-- status: queued (to send; next_attempt_at says when), sending (claimed by the runner), printed,
-- held (a fallback ticket waiting to see whether its station's screens are live), dropped (not needed).
-- document: the ticket's content (JSON) as it was when the job was written.
CREATE TABLE print_jobs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  printer_id TEXT NOT NULL REFERENCES printers(id),
  order_id TEXT REFERENCES orders(id),
  kind TEXT NOT NULL CHECK (kind IN ('ticket', 'fallback', 'bag', 'reprint')),
  station_id TEXT,
  document TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'printed', 'held', 'dropped')),
  reprint INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  printed_at INTEGER
);
-- The runner looks every second for jobs by status (queued, sending, held): never a scan of every job printed.
CREATE INDEX print_jobs_status ON print_jobs (status, printer_id, seq);
CREATE INDEX print_jobs_by_order ON print_jobs (order_id) WHERE order_id IS NOT NULL;

-- What a paired screen is: the kitchen board (kitchen and expo views) or the customers' pickup screen.
ALTER TABLE kitchen_devices ADD COLUMN role TEXT NOT NULL DEFAULT 'kitchen' CHECK (role IN ('kitchen', 'pickup'));
ALTER TABLE kitchen_pairing_codes ADD COLUMN device_role TEXT NOT NULL DEFAULT 'kitchen' CHECK (device_role IN ('kitchen', 'pickup'));
`;
