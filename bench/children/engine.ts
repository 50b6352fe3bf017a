// The engine under test, in its own process: startEngineServer on a prepared database.
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8';
import { answer, childConfig, tell } from '../lib/child.ts';

interface Config {
  database: string;
  /** The engine's own limit for requests without a valid key (row 8's flood meets it), not the generous one. */
  realUnauthenticatedLimit?: boolean;
  /** Serve the kitchen door (/kitchen/: pairing, live streams), as `npm run serve` does (row 9). */
  kitchen?: boolean;
}

const GENEROUS = { capacity: 1_000_000_000, refillPerSecond: 1_000_000_000 };

const config = childConfig<Config>();
const importStart = performance.now();
const { startEngineServer } = await import('../../src/host/start-engine-server.ts');
const { DEFAULT_RATE_LIMITS } = await import('../../src/engine/http/build-http-api.ts');
const startAt = performance.now();
const server = await startEngineServer({
  database: config.database,
  rateLimits: { perKey: GENEROUS, unauthenticated: config.realUnauthenticatedLimit ? DEFAULT_RATE_LIMITS.unauthenticated : GENEROUS },
  logger: false,
  ...(config.kitchen ? { kitchen: {} } : {}),
});
const readyAt = performance.now();
// A large file's quick_check runs in a worker right after start (docs/architecture.md, Storage):
// the load of rows 1-3 starts once it is over, so it measures the engine and not that one-off scan.
const refusal = await server.integrityChecked;
if (refusal) throw new Error(refusal.message);
answer(
  {
    rss: () => ({ rss: process.memoryUsage().rss }),
    // Where the memory is (row 8): V8's heap vs memory outside it (SQLite's, Node's buffers, malloc).
    memory: () => ({ ...process.memoryUsage(), heap: getHeapStatistics() }),
    'heap-snapshot': (message) => ({ file: writeHeapSnapshot(message.file as string) }),
    // SQLite gives back what it can (its page caches); what stays is not SQLite's cache.
    'sqlite-shrink': () => {
      server.engine.db.pragma('shrink_memory');
      return {};
    },
    cpu: () => ({ ...process.cpuUsage() }),
    gc: () => {
      globalThis.gc?.();
      return {};
    },
  },
  () => server.close(),
);
tell({
  type: 'ready',
  baseUrl: server.baseUrl,
  port: server.port,
  /** From the startEngineServer call to listening, modules already loaded. */
  startMs: readyAt - startAt,
  /** Loading the engine's modules (bundled by the bench, as by the app; through tsx when run unbuilt). */
  importMs: startAt - importStart,
  /** From the process's start (Node's time origin) to listening. */
  sinceProcessStartMs: readyAt,
  rss: process.memoryUsage().rss,
});
