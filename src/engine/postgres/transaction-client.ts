// Issue 34: the client a PostgreSQL transaction's stores run on (engine.ts builds one per attempt):
// the pooled connection's `query`, and what the transaction learns from its statements: whether it
// wrote a table a node keeps (config-tables.ts: then its commit is announced as a configuration
// commit, and its own reads of those tables are not taken from the kept copy), and the database's
// `config_version` as this transaction reads it (config-cache.ts), read once, beside the clock row.
import type { PostgresQueryable } from './stores/queryable.ts';
import { writesConfig } from './config-tables.ts';

const READ_CONFIG_VERSION = 'SELECT version FROM config_version WHERE id = 1';

export class TransactionClient implements PostgresQueryable {
  private wrote = false;
  private version: Promise<number> | null = null;

  constructor(private readonly client: PostgresQueryable) {}

  readonly query = ((...args: Parameters<PostgresQueryable['query']>) => {
    const first = args[0] as unknown;
    const sql = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
    if (!this.wrote && sql !== undefined && writesConfig(sql)) this.wrote = true;
    return (this.client.query as (...a: unknown[]) => unknown)(...args);
  }) as PostgresQueryable['query'];

  /** Whether a statement of this transaction may have written a kept table. */
  get wroteConfig(): boolean {
    return this.wrote;
  }

  /**
   * `config_version` as this transaction sees it, read on first ask (sent at once: on the pipelining
   * connection it goes out behind what was sent before and costs no round trip of its own).
   */
  configVersion(): Promise<number> {
    this.version ??= this.client.query<{ version: number }>(READ_CONFIG_VERSION).then(({ rows }) => rows[0]?.version ?? 0);
    return this.version;
  }
}
