import type { Database, Statement } from 'better-sqlite3';

export type PrintJobKind = 'ticket' | 'fallback' | 'bag' | 'reprint';
/** set_aside: its ticket reached the printer a few times without the printer confirming it; printed again only when asked (retry). */
export type PrintJobStatus = 'queued' | 'sending' | 'printed' | 'held' | 'dropped' | 'set_aside';

export interface PrintJobRow {
  seq: number;
  id: string;
  restaurant_id: string;
  printer_id: string;
  order_id: string | null;
  kind: PrintJobKind;
  station_id: string | null;
  /** JSON of the ticket (printers/ticket-document.ts) as it was when the job was written. */
  document: string;
  status: PrintJobStatus;
  /** 1: printed again after a send cut off by a crash, or asked for (Reimprimir): marked REIMPRESIÓN. */
  reprint: number;
  attempts: number;
  /** Sends whose ticket left without the printer confirming it (migration 0015). */
  failed_sends: number;
  next_attempt_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  printed_at: number | null;
}

export type NewPrintJob = Omit<PrintJobRow, 'seq' | 'attempts' | 'failed_sends' | 'last_error' | 'printed_at' | 'updated_at'>;
export type PrintJobChanges = Partial<Pick<PrintJobRow, 'status' | 'reprint' | 'attempts' | 'failed_sends' | 'next_attempt_at' | 'last_error' | 'printed_at'>>;

/** Print jobs: each printer's queue, in `seq` order. */
export class PrintJobsStore {
  private readonly db: Database;
  private readonly insertStatement: Statement;
  private readonly byId: Statement<[string], PrintJobRow>;
  private readonly headStatement: Statement<[string], PrintJobRow>;
  private readonly printersWithWork: Statement<[], { printer_id: string }>;
  private readonly sendingStatement: Statement<[], PrintJobRow>;
  private readonly heldStatement: Statement<[], PrintJobRow>;
  private readonly ofOrderStatement: Statement<[string], PrintJobRow>;
  private readonly recentStatement: Statement<[string, number], PrintJobRow>;
  private readonly countsStatement: Statement<[string], { printer_id: string; status: PrintJobStatus; n: number }>;
  private readonly dropStatement: Statement<[number, string]>;
  private readonly setAsideStatement: Statement<[string], PrintJobRow>;
  private readonly purgeStatement: Statement<[number, number]>;
  private readonly claimStatement: Statement<{ id: string; now: number; lease_until: number; take_over: number }, PrintJobRow>;
  private readonly updateStatements = new Map<string, Statement>();

  constructor(db: Database) {
    this.db = db;
    this.insertStatement = db.prepare(
      `INSERT INTO print_jobs (id, restaurant_id, printer_id, order_id, kind, station_id, document, status, reprint,
         attempts, failed_sends, next_attempt_at, last_error, created_at, updated_at, printed_at)
       VALUES (@id, @restaurant_id, @printer_id, @order_id, @kind, @station_id, @document, @status, @reprint,
         0, 0, @next_attempt_at, NULL, @created_at, @created_at, NULL)`,
    );
    this.byId = db.prepare('SELECT * FROM print_jobs WHERE id = ?');
    // Conditional, so two claims of one job (two nodes on PostgreSQL; the twin holds the same SQL)
    // never both win. SET's expressions read the row as it was: a job taken over is a reprint.
    this.claimStatement = db.prepare(
      `UPDATE print_jobs SET status = 'sending', attempts = attempts + 1, reprint = CASE WHEN status = 'sending' THEN 1 ELSE reprint END,
         next_attempt_at = @lease_until, updated_at = @now
       WHERE id = @id AND ((status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= @now))
         OR (@take_over = 1 AND status = 'sending' AND next_attempt_at <= @now))
       RETURNING *`,
    );
    // The oldest finished jobs first, through the partial index (migration 0014): a pass costs its limit, not the table.
    this.purgeStatement = db.prepare(
      `DELETE FROM print_jobs WHERE seq IN (
         SELECT seq FROM print_jobs INDEXED BY print_jobs_finished
         WHERE status IN ('printed', 'dropped') AND updated_at < ? ORDER BY updated_at LIMIT ?)`,
    );
    this.dropStatement = db.prepare(`UPDATE print_jobs SET status = 'dropped', next_attempt_at = NULL, updated_at = ? WHERE printer_id = ? AND status IN ('queued', 'sending', 'held', 'set_aside')`);
    this.setAsideStatement = db.prepare(`SELECT * FROM print_jobs WHERE printer_id = ? AND status = 'set_aside' ORDER BY seq`);
    // A printer's queue is strictly in order: its oldest job not printed holds back the rest.
    this.headStatement = db.prepare(
      `SELECT * FROM print_jobs WHERE printer_id = ? AND status IN ('queued', 'sending') ORDER BY seq LIMIT 1`,
    );
    this.printersWithWork = db.prepare(`SELECT DISTINCT printer_id FROM print_jobs WHERE status IN ('queued', 'sending')`);
    this.sendingStatement = db.prepare(`SELECT * FROM print_jobs WHERE status = 'sending' ORDER BY seq`);
    this.heldStatement = db.prepare(`SELECT * FROM print_jobs WHERE status = 'held' ORDER BY seq`);
    this.ofOrderStatement = db.prepare('SELECT * FROM print_jobs WHERE order_id = ? ORDER BY seq');
    this.recentStatement = db.prepare('SELECT * FROM print_jobs WHERE restaurant_id = ? ORDER BY seq DESC LIMIT ?');
    this.countsStatement = db.prepare(
      `SELECT printer_id, status, COUNT(*) AS n FROM print_jobs WHERE restaurant_id = ? AND status IN ('queued', 'sending', 'held', 'set_aside')
       GROUP BY printer_id, status`,
    );
  }

  insert(job: NewPrintJob): void {
    this.insertStatement.run(job);
  }

  get(id: string): PrintJobRow | undefined {
    return this.byId.get(id);
  }

  /** The printer's oldest job still to print (queued or being sent), if any. */
  head(printerId: string): PrintJobRow | undefined {
    return this.headStatement.get(printerId);
  }

  /** Printers with a job to send. */
  printersToServe(): string[] {
    return this.printersWithWork.all().map((r) => r.printer_id);
  }

  /** Jobs claimed for a send (by this process, or by one that died mid-send). */
  sending(): PrintJobRow[] {
    return this.sendingStatement.all();
  }

  /** Fallback tickets waiting on their station's screens. */
  held(): PrintJobRow[] {
    return this.heldStatement.all();
  }

  ofOrder(orderId: string): PrintJobRow[] {
    return this.ofOrderStatement.all(orderId);
  }

  recent(restaurantId: string, limit: number): PrintJobRow[] {
    return this.recentStatement.all(restaurantId, limit);
  }

  /** The printer's jobs set aside, oldest first. */
  setAsideOf(printerId: string): PrintJobRow[] {
    return this.setAsideStatement.all(printerId);
  }

  /** Open jobs per printer and status (the status strip's counts). */
  openCounts(restaurantId: string): { printer_id: string; status: PrintJobStatus; n: number }[] {
    return this.countsStatement.all(restaurantId);
  }

  /** Deletes at most `limit` finished jobs (printed, dropped) last changed before `before`; returns how many. */
  deleteFinishedBefore(before: number, limit: number): number {
    return this.purgeStatement.run(before, limit).changes;
  }

  /** Drops a printer's jobs not printed yet (set aside ones too); returns how many. */
  dropOpenOf(printerId: string, at: number): number {
    return this.dropStatement.run(at, printerId).changes;
  }

  /**
   * Claims a job for one send (issue 34): `sending`, its attempts counted, its lease's end in
   * `next_attempt_at`. Only a job queued and due, or, with `takeOver`, one `sending` whose lease
   * has ended (its sender died mid-send: taken over as a reprint, REIMPRESIÓN). The row as claimed,
   * or undefined when it is not claimable (another claim has it).
   */
  claim(id: string, now: number, leaseUntil: number, takeOver: boolean): PrintJobRow | undefined {
    return this.claimStatement.get({ id, now, lease_until: leaseUntil, take_over: takeOver ? 1 : 0 });
  }

  update(id: string, changes: PrintJobChanges, updatedAt: number): void {
    this.updateWhere(id, null, changes, updatedAt);
  }

  /**
   * Records a claimed send's outcome only while the job still holds that claim (`sending`, the
   * lease ending at `leaseUntil`: the claim's fencing token). False when it does not: the lease
   * ended and another sender took the job over, whose outcome counts.
   */
  updateClaimed(id: string, leaseUntil: number, changes: PrintJobChanges, updatedAt: number): boolean {
    return this.updateWhere(id, leaseUntil, changes, updatedAt) === 1;
  }

  private updateWhere(id: string, leaseUntil: number | null, changes: PrintJobChanges, updatedAt: number): number {
    const columns = Object.keys(changes).sort();
    const held = leaseUntil === null ? '' : " AND status = 'sending' AND next_attempt_at = @lease_until";
    const sql = `UPDATE print_jobs SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @updated_at WHERE id = @id${held}`;
    let statement = this.updateStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.updateStatements.set(sql, statement);
    }
    return statement.run({ ...changes, updated_at: updatedAt, id, ...(leaseUntil === null ? {} : { lease_until: leaseUntil }) }).changes;
  }
}
