// Issue 34: the outboxes the jobs runner performs (outside calls, after the commit that queued
// them), as the storage port claims them on every node. Each row has a "next at" column: a row is
// due when it is at or before now; a claim moves it to the claim's lease end, so a node that dies
// mid-call leaves the row due again when its lease ends, and another node takes it. The lease end is
// also the claim's fencing token: a finish counts only while the row still holds it, so a node whose
// lease ended (and whose job another node took) can never record a second outcome.
// The SQL is written once for both databases, its parameters numbered: `$3` on PostgreSQL, `@p3` on
// SQLite (better-sqlite3 binds numbered `?3` only by position), bound with `sqliteParams`.

export type JobQueue = 'mail' | 'payment' | 'courier';

export const JOB_QUEUES: readonly JobQueue[] = ['mail', 'payment', 'courier'];

interface JobQueueTable {
  table: string;
  id: string;
  /** When the row is due next; NULL = nothing to do. During a claim, the lease's end. */
  nextAt: string;
  /** What else a due row must be. */
  due: string;
  /** Whether a claim counts an attempt (the courier's `attempts` counts dispatches only, which its service counts). */
  countsAttempts: boolean;
  /** Columns set besides the next time when the job is done, or has failed for good. */
  done: string;
  failed: string;
}

// `?3` in `done` is the finish's time.
const TABLES: Record<JobQueue, JobQueueTable> = {
  mail: {
    table: 'mail_outbox', id: 'id', nextAt: 'next_attempt_at', due: "status = 'pending'", countsAttempts: true,
    done: "status = 'sent', sent_at = ?3", failed: "status = 'failed'",
  },
  payment: {
    table: 'payment_actions', id: 'id', nextAt: 'next_at', due: "status = 'pending'", countsAttempts: true,
    done: "status = 'done'", failed: "status = 'failed'",
  },
  courier: {
    table: 'courier_deliveries', id: 'order_id', nextAt: 'next_check_at', due: 'TRUE', countsAttempts: false,
    done: '', failed: "status = 'fallido'",
  },
};

/** A job one node holds until `leaseUntil`. */
export interface JobClaim {
  queue: JobQueue;
  /** The row's key, as text (the mail's and payment action's ids are numbers). */
  id: string;
  /** The claim's lease end, and its fencing token: the finish must find the row still holding it. */
  leaseUntil: number;
}

/** How a claimed job ended: done; to be tried again at `at`; or failed for good. */
export type JobOutcome = { kind: 'done' } | { kind: 'retry'; at: number; error: string } | { kind: 'failed'; error: string };

type Placeholder = '@' | '$';

const numbered = (sql: string, placeholder: Placeholder) => sql.replace(/\?(\d)/g, placeholder === '$' ? '$$$1' : '@p$1');

/** The params of a statement written here, as SQLite binds them: `@p1` is the first. */
export function sqliteParams(params: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(params.map((value, i) => [`p${i + 1}`, value]));
}

/**
 * Due rows, oldest first, moved to the lease: params now (?1), lease end (?2), limit (?3). On
 * PostgreSQL the inner select locks what it picks and skips what another node's claim has locked
 * (`FOR UPDATE SKIP LOCKED`, re-checked on the newest row); SQLite has one writer.
 */
export function claimSql(queue: JobQueue, placeholder: Placeholder): string {
  const t = TABLES[queue];
  const lock = placeholder === '$' ? ' FOR UPDATE SKIP LOCKED' : '';
  return numbered(
    `UPDATE ${t.table} SET ${t.nextAt} = ?2, updated_at = ?1${t.countsAttempts ? ', attempts = attempts + 1' : ''}
    WHERE ${t.id} IN (
      SELECT ${t.id} FROM ${t.table} WHERE ${t.due} AND ${t.nextAt} IS NOT NULL AND ${t.nextAt} <= ?1
      ORDER BY ${t.nextAt}, ${t.id} LIMIT ?3${lock}
    )
    RETURNING ${t.id} AS id`,
    placeholder,
  );
}

/**
 * The outcome, only while the row still holds this claim's lease: params id (?1), lease end (?2),
 * finish time (?3), next time (?4: null unless a retry), error (?5: null when done).
 */
export function finishSql(queue: JobQueue, outcome: JobOutcome['kind'], placeholder: Placeholder): string {
  const t = TABLES[queue];
  const extra = outcome === 'done' ? t.done : outcome === 'failed' ? t.failed : '';
  return numbered(
    `UPDATE ${t.table} SET ${t.nextAt} = ?4, last_error = ?5, updated_at = ?3${extra ? `, ${extra}` : ''}
    WHERE ${t.id} = ?1 AND ${t.nextAt} = ?2 AND ${t.due}`,
    placeholder,
  );
}

/** The finish's params in finishSql's order. */
export function finishParams(claim: JobClaim, outcome: JobOutcome, at: number): [string, number, number, number | null, string | null] {
  return [
    claim.id,
    claim.leaseUntil,
    at,
    outcome.kind === 'retry' ? outcome.at : null,
    outcome.kind === 'done' ? null : outcome.error,
  ];
}

/** A claim's lease must end after its start, or a finish could not tell two claims apart. */
export function checkLease(now: number, leaseUntil: number): void {
  if (!(leaseUntil > now)) throw new Error(`a job's lease must end after it starts (${leaseUntil} <= ${now})`);
}
