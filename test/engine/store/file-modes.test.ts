// Issue 29: the database (it holds the Mercado Pago token in payment_credentials, API key digests),
// its -wal and -shm, and its backups are readable by their owner only, whatever the umask lets a
// new file be; a file made before this release is narrowed when it is opened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { backupSqlite } from '../../../src/engine/services/storage/backup-database.ts';
import { openDatabase } from '../../../src/engine/store/open-database.ts';

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

test('a new database, its -wal and -shm, and a backup of it are 0600 under a umask of 022', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-modes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const previous = process.umask(0o022);
  t.after(() => process.umask(previous));
  const file = join(dir, 'comanda.db');
  const db = openDatabase(file);
  try {
    db.prepare('INSERT INTO kitchen_pairing_buckets (address, tokens, updated_at, full_at) VALUES (?, 1, 0, 0)').run('x');
    assert.deepEqual([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)], ['600', '600', '600']);
    const backup = join(dir, 'backup.db');
    await backupSqlite(db, backup);
    assert.equal(modeOf(backup), '600');
  } finally {
    db.close();
  }
});

test('a database made readable by all before (0644) is narrowed to 0600 when opened', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-modes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'comanda.db');
  openDatabase(file).close();
  chmodSync(file, 0o644);
  // Left open elsewhere so its -wal stays, as an older release left it.
  const other = new BetterSqlite3(file);
  other.pragma('journal_mode = WAL');
  other.prepare('INSERT INTO kitchen_pairing_buckets (address, tokens, updated_at, full_at) VALUES (?, 1, 0, 0)').run('y');
  chmodSync(`${file}-wal`, 0o644);
  const db = openDatabase(file);
  try {
    assert.deepEqual([modeOf(file), modeOf(`${file}-wal`)], ['600', '600']);
  } finally {
    db.close();
    other.close();
  }
});
