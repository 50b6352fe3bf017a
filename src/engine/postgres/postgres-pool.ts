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

/** A pool's and a client's limits: none waits on the network or a lock for ever. */
export const POSTGRES_TIMEOUTS = {
  connectionTimeoutMillis: 5_000,
  idleTimeoutMillis: 30_000,
  statement_timeout: 15_000,
  query_timeout: 20_000,
  lock_timeout: 10_000,
  idle_in_transaction_session_timeout: 15_000,
} as const;

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
    keepAlive: true,
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
    keepAlive: true,
    connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectionTimeoutMillis,
    statement_timeout: POSTGRES_TIMEOUTS.statement_timeout,
    query_timeout: POSTGRES_TIMEOUTS.query_timeout,
  });
  client.on('error', (error) => options.onError(error));
  return client;
}
