import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../src/engine/demo/seed-demo.ts';
import type { RateLimits } from '../../src/engine/http/build-http-api.ts';
import { startEngineServer, type EngineServer } from '../../src/host/start-engine-server.ts';
import { callApi, type CallOptions, type CallResult } from './call-api.ts';

export { callApi, type CallOptions, type CallResult };

/** A Saturday evening in Santiago: the demo's schedule-mode locations are open. */
export const DEMO_NOW = '2026-11-21T20:00:00-03:00';

export const GENEROUS_LIMITS: RateLimits = {
  perKey: { capacity: 100_000, refillPerSecond: 100_000 },
  unauthenticated: { capacity: 100_000, refillPerSecond: 100_000 },
};

export interface EngineUnderTest {
  server: EngineServer;
  clock: ManualClock;
  baseUrl: string;
  demo: DemoRestaurant[];
  dbPath: string;
  /** Moves the clock, then waits for the database jobs' pass that saw it (the jobs run on every move). */
  advance(ms: number): Promise<void>;
  /** fetch against baseUrl with a key (or none), JSON in and out. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  stop(): Promise<void>;
}

/**
 * A real engine on a real SQLite file and a real port, seeded with the demo restaurants; with
 * COMANDA_TEST_DATABASE=postgres, on a PostgreSQL database of the tests' throwaway cluster instead
 * (postgres-engine-under-test.ts; `dbPath` is then its connection string).
 */
export async function startEngineUnderTest(
  options: {
    now?: string;
    rateLimits?: RateLimits;
    seed?: boolean;
    /**
     * The jobs' real-time tick (default 1000 ms). A test that holds SQLite's write lock across awaits
     * sets it out of reach (an hour), so no tick lands meanwhile (it would skip its database work,
     * engine/other-writers.ts). Its jobs still run on every move of the ManualClock and on runDue().
     */
    jobsIntervalMs?: number;
  } = {},
): Promise<EngineUnderTest> {
  if (process.env.COMANDA_TEST_DATABASE === 'postgres') {
    const { startPostgresEnginesUnderTest } = await import('./postgres-engine-under-test.ts');
    return (await startPostgresEnginesUnderTest(options))[0]!;
  }
  const dir = mkdtempSync(join(tmpdir(), 'comanda-test-'));
  const dbPath = join(dir, 'engine.db');
  const clock = new ManualClock(options.now ?? DEMO_NOW);
  const server = await startEngineServer({
    database: dbPath,
    clock,
    rateLimits: options.rateLimits ?? GENEROUS_LIMITS,
    ...(options.jobsIntervalMs !== undefined ? { jobsIntervalMs: options.jobsIntervalMs } : {}),
  });
  const demo = options.seed === false ? [] : await seedDemo(server.engine, server.providers.payments);
  const defaultKey = demo[0]?.keys.live_write ?? null;
  return {
    server,
    clock,
    baseUrl: server.baseUrl,
    demo,
    dbPath,
    async advance(ms) {
      clock.advance(ms);
      await server.jobs.databaseJobs();
    },
    call: (method, path, callOptions) => callApi(server.baseUrl, defaultKey, method, path, callOptions),
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
