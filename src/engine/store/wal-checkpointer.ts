import type { Database } from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { AUTOCHECKPOINT_PAGES } from './open-database.ts';

/**
 * With the worker copying the log, the serving connection still checkpoints past this many pages
 * (64 MB): that is what restarts the log under a load that never pauses (SQLite restarts it only
 * at a write that finds it fully copied), and by then the worker has copied and synced nearly all
 * of it, so the serving connection's share is the last few milliseconds of commits.
 */
export const AUTOCHECKPOINT_PAGES_BEHIND_WORKER = 16_000;

export interface WalCheckpointerOptions {
  /** How long the worker lets commits gather after being woken, before copying them. */
  gatherMs?: number;
  /** How long it sleeps with no commit of this process (other processes' commits are copied then). */
  idleMs?: number;
}

export interface WalCheckpointer {
  /** A commit happened: the worker copies it soon. Costs an atomic add and, if the worker sleeps, a wake-up. */
  wake(): void;
  /** Stops the worker and closes its connection; the serving connection checkpoints by itself again. */
  stop(): Promise<void>;
}

// Slots of the shared signal: commits seen, and the request to stop.
const COMMITS = 0;
const STOP = 1;

// SQLite's automatic checkpoint runs inside the commit that crosses the threshold: it fsyncs the
// log, copies it into the file and fsyncs the file, all on the event loop, which stalled every
// request in flight for 20-25 ms (row 3's p99, docs/performance.md). This worker, with its own
// connection, runs PASSIVE checkpoints a few milliseconds after commits (never waiting on the
// writer or on readers: busy_timeout 0) and then flushes the file, so the copy and both syncs
// happen off the event loop. The serving connection keeps a far threshold for the log's restart.
// Plain CommonJS given as text, so it travels inside any bundle (the app's main process is one).
// The loop blocks on Atomics.wait, so it takes no timer wake-ups while nothing is written.
const CHECKPOINT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { fdatasyncSync } = require('node:fs');
const Database = require(workerData.driver);
const signal = new Int32Array(workerData.signal);
const pause = new Int32Array(new SharedArrayBuffer(4));
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('cache_size = -256');
// Prepared once: db.pragma() prepares a new statement per call, freed only once V8 collects its
// wrapper, and in this loop, which never returns to the event loop, they were not: each pass left
// about 4 KB of SQLite's memory behind (a bare loop of passes grew 760 MB in 40 s; row 8's soak
// grew 3 MB a minute under writes, docs/performance.md).
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// The count is read before saying ready: a commit signalled between the two would otherwise be
// taken as already seen, and its log left for the next commit or the idle wake-up.
let seen = Atomics.load(signal, ${COMMITS});
parentPort.postMessage('ready');
while (Atomics.load(signal, ${STOP}) === 0) {
  Atomics.wait(signal, ${COMMITS}, seen, workerData.idleMs);
  if (Atomics.load(signal, ${STOP}) !== 0) break;
  Atomics.wait(pause, 0, 0, workerData.gatherMs);
  seen = Atomics.load(signal, ${COMMITS});
  try {
    const pass = checkpoint.get();
    // SQLite syncs the file only when a pass reaches the log's end; under a steady load it never
    // does, and the serving connection's checkpoint would then sync everything copied so far.
    if (pass && pass.checkpointed > 0) fdatasyncSync(workerData.fd);
  } catch {
    // Busy or a full disk: the next pass tries again (engine.transaction handles a full disk).
  }
}
db.close();
`;

/**
 * Moves the serving connection's WAL checkpoints off the event loop (see CHECKPOINT_WORKER).
 * For a database file only: ':memory:' has no log. `syncDescriptor` is a descriptor of that file
 * opened for writing (Windows flushes only such a handle; nothing is written through it), which
 * the caller closes only once every connection of its own to the file is closed: on POSIX,
 * closing any descriptor of a file drops every lock this process holds on it, SQLite's included.
 * Until the worker's connection is open, and again if the worker stops or fails, the serving
 * connection checkpoints by itself.
 */
export function startWalCheckpointer(db: Database, syncDescriptor: number, options: WalCheckpointerOptions = {}): WalCheckpointer {
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(CHECKPOINT_WORKER, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      path: db.name,
      fd: syncDescriptor,
      signal: signal.buffer,
      gatherMs: options.gatherMs ?? 5,
      idleMs: options.idleMs ?? 1000,
    },
  });
  worker.unref();
  let stopped = false;
  worker.once('message', () => {
    if (!stopped && db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES_BEHIND_WORKER}`);
  });
  // A worker that could not start or failed leaves the checkpoints to the serving connection.
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      resolve();
    }),
  );
  return {
    wake() {
      Atomics.add(signal, COMMITS, 1);
      Atomics.notify(signal, COMMITS, 1);
    },
    async stop() {
      if (!stopped) {
        stopped = true;
        // Kept unreferenced while it runs; waiting for its exit must keep the process alive.
        worker.ref();
        Atomics.store(signal, STOP, 1);
        Atomics.notify(signal, COMMITS, 1);
      }
      await exited;
    },
  };
}
