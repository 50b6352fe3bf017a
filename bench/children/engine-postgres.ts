// Row 13: one engine node on PostgreSQL in its own process, opened as `npm run serve -- --database
// postgres://…` opens it (src/host/open-postgres-engine.ts: the schema migrated, the pool, LISTEN and
// re-poll) and served by startEngineServer, with the bench's generous rate limits (serve's per-key
// limit, 2 requests/s, would measure the limiter; row 8 measures that).
import pg from 'pg';
import { answer, childConfig, tell } from '../lib/child.ts';

// Statements this node sends (its use cases, its jobs, its re-poll), counted where every one goes
// out: the figure says how many round trips an order costs the node.
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

interface Config {
  connectionString: string;
}

const GENEROUS = { capacity: 1_000_000_000, refillPerSecond: 1_000_000_000 };

const config = childConfig<Config>();
const { startEngineServer } = await import('../../src/host/start-engine-server.ts');
const { openPostgresEngine } = await import('../../src/host/open-postgres-engine.ts');
const connectionErrors: string[] = [];
const engine = await openPostgresEngine({ connectionString: config.connectionString, onError: (error) => connectionErrors.push(error.message) });
const server = await startEngineServer({ database: engine, rateLimits: { perKey: GENEROUS, unauthenticated: GENEROUS }, logger: false });
answer(
  {
    cpu: () => ({ ...process.cpuUsage() }),
    statements: () => ({ statements }),
    errors: () => ({ connectionErrors: connectionErrors.length, first: connectionErrors[0] ?? null }),
  },
  () => server.close(),
);
tell({ type: 'ready', baseUrl: server.baseUrl, port: server.port });
