// The WAL checkpointer on a real file: the worker copies the log into the database file while the
// serving connection never checkpoints, the log restarts instead of growing, and stopping hands the
// checkpoints back. What SQLite has copied is read from the -shm file (test/support/wal-log-state.ts).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { AUTOCHECKPOINT_PAGES, openDatabase, type Database } from '../../../src/engine/store/open-database.ts';
import { AUTOCHECKPOINT_PAGES_BEHIND_WORKER, startWalCheckpointer } from '../../../src/engine/store/wal-checkpointer.ts';
import { startEngineUnderTest } from '../../support/engine-under-test.ts';
import { walLogState } from '../../support/wal-log-state.ts';
import { eventually } from '../../support/eventually.ts';
import { R1 } from '../../support/demo-ids.ts';

const dir = mkdtempSync(join(tmpdir(), 'comanda-checkpointer-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** The worker's connection is open: the serving connection has moved to the far threshold. */
const workerTookOver = (db: Database): Promise<boolean> =>
  eventually(() => db.pragma('wal_autocheckpoint', { simple: true }) === AUTOCHECKPOINT_PAGES_BEHIND_WORKER, 'the worker to take over');

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
      await workerTookOver(db);
      write(db, 200);
      const written = walLogState(path).frames;
      assert.ok(written >= 200 && written < AUTOCHECKPOINT_PAGES_BEHIND_WORKER, `${written} frames`);
      assert.equal(walLogState(path).copied, 0, 'nothing is copied before the worker is woken');
      checkpointer.wake();
      await eventually(() => walLogState(path).copied === written, 'the log to be copied');
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
      await workerTookOver(db);
      const held: number[] = [];
      for (let round = 0; round < 20; round++) {
        write(db, 50);
        const { frames } = walLogState(path);
        held.push(frames);
        checkpointer.wake();
        await eventually(() => walLogState(path).copied === frames, `round ${round} to be copied`);
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
    await workerTookOver(db);
    await checkpointer.stop();
    await checkpointer.stop();
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), AUTOCHECKPOINT_PAGES);
    write(db, 20);
    checkpointer.wake();
    assert.equal(walLogState(path).copied, 0, 'no worker copies any more');
    close();
  });

  test('a served engine copies its log from the worker, and closing leaves no descriptor of the file open', async () => {
    const engine = await startEngineUnderTest();
    const { dbPath } = engine;
    try {
      const db = engine.server.engine.db;
      await workerTookOver(db);
      for (let i = 0; i < 5; i++) {
        const created = await engine.call('POST', '/orders', {
          body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Cliente', phone: '+56 9 1111 2222' }, items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }], payment: 'external' },
        });
        assert.equal(created.status, 201, created.text);
      }
      await eventually(
        () => {
          const { frames, copied } = walLogState(dbPath);
          return frames > 0 && copied === frames;
        },
        'the orders to be copied into the file',
      );
    } finally {
      await engine.server.close();
    }
    const open = existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').map((fd) => { try { return readlinkSync(`/proc/self/fd/${fd}`); } catch { return ''; } }) : [];
    assert.deepEqual(open.filter((target) => target.startsWith(dbPath)), [], 'descriptors of the database still open');
    assert.equal(existsSync(`${dbPath}-wal`), false, 'the last connection to close removes the log');
    await engine.stop();
  });

  test('closing a served engine in a process with nothing else to do waits for the worker, then exits', () => {
    // The worker is unreferenced while it runs; a close that did not reference it while waiting
    // left the process with an unsettled await (exit code 13) and the file not closed.
    const root = join(import.meta.dirname, '..', '..', '..');
    const script = join(dir, 'close-and-exit.mts');
    writeFileSync(
      script,
      `import { startEngineServer } from ${JSON.stringify(join(root, 'src', 'host', 'start-engine-server.ts'))};
const server = await startEngineServer({ database: ${JSON.stringify(join(dir, 'close-and-exit.db'))}, logger: false });
await server.close();
console.log('closed');
`,
    );
    const output = execFileSync(join(root, 'node_modules', '.bin', 'node'), ['--import', 'tsx', script], { cwd: root, encoding: 'utf8' });
    assert.equal(output.trim(), 'closed');
  });
});
