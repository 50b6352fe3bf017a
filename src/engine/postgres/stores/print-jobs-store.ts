// Issue 34: PrintJobsStore (store/print-jobs-store.ts) on PostgreSQL. A job's `seq` is an identity
// column: unique and rising, not in commit order across nodes; a printer's queue is ordered by it
// as on SQLite, and the jobs of one printer are written by its restaurant's writes, one after the
// other. The purge of finished jobs goes through the partial index print_jobs_finished (the planner
// picks it; PostgreSQL has no INDEXED BY) and skips rows another node holds, so two nodes' purges
// never wait on each other. `update` sets only the columns its change type names (they are written
// into the SQL).
import type { AsyncStore } from '../../store/async-store.ts';
import type { NewPrintJob, PrintJobChanges, PrintJobRow, PrintJobStatus, PrintJobsStore } from '../../store/print-jobs-store.ts';
import { changesOf, firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const INSERT_COLUMNS = [
  'id', 'restaurant_id', 'printer_id', 'order_id', 'kind', 'station_id', 'document', 'status', 'reprint', 'next_attempt_at', 'created_at',
] as const satisfies readonly (keyof NewPrintJob)[];

/** The columns an update may set: a closed list, since their names are written into the SQL. */
const UPDATABLE = new Set<string>([
  'status', 'reprint', 'attempts', 'failed_sends', 'next_attempt_at', 'last_error', 'printed_at',
] satisfies (keyof PrintJobChanges)[]);

const OPEN = `('queued', 'sending', 'held', 'set_aside')`;

const SQL = {
  insert: `INSERT INTO print_jobs (${INSERT_COLUMNS.join(', ')}, attempts, failed_sends, last_error, updated_at, printed_at)
    VALUES (${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, 0, 0, NULL, $${INSERT_COLUMNS.indexOf('created_at') + 1}, NULL)`,
  byId: 'SELECT * FROM print_jobs WHERE id = $1',
  purge: `DELETE FROM print_jobs WHERE seq IN (
    SELECT seq FROM print_jobs WHERE status IN ('printed', 'dropped') AND updated_at < $1 ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  drop: `UPDATE print_jobs SET status = 'dropped', next_attempt_at = NULL, updated_at = $1 WHERE printer_id = $2 AND status IN ${OPEN}`,
  setAside: `SELECT * FROM print_jobs WHERE printer_id = $1 AND status = 'set_aside' ORDER BY seq`,
  head: `SELECT * FROM print_jobs WHERE printer_id = $1 AND status IN ('queued', 'sending') ORDER BY seq LIMIT 1`,
  printersWithWork: `SELECT DISTINCT printer_id FROM print_jobs WHERE status IN ('queued', 'sending')`,
  sending: `SELECT * FROM print_jobs WHERE status = 'sending' ORDER BY seq`,
  held: `SELECT * FROM print_jobs WHERE status = 'held' ORDER BY seq`,
  ofOrder: 'SELECT * FROM print_jobs WHERE order_id = $1 ORDER BY seq',
  recent: 'SELECT * FROM print_jobs WHERE restaurant_id = $1 ORDER BY seq DESC LIMIT $2',
  // As SQLite's (store/print-jobs-store.ts). Under READ COMMITTED a second claim racing the first
  // waits for its commit, then re-checks the WHERE on the row as claimed: it matches no more.
  claim: `UPDATE print_jobs SET status = 'sending', attempts = attempts + 1, reprint = CASE WHEN status = 'sending' THEN 1 ELSE reprint END,
      next_attempt_at = $3, updated_at = $2
    WHERE id = $1 AND ((status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= $2))
      OR ($4::boolean AND status = 'sending' AND next_attempt_at <= $2))
    RETURNING *`,
  counts: `SELECT printer_id, status, COUNT(*) AS n FROM print_jobs WHERE restaurant_id = $1 AND status IN ${OPEN} GROUP BY printer_id, status`,
};

export class PostgresPrintJobsStore implements AsyncStore<PrintJobsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async insert(job: NewPrintJob): Promise<void> {
    await this.db.query(SQL.insert, INSERT_COLUMNS.map((c) => job[c]));
  }

  get(id: string): Promise<PrintJobRow | undefined> {
    return firstRow<PrintJobRow>(this.db, SQL.byId, [id]);
  }

  head(printerId: string): Promise<PrintJobRow | undefined> {
    return firstRow<PrintJobRow>(this.db, SQL.head, [printerId]);
  }

  async printersToServe(): Promise<string[]> {
    return (await rowsOf<{ printer_id: string }>(this.db, SQL.printersWithWork)).map((r) => r.printer_id);
  }

  sending(): Promise<PrintJobRow[]> {
    return rowsOf<PrintJobRow>(this.db, SQL.sending);
  }

  held(): Promise<PrintJobRow[]> {
    return rowsOf<PrintJobRow>(this.db, SQL.held);
  }

  ofOrder(orderId: string): Promise<PrintJobRow[]> {
    return rowsOf<PrintJobRow>(this.db, SQL.ofOrder, [orderId]);
  }

  recent(restaurantId: string, limit: number): Promise<PrintJobRow[]> {
    return rowsOf<PrintJobRow>(this.db, SQL.recent, [restaurantId, limit]);
  }

  setAsideOf(printerId: string): Promise<PrintJobRow[]> {
    return rowsOf<PrintJobRow>(this.db, SQL.setAside, [printerId]);
  }

  openCounts(restaurantId: string): Promise<{ printer_id: string; status: PrintJobStatus; n: number }[]> {
    return rowsOf<{ printer_id: string; status: PrintJobStatus; n: number }>(this.db, SQL.counts, [restaurantId]);
  }

  deleteFinishedBefore(before: number, limit: number): Promise<number> {
    return changesOf(this.db, SQL.purge, [before, limit]);
  }

  dropOpenOf(printerId: string, at: number): Promise<number> {
    return changesOf(this.db, SQL.drop, [at, printerId]);
  }

  claim(id: string, now: number, leaseUntil: number, takeOver: boolean): Promise<PrintJobRow | undefined> {
    return firstRow<PrintJobRow>(this.db, SQL.claim, [id, now, leaseUntil, takeOver]);
  }

  async update(id: string, changes: PrintJobChanges, updatedAt: number): Promise<void> {
    await this.updateWhere(id, null, changes, updatedAt);
  }

  async updateClaimed(id: string, leaseUntil: number, changes: PrintJobChanges, updatedAt: number): Promise<boolean> {
    return (await this.updateWhere(id, leaseUntil, changes, updatedAt)) === 1;
  }

  private updateWhere(id: string, leaseUntil: number | null, changes: PrintJobChanges, updatedAt: number): Promise<number> {
    const columns = Object.keys(changes).sort();
    for (const column of columns) {
      if (!UPDATABLE.has(column)) throw new Error(`a print job's ${column} is not changed by update`);
    }
    const set = columns.map((c, i) => `${c} = $${i + 1}`);
    const values = columns.map((c) => changes[c as keyof PrintJobChanges]);
    const held = leaseUntil === null ? '' : ` AND status = 'sending' AND next_attempt_at = $${columns.length + 3}`;
    const sql = `UPDATE print_jobs SET ${[...set, `updated_at = $${columns.length + 1}`].join(', ')} WHERE id = $${columns.length + 2}${held}`;
    return changesOf(this.db, sql, [...values, updatedAt, id, ...(leaseUntil === null ? [] : [leaseUntil])]);
  }
}
