// Issue 34: how the engine connects to PostgreSQL (`pg` ≥ 8.23, for its pipelining): every pool and
// client has timeouts and an error handler, so a dropped connection is logged and replaced instead
// of crashing the process, and no statement or open transaction can hold a lock forever.
import pg from 'pg';

export interface PostgresPoolOptions {
  connectionString: string;
  /** Connections of this node (default 10). */
  max?: number;
  /** Shown in pg_stat_activity: which node and what for. */
  applicationName?: string;
  /** Told of errors no caller is waiting on (an idle connection dropped). Never given a connection string. */
  onError: (error: Error) => void;
}

/**
 * A pool's and a client's limits: none waits on the network or a lock for ever. Issue 35: a database
 * machine that vanishes without a FIN or RST (power loss, a partition) leaves a connection half-open,
 * and only the client's own bounds find it: `query_timeout` (client-side, every statement but COMMIT,
 * which commit-watch.ts covers) is what ends a statement sent into it, so it is kept short enough
 * for runTransaction to rerun the use case on a new connection within its 20 s budget, and longer
 * than the server's own bounds (statement_timeout, lock_timeout), so a statement that is merely slow
 * is ended by PostgreSQL with its own error first. The server ends the transaction a half-open
 * connection orphaned by idle_in_transaction_session_timeout, which frees its locks (the restaurant's
 * clock row among them) sooner than any waiter's lock_timeout: the rerun and the restaurant's other
 * writes wait for it instead of failing with 55P03. A use case never idles inside its transaction
 * (it awaits only its statements), so 4 s is generous; a session it ends is a lost connection, rerun.
 */
export const POSTGRES_TIMEOUTS = {
  connectionTimeoutMillis: 5_000,
  idleTimeoutMillis: 30_000,
  idle_in_transaction_session_timeout: 4_000,
  lock_timeout: 5_000,
  statement_timeout: 6_000,
  query_timeout: 8_000,
} as const;

/**
 * TCP keepalive on every connection: an idle pooled or LISTEN socket whose peer vanished is found by
 * the kernel (its first probe after this idle time; the interval and count are libuv's) and dropped before a
 * use case takes it. Keepalive sends nothing while data is unacknowledged: a statement in flight is
 * bounded by query_timeout, a COMMIT by commit-watch.ts.
 */
export const KEEPALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 5_000 } as const;

const INT8_OID = 20;

/**
 * bigint columns (times in epoch milliseconds, sequences, amounts) as numbers, as better-sqlite3
 * gives them; one beyond 2^53 is refused rather than rounded.
 */
export const ENGINE_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid !== INT8_OID) return pg.types.getTypeParser(oid, format);
    return (text: string) => {
      const value = Number(text);
      if (!Number.isSafeInteger(value)) throw new Error(`bigint ${text} does not fit a JavaScript number`);
      return value;
    };
  },
} as pg.CustomTypesConfig;

/** A pool whose connections pipeline their statements (a use case's statements go out together). */
export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'comanda',
    types: ENGINE_TYPES,
    ...KEEPALIVE,
    pipeline: true,
    ...POSTGRES_TIMEOUTS,
  });
  pool.on('error', (error) => options.onError(error));
  return pool;
}

/** A connection of its own (the LISTEN connection), with the same limits and types but no pipelining. */
export function createPostgresClient(options: Omit<PostgresPoolOptions, 'max'>): pg.Client {
  const client = new pg.Client({
    connectionString: options.connectionString,
    application_name: options.applicationName ?? 'comanda',
    types: ENGINE_TYPES,
    ...KEEPALIVE,
    connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectionTimeoutMillis,
    statement_timeout: POSTGRES_TIMEOUTS.statement_timeout,
    query_timeout: POSTGRES_TIMEOUTS.query_timeout,
  });
  client.on('error', (error) => options.onError(error));
  return client;
}
