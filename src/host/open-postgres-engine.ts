// Issue 34: an engine node on PostgreSQL, as `npm run serve -- --database postgres://…` opens it: the
// schema migrated first (an advisory lock, so nodes starting together migrate once; a newer schema is
// refused), then the node's pool, LISTEN connection and re-poll (postgres/postgres-storage.ts).
import type { Clock } from '../engine/clock.ts';
import { Engine } from '../engine/engine.ts';
import { migratePostgres } from '../engine/postgres/migrate-postgres.ts';
import { createPostgresPool } from '../engine/postgres/postgres-pool.ts';
import { PostgresStorage } from '../engine/postgres/postgres-storage.ts';

export interface PostgresEngineOptions {
  connectionString: string;
  clock?: Clock;
  /** This node's connections (default 10). */
  poolSize?: number;
  /** Errors no caller waits on (a dropped idle connection); never given the connection string. */
  onError: (error: Error) => void;
}

/** Whether `--database` names a PostgreSQL database (postgres:// or postgresql://). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//.test(value);
}

export async function openPostgresEngine(options: PostgresEngineOptions): Promise<Engine> {
  const migrator = createPostgresPool({ connectionString: options.connectionString, max: 1, applicationName: 'comanda migrate', onError: options.onError });
  try {
    await migratePostgres(migrator);
  } finally {
    await migrator.end();
  }
  const storage = await PostgresStorage.open({
    connectionString: options.connectionString,
    onError: options.onError,
    ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}),
  });
  return new Engine({ database: { postgres: storage }, ...(options.clock ? { clock: options.clock } : {}) });
}
