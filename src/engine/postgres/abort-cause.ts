// Issue 34: on a pipelining connection a use case sends statements without awaiting each one, so
// several are in flight at once. When one fails, PostgreSQL aborts the transaction and answers every
// statement behind it with 25P02 ("current transaction is aborted"), in order. Whoever awaits one of
// those later statements would see that 25P02 instead of the real cause: a lock timeout (55P03) or a
// serialization failure (40001) that the transaction runner retries would become a 500. So each
// connection keeps the error that aborted its transaction, and a 25P02 is answered with it.
const causes = new WeakMap<object, unknown>();

const IN_FAILED_TRANSACTION = '25P02';

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * `pending` (a statement sent on `connection`), its error carried: the first one of an aborted
 * transaction is kept (answers arrive in the order the statements were sent, so it is kept before
 * any 25P02 behind it settles), and a 25P02 is replaced by it. Attach this when the statement is sent.
 */
export function carryAbortCause<T>(connection: object, pending: Promise<T>): Promise<T> {
  return pending.catch((error: unknown) => {
    if (codeOf(error) !== IN_FAILED_TRANSACTION) {
      // The statement that aborted the transaction (or a savepoint's: ROLLBACK TO makes it usable again,
      // and the next abort's cause replaces this one).
      causes.set(connection, error);
      throw error;
    }
    throw causes.get(connection) ?? error;
  });
}

/** What aborted the transaction open on `connection` (undefined: nothing known), for a COMMIT answered ROLLBACK. */
export function abortCauseOf(connection: object): unknown {
  return causes.get(connection);
}

/** A 25P02 read as its cause, when the connection knows it. */
export function realCause(connection: object, error: unknown): unknown {
  return codeOf(error) === IN_FAILED_TRANSACTION ? (causes.get(connection) ?? error) : error;
}

/** A new transaction on `connection`: what aborted an earlier one is not its cause. */
export function forgetAbortCause(connection: object): void {
  causes.delete(connection);
}
