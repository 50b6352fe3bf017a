// Issue 29: a print job that cannot complete is set aside instead of being sent again and again.
// A job whose ticket reached the printer without the printer confirming it (a send cut off, no
// answer, not a printer's answer, paper end after it) counts a failed send; after a few it is
// `set_aside`: the printer's next jobs go on, the kitchen is told, and the job is printed again only
// when someone asks (retry). SQLite cannot change a CHECK, so the table is rebuilt with its rows.
export default /* sql */ `
CREATE TABLE print_jobs_new (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  printer_id TEXT NOT NULL REFERENCES printers(id),
  order_id TEXT REFERENCES orders(id),
  kind TEXT NOT NULL CHECK (kind IN ('ticket', 'fallback', 'bag', 'reprint')),
  station_id TEXT,
  document TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'printed', 'held', 'dropped', 'set_aside')),
  reprint INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  -- Sends whose ticket left without the printer confirming it: at a few, the job is set aside.
  failed_sends INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  printed_at INTEGER
);
INSERT INTO print_jobs_new (seq, id, restaurant_id, printer_id, order_id, kind, station_id, document, status, reprint,
  attempts, failed_sends, next_attempt_at, last_error, created_at, updated_at, printed_at)
SELECT seq, id, restaurant_id, printer_id, order_id, kind, station_id, document, status, reprint,
  attempts, 0, next_attempt_at, last_error, created_at, updated_at, printed_at FROM print_jobs;
DROP TABLE print_jobs;
ALTER TABLE print_jobs_new RENAME TO print_jobs;
CREATE INDEX print_jobs_status ON print_jobs (status, printer_id, seq);
CREATE INDEX print_jobs_by_order ON print_jobs (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX print_jobs_finished ON print_jobs (updated_at) WHERE status IN ('printed', 'dropped');
`;
