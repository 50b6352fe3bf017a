// Migration 0015 (issue 29) rebuilds print_jobs to allow `set_aside` and count failed sends: the
// jobs of a version-14 file come through whole (their seq, so each printer's order, included), the
// indexes are back, and the new status is accepted while an unknown one is still refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../../src/engine/store/migrations/index.ts';
import { migrate } from '../../../src/engine/store/migrate.ts';

test('a version-14 file: its print jobs kept in order, set_aside accepted, the indexes rebuilt', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-0015-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = new Database(join(dir, 'old.db'));
  t.after(() => db.close());
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS.slice(0, 14));
  db.exec(`INSERT INTO restaurants (id, name, register_mode, created_at) VALUES ('r1', 'R', 'manual', 0)`);
  db.exec(`INSERT INTO printers (id, restaurant_id, name, host, port, width_mm, code_page, stations, print_when, fallback_seconds, created_at, updated_at)
    VALUES ('p1', 'r1', 'Cocina', '127.0.0.1', 9100, 80, 'cp858', '[]', '["arrival"]', 60, 0, 0)`);
  const insert = db.prepare(`INSERT INTO print_jobs (seq, id, restaurant_id, printer_id, order_id, kind, document, status, reprint, attempts, next_attempt_at, last_error, created_at, updated_at, printed_at)
    VALUES (?, ?, 'r1', 'p1', NULL, 'ticket', '{}', ?, 0, ?, NULL, ?, 1, 2, NULL)`);
  insert.run(7, 'j7', 'printed', 1, null);
  insert.run(9, 'j9', 'queued', 3, 'printer 127.0.0.1:9100: closed the connection');
  const before = db.prepare('SELECT * FROM print_jobs ORDER BY seq').all();

  // As the engine migrates: foreign keys on (configure() in open-database.ts).
  migrate(db, MIGRATIONS);
  assert.deepEqual(db.pragma('foreign_key_check'), []);
  const after = db.prepare('SELECT * FROM print_jobs ORDER BY seq').all() as Record<string, unknown>[];
  assert.deepEqual(after.map(({ failed_sends: failed, ...rest }) => (assert.equal(failed, 0), rest)), before);
  const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'print_jobs' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  assert.deepEqual(indexes, ['print_jobs_by_order', 'print_jobs_finished', 'print_jobs_status']);
  db.prepare("UPDATE print_jobs SET status = 'set_aside', failed_sends = 3 WHERE id = 'j9'").run();
  assert.throws(() => db.prepare("UPDATE print_jobs SET status = 'lost' WHERE id = 'j9'").run(), /CHECK constraint/);
  // A new job continues the sequence after the highest kept.
  db.prepare(`INSERT INTO print_jobs (id, restaurant_id, printer_id, kind, document, status, created_at, updated_at) VALUES ('j10', 'r1', 'p1', 'ticket', '{}', 'queued', 3, 3)`).run();
  assert.equal((db.prepare("SELECT seq FROM print_jobs WHERE id = 'j10'").get() as { seq: number }).seq, 10);
});
