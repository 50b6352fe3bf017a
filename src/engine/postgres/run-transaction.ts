// Issue 34: one transaction on a pooled connection, READ COMMITTED (PostgreSQL's default), rerun from
// its start when PostgreSQL ends it to break a deadlock (40P01) or a serialization failure (40001).
// Issue 35: also rerun, whole and on a new connection, while the database is out of reach or read-only
// (a failover: the leader shutting down, connections cut or refused, a demoted leader answering
// 25006), with growing pauses up to a time budget, after which StorageUnavailable is thrown. The work
// only touches the database, never an outside party, so running it again is safe as long as it did
// not commit, which is known everywhere but in COMMIT itself (below).
import type pg from 'pg';
import { CommitOutcomeUnknown, isStorageOutage, StorageUnavailable } from '../storage-unavailable.ts';
import { commitWatchFor, SESSION_SQL, whileCommitting, type CommitWatch, type Session } from './commit-watch.ts';
import { abortCauseOf, forgetAbortCause, realCause } from './abort-cause.ts';

const CONFLICT_CODES = new Set(['40P01', '40001']);
export const MAX_TRANSACTION_ATTEMPTS = 5;

/** A deadlock or serialization failure: PostgreSQL rolled the transaction back, a rerun may pass. */
export function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && CONFLICT_CODES.has((error as { code?: string }).code ?? '');
}

/**
 * A statement that waited past the server's lock_timeout (55P03) or statement_timeout (57014): a row
 * (the restaurant's clock row) held that long by another transaction, which during a switch is a
 * COMMIT waiting for the new leader's synchronous standby to connect. Seen in the failover test as a
 * 500 to a store front. The statement was cancelled before COMMIT, so nothing of it was saved: the use
 * case is rerun whole like one that met an outage, within the same budget, and a row held past the
 * budget ends in StorageUnavailable (503 with Retry-After), never a 500.
 */
const WAITED_TOO_LONG_CODES = new Set(['55P03', '57014']);

export function waitedTooLong(error: unknown): boolean {
  return typeof error === 'object' && error !== null && WAITED_TOO_LONG_CODES.has((error as { code?: string }).code ?? '');
}

/** Where the retries take their time from: real time by default, a fake one in tests. */
export interface RetryTimer {
  /** Milliseconds, monotonic. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realRetryTimer: RetryTimer = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** How long a use case keeps retrying through an outage, and its pauses. */
export interface OutageRetry {
  /** From the first attempt; then StorageUnavailable. Default 20 s: Patroni's failover here takes 15–18 s. */
  budgetMs: number;
  /** The first pause; each next one doubles, up to maxPauseMs, each with up to half of it added at random. */
  firstPauseMs: number;
  maxPauseMs: number;
}

/**
 * Pauses at most 0.25 s (0.375 s with its random half): a planned switchover keeps writes away about
 * 3 s here, and a use case's first write after it comes up to one pause late; the target is 5 s
 * (figures in docs/platform-failover.md). An attempt in an outage costs one refused connection.
 */
export const DEFAULT_OUTAGE_RETRY: OutageRetry = { budgetMs: 20_000, firstPauseMs: 50, maxPauseMs: 250 };

/**
 * The longest timer Node keeps (about 24.8 days): COMMIT's client-side timeout. The pool's
 * `query_timeout` would answer a COMMIT still waiting for the synchronous standby with an error while
 * PostgreSQL goes on and commits it (pg sends no cancel; on a pipelining connection it cuts it): a
 * write reported failed, and saved. `pg` takes a query's own `query_timeout` only when it is not 0, so
 * "none" is said as this. A COMMIT is never abandoned by
 * the client: it ends with PostgreSQL's answer or its connection's end (HAProxy cuts the sessions of a
 * node that stops leading, so a hung leader ends it too), or, on a half-open connection, once the
 * database says nothing can be committing it any more (commit-watch.ts).
 */
const COMMIT_QUERY_TIMEOUT_MS = 2_147_483_647;
/** `pg` reads `query_timeout` from a query's config (client.js), which its types do not list. */
const COMMIT_WITHOUT_CLIENT_TIMEOUT = { text: 'COMMIT', query_timeout: COMMIT_QUERY_TIMEOUT_MS } as pg.QueryConfig;

export interface RunTransactionOptions {
  /** Attempts after a deadlock or serialization failure (default 5). */
  maxAttempts?: number;
  onRetry?: (error: unknown, attempt: number) => void;
  /** The budget and pauses through an outage (DEFAULT_OUTAGE_RETRY). */
  outage?: OutageRetry;
  timer?: RetryTimer;
  /**
   * Asked when a COMMIT's connection died before its answer (the outcome is unknown): true when the
   * work is safe to run again even if it did commit (a write whose Idempotency-Key it claimed: the
   * second run finds the key answered). Otherwise CommitOutcomeUnknown is thrown. Default: never.
   */
  rerunAfterUnknownCommit?: () => boolean;
  /**
   * What ends a COMMIT sent into a half-open connection (commit-watch.ts). Default: asked through a
   * new connection with the pool's settings; null: none (a pool that is not pg's, in fast tests).
   */
  commitWatch?: CommitWatch | null;
}

/** A pg.Pool keeps its settings (connection string, credentials): a watch connects with the same. */
function defaultCommitWatch(pool: pg.Pool): CommitWatch | null {
  const settings = (pool as { options?: pg.ClientConfig }).options;
  // pg-pool keeps a password given apart from the connection string as a non-enumerable property.
  return settings ? commitWatchFor({ ...settings, password: settings.password }) : null;
}

/** Runs `work` between BEGIN and COMMIT (sent pipelined with its first statement); rolls back on error. */
export async function runTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: RunTransactionOptions = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? MAX_TRANSACTION_ATTEMPTS;
  const outage = options.outage ?? DEFAULT_OUTAGE_RETRY;
  const timer = options.timer ?? realRetryTimer;
  const deadline = timer.now() + outage.budgetMs;
  const watch = options.commitWatch === undefined ? defaultCommitWatch(pool) : options.commitWatch;
  let conflicts = 0;
  let outages = 0;
  for (let attempt = 1; ; attempt += 1) {
    let pause: number;
    try {
      return await attemptOnce(pool, work, watch);
    } catch (error) {
      const failure = error instanceof AttemptFailure ? error : null;
      const cause = failure ? failure.cause : error;
      if (failure?.duringCommit && !(options.rerunAfterUnknownCommit?.() ?? false)) throw new CommitOutcomeUnknown(cause);
      if (isRetryable(cause) && !failure?.duringCommit) {
        conflicts += 1;
        if (conflicts >= maxAttempts) throw cause;
        // A short random pause, growing with each attempt, so the two transactions do not meet again.
        pause = Math.random() * 5 * 2 ** conflicts;
      } else if (isStorageOutage(cause) || (waitedTooLong(cause) && !failure?.duringCommit)) {
        outages += 1;
        const grown = Math.min(outage.maxPauseMs, outage.firstPauseMs * 2 ** (outages - 1));
        pause = grown + Math.random() * grown * 0.5;
        if (timer.now() + pause > deadline) {
          throw new StorageUnavailable(`the database could not be written for ${outage.budgetMs} ms (${outages} attempts)`, cause);
        }
      } else {
        throw cause;
      }
      options.onRetry?.(cause, attempt);
    }
    await timer.sleep(pause);
  }
}

/** Why an attempt ended, and whether it was in COMMIT (where the outcome may be unknown). */
class AttemptFailure extends Error {
  constructor(
    override readonly cause: unknown,
    readonly duringCommit: boolean,
  ) {
    super('transaction attempt failed');
  }
}

/** Each pooled connection's session, read once (before its first BEGIN, pipelined with it). */
const sessions = new WeakMap<pg.PoolClient, Promise<Session | undefined>>();

function sessionOf(client: pg.PoolClient): Promise<Session | undefined> {
  let session = sessions.get(client);
  if (!session) {
    session = client.query<Session>(SESSION_SQL).then(({ rows }) => rows?.[0]);
    sessions.set(client, session);
  }
  return session;
}

/** Ends a connection's socket (pg then fails its pending queries as a lost connection). */
function cutConnection(client: pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

async function attemptOnce<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, watch: CommitWatch | null): Promise<T> {
  const client = await pool.connect();
  forgetAbortCause(client);
  // A connection that breaks while checked out fails its pending query too: that is where it is handled.
  const ignore = () => {};
  client.on('error', ignore);
  // Given to release(): the pool then destroys the client instead of keeping it. A connection that
  // saw an outage is never reused: it may be cut, or open on a node that is no longer the leader.
  let broken: Error | undefined;
  try {
    let result: T;
    let session: Session | undefined;
    try {
      // Sent before BEGIN (outside the transaction) on a connection's first use only.
      [session, , result] = await Promise.all([watch ? sessionOf(client) : undefined, client.query('BEGIN'), work(client)]);
    } catch (thrown) {
      // A statement the work awaited was refused because one sent before it, unawaited, failed: its error is the cause.
      const error = realCause(client, thrown);
      if (isStorageOutage(error)) broken = error as Error;
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw new AttemptFailure(error, false);
    }
    let committed: pg.QueryResult;
    try {
      // statement_timeout cannot end it: PostgreSQL stops a statement's timer before it commits
      // (postgres.c, finish_xact_command), so the wait for the synchronous standby is never cancelled.
      // A half-open connection is found by asking the database about the session (commit-watch.ts).
      const commit = client.query(COMMIT_WITHOUT_CLIENT_TIMEOUT);
      committed = watch && session ? await whileCommitting(commit, session, watch, () => cutConnection(client)) : await commit;
    } catch (error) {
      broken = error as Error;
      // Refused before it committed (a deadlock found at commit, a constraint checked then) is a
      // rollback PostgreSQL made and said; only a lost connection leaves the outcome unknown.
      throw new AttemptFailure(error, isStorageOutage(error) && !isReadOnly(error));
    }
    // PostgreSQL answers COMMIT of a transaction a failed statement aborted with ROLLBACK, not an
    // error: work that swallowed a statement's error, or sent one without awaiting it
    // (transaction-client.ts), must not be taken for saved. That statement's error is the cause
    // (a deadlock or a lock timeout is then retried: nothing was committed).
    if (committed.command !== 'COMMIT') {
      throw abortCauseOf(client) ?? new Error(`the transaction was rolled back at its commit (${committed.command})`);
    }
    return result;
  } finally {
    client.off('error', ignore);
    client.release(broken);
  }
}

/** 25006 comes before anything is written: the transaction did not commit. */
function isReadOnly(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '25006';
}
