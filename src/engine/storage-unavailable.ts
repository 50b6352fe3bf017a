// Issue 35: the database cannot be written now (a failover under way, a database machine out of
// reach), said in one type that the doors answer as 503 with Retry-After and never as a 500. The
// PostgreSQL layer retries a use case whole while the outage lasts and throws StorageUnavailable once
// its budget is spent; a read through a pool that cannot connect arrives here as the driver's own
// error, which `isStorageOutage` recognises too. Pure: no driver is imported, only the codes and
// messages PostgreSQL and Node's sockets give.

/** Whole seconds a client is told to wait before asking again (a failover takes about 15–30 s). */
export const STORAGE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export class StorageUnavailable extends Error {
  /** The error that ended the last attempt (logged, never sent to a client). */
  override readonly cause: unknown;

  constructor(message: string, cause?: unknown) {
    super(message);
    this.name = 'StorageUnavailable';
    this.cause = cause;
  }
}

/**
 * A COMMIT whose connection died before its answer came: it may or may not have been saved. A write
 * kept under an Idempotency-Key is retried instead (its claim answers a second run); an unkeyed one
 * ends here, told to the client as any outage (503), since running it again could do it twice.
 */
export class CommitOutcomeUnknown extends StorageUnavailable {
  constructor(cause: unknown) {
    super('the database connection was lost while a commit was in flight; it may or may not have been saved', cause);
    this.name = 'CommitOutcomeUnknown';
  }
}

/**
 * SQLSTATEs of an outage: the server shutting down or not accepting connections yet (57P01 admin
 * shutdown, 57P02 crash shutdown, 57P03 cannot connect now), a read-only transaction on a node that is
 * not (or no longer) the leader (25006), and class 08, connection exceptions.
 */
const OUTAGE_STATES = new Set(['57P01', '57P02', '57P03', '25006']);
/** Node's socket errors when the other end is gone or never answered. */
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
/**
 * What `pg` says when a connection ends or cannot be made (it gives these no code): "Connection
 * terminated unexpectedly", "Connection terminated due to connection timeout", "timeout exceeded
 * when trying to connect" (the pool), "Client has encountered a connection error and is not
 * queryable", "Client was closed and is not queryable", and its client-side "Query read timeout".
 */
const DRIVER_MESSAGES = [
  /^Connection terminated\b/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Query read timeout$/,
];

/** Whether an error means the database could not be reached or would not take a write just now. */
export function isStorageOutage(error: unknown): boolean {
  if (error instanceof StorageUnavailable) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (OUTAGE_STATES.has(code) || SOCKET_CODES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return typeof message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}
