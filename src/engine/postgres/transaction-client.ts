// Issue 34: the client a PostgreSQL transaction's stores run on (engine.ts builds one per attempt):
// the pooled connection's `query`, and what the transaction learns from its statements: whether it
// wrote a table a node keeps (config-tables.ts: then its commit is announced as a configuration
// commit, and its own reads of those tables are not taken from the kept copy), and the database's
// `config_version` as this transaction reads it (config-cache.ts), read once, beside the clock row.
// Every statement's error is carried (abort-cause.ts): a statement answered 25P02 because one sent
// before it failed throws that one's error, so the runner retries what is retryable.
import type { CountsRollbacks, PostgresQueryable, SendsWithoutWaiting } from './stores/queryable.ts';
import { writesConfig } from './config-tables.ts';
import { carryAbortCause } from './abort-cause.ts';

const READ_CONFIG_VERSION = 'SELECT version FROM config_version WHERE id = 1';

export class TransactionClient implements PostgresQueryable, SendsWithoutWaiting, CountsRollbacks {
  private wrote = false;
  private version: Promise<number> | null = null;
  /** ROLLBACK TO statements sent (a savepoint's work undone): what a store kept of its own writes is dropped. */
  rollbacks = 0;

  constructor(private readonly client: PostgresQueryable) {}

  readonly query = ((...args: Parameters<PostgresQueryable['query']>) => {
    const first = args[0] as unknown;
    const sql = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
    if (!this.wrote && sql !== undefined && writesConfig(sql)) this.wrote = true;
    if (sql?.startsWith('ROLLBACK')) this.rollbacks += 1;
    return carryAbortCause(this.client, (this.client.query as (...a: unknown[]) => Promise<unknown>)(...args));
  }) as PostgresQueryable['query'];

  /**
   * Sends a write whose answer the use case does not read, without waiting for it: on the
   * pipelining connection the statements after it go out behind it, and run after it. Should it
   * fail, the transaction is aborted: the next statement awaited throws its error (carried), and a
   * COMMIT is answered ROLLBACK, which the runner turns into the same error (run-transaction.ts).
   */
  send(sql: string, params: unknown[] = []): void {
    this.query(sql, params).catch(() => {
      // Carried to the next statement awaited, or to the COMMIT.
    });
  }

  /** Whether a statement of this transaction may have written a kept table. */
  get wroteConfig(): boolean {
    return this.wrote;
  }

  /**
   * `config_version` as this transaction sees it, read on first ask (sent at once: on the pipelining
   * connection it goes out behind what was sent before and costs no round trip of its own).
   */
  configVersion(): Promise<number> {
    this.version ??= this.query<{ version: number }>(READ_CONFIG_VERSION).then(({ rows }) => rows[0]?.version ?? 0);
    return this.version;
  }
}
