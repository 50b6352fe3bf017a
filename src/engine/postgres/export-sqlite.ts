// Issue 34: moves an upstream's SQLite file into an empty, migrated PostgreSQL database, in one
// transaction: every table's rows with the same ids (identity columns then continue after them),
// and each restaurant's clock row set from the file (its order counters and its last event), so the
// feed's sequence is kept and a replica's `ev_` cursor stays valid.
import type { Database } from 'better-sqlite3';
import type pg from 'pg';
import { MIRRORED_SQLITE_VERSION } from './migrations/index.ts';
import { runTransaction } from './run-transaction.ts';

export interface ExportSummary {
  /** Rows copied per table, in the order copied. */
  rows: Record<string, number>;
  clocks: number;
}

/** PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_PARAMETERS = 60_000;
const MOVED_TO_CLOCKS = new Set(['next_order_number', 'next_test_order_number']);

export async function exportSqliteToPostgres(sqlite: Database, pool: pg.Pool): Promise<ExportSummary> {
  const version = sqlite.pragma('user_version', { simple: true }) as number;
  if (version !== MIRRORED_SQLITE_VERSION) {
    throw new Error(`the SQLite file is at schema version ${version}; this export reads version ${MIRRORED_SQLITE_VERSION} (start this release's engine on it once to migrate it)`);
  }
  // Tables in the order they were created, which is the order their foreign keys allow.
  const tables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sqlite_sequence' ORDER BY rowid").all() as { name: string }[])
    .map((t) => t.name);
  return runTransaction(pool, async (client) => {
    const present = await client.query<{ n: number }>('SELECT count(*)::bigint AS n FROM restaurants');
    if (present.rows[0]!.n > 0) throw new Error('the PostgreSQL database already holds restaurants: export into an empty one');
    const summary: ExportSummary = { rows: {}, clocks: 0 };
    for (const table of tables) {
      const target = await client.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
        [table],
      );
      const targetColumns = new Set(target.rows.map((r) => r.column_name));
      if (targetColumns.size === 0) throw new Error(`PostgreSQL has no table ${table}: is its schema migrated?`);
      const columns = (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((name) => !(table === 'restaurants' && MOVED_TO_CLOCKS.has(name)));
      const missing = columns.filter((c) => !targetColumns.has(c));
      if (missing.length > 0) throw new Error(`PostgreSQL's ${table} lacks ${missing.join(', ')}`);
      summary.rows[table] = await copyTable(sqlite, client, table, columns);
    }
    const clocks = await client.query(
      `INSERT INTO restaurant_clocks (restaurant_id, last_event_seq, next_order_number, next_test_order_number)
       SELECT r.id, COALESCE((SELECT max(seq) FROM events e WHERE e.restaurant_id = r.id), 0), c.live, c.test
       FROM restaurants r JOIN (SELECT * FROM json_to_recordset($1::json) AS x(id text, live bigint, test bigint)) c ON c.id = r.id`,
      [JSON.stringify(sqlite.prepare('SELECT id, next_order_number AS live, next_test_order_number AS test FROM restaurants').all())],
    );
    summary.clocks = clocks.rowCount ?? 0;
    // Identity columns continue after the ids copied.
    const identities = await client.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'",
    );
    for (const { table_name: table, column_name: column } of identities.rows) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${column}) FROM ${table}), 0) + 1, false)`,
        [table, column],
      );
    }
    return summary;
  });
}

async function copyTable(sqlite: Database, client: pg.PoolClient, table: string, columns: string[]): Promise<number> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const select = sqlite.prepare(`SELECT ${columns.join(', ')} FROM ${table}`);
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch.map((_, row) => `(${columns.map((__, col) => `$${row * columns.length + col + 1}`).join(', ')})`);
    await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values.join(', ')}`, batch.flat());
    copied += batch.length;
    batch = [];
  };
  for (const row of select.raw().iterate() as Iterable<unknown[]>) {
    batch.push(row);
    if (batch.length >= perStatement) await flush();
  }
  await flush();
  return copied;
}
