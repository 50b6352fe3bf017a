/**
 * A bound parameter to compare a column with, in a statement run many times.
 *
 * SQLite (3.54, as better-sqlite3 13 builds it) recompiles a prepared statement every time a
 * value is bound when a bare parameter is compared with a column in a statement that also has a
 * join or an ORDER BY: it considers the plan might depend on the value. That costs 10–20 µs per
 * run, more than the query itself (see docs/performance.md). `? COLLATE BINARY` compares exactly
 * as `?` does here (BINARY is the collation of every column of the schema, and COLLATE changes no
 * affinity), uses the same indexes, and keeps the compiled plan.
 */
export function bound(name?: string): string {
  return `${name === undefined ? '?' : `@${name}`} COLLATE BINARY`;
}
