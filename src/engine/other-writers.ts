// Another process may hold the SQLite file's write lock: a CLI writing beside a running hub (`npm run
// keys`, `npm run restaurant`), a sqlite3 shell left inside a transaction. better-sqlite3 is
// synchronous, so a connection that waits for that lock inside SQLite (its busy_timeout) stops the
// whole event loop for as long: the HTTP server, the kitchen screens' live stream, every timer. So
// the engine's connection never waits there (busy_timeout 0, set by the Engine): a write that finds
// the lock taken waits here instead, on timers, with the process lock let go meanwhile (reads and
// the live stream go on), up to OTHER_WRITER_WAIT_MS; then it is refused, nothing written, as
// `503 storage_unavailable` with Retry-After. Background work (the jobs' database pass) does not
// wait at all: it is refused at once and runs again on the next tick. docs/architecture.md, "Storage".
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from './domain/errors.ts';

/**
 * How long (real time) a write waits for another process to let the file's write lock go: the
 * 5 s the connection's busy_timeout used to wait, without stopping the event loop.
 */
export const OTHER_WRITER_WAIT_MS = 5000;
/** What a refused write's client is told to wait (Retry-After), as for a failover. */
export const OTHER_WRITER_RETRY_AFTER_SECONDS = 5;
/** The first pause between tries, doubled up to the last: a CLI's write takes milliseconds. */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;

/** SQLite's "database is locked" in any of its forms (SQLITE_BUSY, _SNAPSHOT, _RECOVERY, _TIMEOUT). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * A write (or read) refused because another process holds the file: nothing of it ran. An ApiError
 * (503, Retry-After), so the doors answer it as such and an Idempotency-Key keeps no record of it.
 */
export class OtherProcessWriting extends ApiError {
  constructor() {
    super(
      'storage_unavailable',
      'another program is writing the database file (a command-line tool, a database shell); nothing was saved: try again',
      OTHER_WRITER_RETRY_AFTER_SECONDS,
    );
    this.name = 'OtherProcessWriting';
  }
}

/** Thrown by an attempt that found the file busy before doing anything: try again later. */
export class FileBusy extends Error {
  constructor(cause: unknown) {
    super('the database file is busy (another process holds its write lock)', { cause });
    this.name = 'FileBusy';
  }
}

const background = new AsyncLocalStorage<boolean>();

/**
 * Runs `work` as background work: any transaction or read it starts that finds the file busy is
 * refused at once (OtherProcessWriting) instead of waiting for the other process.
 */
export function withoutWaiting<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/** The engine's waits for other processes: how many of its writes wait now, and the retry itself. */
export class OtherWriters {
  private waitingNow = 0;

  constructor(private readonly waitMs: number = OTHER_WRITER_WAIT_MS) {}

  /** This engine's transactions and reads waiting now for another process to let the file go. */
  get waiting(): number {
    return this.waitingNow;
  }

  /**
   * Runs `attempt` (which throws FileBusy when it found the file busy, having done nothing) until it
   * gets through: after a pause on a timer each time, for up to the wait; then, or at once in
   * background work, OtherProcessWriting.
   */
  async retry<T>(attempt: () => Promise<T>): Promise<T> {
    // Timed from the first refusal: the usual write, which gets through at once, reads no clock.
    let deadline: number | null = null;
    let pauseMs = FIRST_PAUSE_MS;
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof FileBusy)) throw error;
      }
      deadline ??= performance.now() + this.waitMs;
      const left = deadline - performance.now();
      if (background.getStore() === true || left <= 0) throw new OtherProcessWriting();
      this.waitingNow += 1;
      try {
        await sleep(Math.min(pauseMs, left));
      } finally {
        this.waitingNow -= 1;
      }
      pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS);
    }
  }
}
