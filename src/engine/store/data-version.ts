import type { Database, Statement } from 'better-sqlite3';

/**
 * SQLite's `PRAGMA data_version` on one connection: it changes when another connection (another
 * process on the same file, a CLI, a second connection of this process) commits, and never for
 * this connection's own commits. What this process keeps in memory from the database is dropped
 * when it changes; this connection's own writes are accounted for where they are made.
 *
 * Reading it is one small read transaction (it takes the WAL read lock to see the latest commit).
 */
export class DataVersion {
  private readonly statement: Statement<[], number>;
  private seen: number;
  private readonly listeners = new Set<() => void>();
  /** check() ran during this turn of the event loop (cleared by an immediate at the turn's end). */
  private checkedThisTurn = false;
  private readonly endTurn = () => {
    this.checkedThisTurn = false;
  };

  constructor(db: Database) {
    this.statement = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.seen = this.statement.get()!;
  }

  /** The current value (for callers that compare values themselves). */
  read(): number {
    return this.statement.get()!;
  }

  /**
   * Reads it; when another connection committed since the last check, tells every listener
   * (synchronously, before returning) and returns true.
   */
  check(): boolean {
    const now = this.statement.get()!;
    if (now === this.seen) return false;
    this.seen = now;
    for (const listener of this.listeners) listener();
    return true;
  }

  /**
   * check(), at most once per turn of the event loop: for the requests Node reads and dispatches
   * in one turn's poll phase (authentication), which all arrived before the first of them got
   * here. A commit another process finished before that turn's poll returned is seen by every one
   * of them; only a commit finishing in the microseconds between the first request's check and a
   * later request of the same turn may go unseen by that later one, which the server then read at
   * the same time as that commit (the two were concurrent). Reading `data_version` is a read
   * transaction (the WAL read lock taken and released, two system calls); under load one turn
   * carries several requests, which now share it.
   */
  checkThisTurn(): boolean {
    if (this.checkedThisTurn) return false;
    this.checkedThisTurn = true;
    setImmediate(this.endTurn);
    return this.check();
  }

  /** Called by check() when another connection has committed; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
