// Issue 34: one transaction on a pooled connection, READ COMMITTED (PostgreSQL's default), retried a
// few times when PostgreSQL ends it to break a deadlock (40P01) or a serialization failure (40001).
// The work is rerun from its start: it only touches the database, never an outside party.
import type pg from 'pg';

const RETRYABLE_CODES = new Set(['40P01', '40001']);
export const MAX_TRANSACTION_ATTEMPTS = 5;

export function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && RETRYABLE_CODES.has((error as { code?: string }).code ?? '');
}

/** Runs `work` between BEGIN and COMMIT (sent pipelined with its first statement); rolls back on error. */
export async function runTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: { maxAttempts?: number; onRetry?: (error: unknown, attempt: number) => void } = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? MAX_TRANSACTION_ATTEMPTS;
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    // A connection that breaks while checked out fails its pending query too: that is where it is handled.
    const ignore = () => {};
    client.on('error', ignore);
    let broken: Error | undefined;
    try {
      const [, result] = await Promise.all([client.query('BEGIN'), work(client)]);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      if (attempt >= maxAttempts || !isRetryable(error)) throw error;
      options.onRetry?.(error, attempt);
      // A short random pause, growing with each attempt, so the two transactions do not meet again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
    } finally {
      client.off('error', ignore);
      client.release(broken);
    }
  }
}
