// The WAL checkpointer on a real file: the worker copies the log into the database file while the
// serving connection never checkpoints, the log restarts instead of growing, and stopping hands the
// checkpoints back. What SQLite has copied is read from the -shm file, where it keeps it.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AUTOCHECKPOINT_PAGES, openDatabase, type Database } from '../../../src/engine/store/open-database.ts';
import { AUTOCHECKPOINT_PAGES_BEHIND_WORKER, startWalCheckpointer } from '../../../src/engine/store/wal-checkpointer.ts';

const dir = mkdtempSync(join(tmpdir(), 'comanda-checkpointer-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** mxFrame (frames in the log) and nBackfill (frames copied into the file), from the wal-index header. */
function logState(path: string): { frames: number; copied: number } {
  const shm = readFileSync(`${path}-shm`);
  return { frames: shm.readUInt32LE(16), copied: shm.readUInt32LE(96) };
}

/** Polls a condition that a worker thread makes true; fails after `ms`. */
async function until(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

function freshDatabase(): { db: Database; path: string; fd: number; close(): void } {
  const path = join(dir, `db-${++files}.sqlite`);
  const db = openDatabase(path);
  db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB)');
  const fd = openSync(path, 'r+');
  return {
    db,
    path,
    fd,
    close() {
      db.close();
      closeSync(fd);
    },
  };
}

/** About `pages` pages of log, committed in 10 transactions. */
function write(db: Database, pages: number): void {
  const insert = db.prepare('INSERT INTO filler (body) VALUES (?)');
  for (let t = 0; t < 10; t++) db.transaction(() => insert.run(Buffer.alloc(pages * 400, t)))();
}

describe('WAL checkpointer', () => {
  test('copies the log into the file off the serving connection, which only keeps a far threshold', async () => {
    const { db, path, fd, close } = freshDatabase();
    const checkpointer = startWalCheckpointer(db, fd, { gatherMs: 0, idleMs: 60_000 });
    try {
      await until('the worker to take over', () => db.pragma('wal_autocheckpoint', { simple: true }) === AUTOCHECKPOINT_PAGES_BEHIND_WORKER);
      write(db, 200);
      const written = logState(path).frames;
      assert.ok(written >= 200 && written < AUTOCHECKPOINT_PAGES_BEHIND_WORKER, `${written} frames`);
      assert.equal(logState(path).copied, 0, 'nothing is copied before the worker is woken');
      checkpointer.wake();
      await until('the log to be copied', () => logState(path).copied === written);
      assert.ok(statSync(path).size >= 200 * 4096, 'the pages are in the database file');
    } finally {
      await checkpointer.stop();
      close();
    }
  });

  test('the log restarts after each copy instead of growing', async () => {
    const { db, path, fd, close } = freshDatabase();
    const checkpointer = startWalCheckpointer(db, fd, { gatherMs: 0, idleMs: 60_000 });
    try {
      await until('the worker to take over', () => db.pragma('wal_autocheckpoint', { simple: true }) === AUTOCHECKPOINT_PAGES_BEHIND_WORKER);
      const held: number[] = [];
      for (let round = 0; round < 20; round++) {
        write(db, 50);
        const { frames } = logState(path);
        held.push(frames);
        checkpointer.wake();
        await until(`round ${round} to be copied`, () => logState(path).copied === frames);
      }
      // Each round starts the log over: it never holds more than one round's frames (a log that
      // never restarted would hold all 20 rounds' at the end).
      const round = held[0]!;
      assert.ok(Math.max(...held) <= round * 1.5, `frames held after each round: ${held.join(', ')}`);
      assert.ok(statSync(`${path}-wal`).size <= round * 1.5 * 4120, `the log file is ${statSync(`${path}-wal`).size} bytes`);
      assert.equal((db.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n, 200);
    } finally {
      await checkpointer.stop();
      close();
    }
  });

  test('stopping hands the checkpoints back to the serving connection', async () => {
    const { db, path, fd, close } = freshDatabase();
    const checkpointer = startWalCheckpointer(db, fd, { gatherMs: 0, idleMs: 60_000 });
    await until('the worker to take over', () => db.pragma('wal_autocheckpoint', { simple: true }) === AUTOCHECKPOINT_PAGES_BEHIND_WORKER);
    await checkpointer.stop();
    await checkpointer.stop();
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), AUTOCHECKPOINT_PAGES);
    write(db, 20);
    checkpointer.wake();
    assert.equal(logState(path).copied, 0, 'no worker copies any more');
    close();
  });
});
