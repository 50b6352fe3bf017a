import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../src/engine/demo/seed-demo.ts';
import type { RateLimits } from '../../src/engine/http/build-http-api.ts';
import { startEngineServer, type EngineServer } from '../../src/host/start-engine-server.ts';
import { assertConformsToDocument } from './openapi-conformance.ts';

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

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string | Uint8Array<ArrayBuffer>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** API JSON, read freely by tests. */
  body: any;
  text: string;
}

/**
 * A real engine on a real SQLite file and a real port, seeded with the demo restaurants; with
 * COMANDA_TEST_DATABASE=postgres, on a PostgreSQL database of the tests' throwaway cluster instead
 * (postgres-engine-under-test.ts; `dbPath` is then its connection string).
 */
export async function startEngineUnderTest(
  options: { now?: string; rateLimits?: RateLimits; seed?: boolean } = {},
): Promise<EngineUnderTest> {
  if (process.env.COMANDA_TEST_DATABASE === 'postgres') {
    const { startPostgresEnginesUnderTest } = await import('./postgres-engine-under-test.ts');
    return (await startPostgresEnginesUnderTest(options))[0]!;
  }
  const dir = mkdtempSync(join(tmpdir(), 'comanda-test-'));
  const dbPath = join(dir, 'engine.db');
  const clock = new ManualClock(options.now ?? DEMO_NOW);
  const server = await startEngineServer({ database: dbPath, clock, rateLimits: options.rateLimits ?? GENEROUS_LIMITS });
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

/**
 * The tests' connections are never reused (pipelining 0: one request per connection). A reused idle
 * socket races the engine's 5 s keep-alive: on a busy machine (load 30) a process stalled past it,
 * the server's exact socket timeout closed the socket before undici's coarse timers retired it, and
 * the next request on it failed with ECONNRESET (a 100 ms client keep-alive did not prevent it).
 * The tests that are about keep-alive make their own connections.
 */
const connections = new Agent({ pipelining: 0 });

/**
 * One request to the API at `baseUrl` with a key (the default one, another, or none), JSON in and
 * out. The answer is checked against the OpenAPI document the engine serves (a drift throws).
 */
export async function callApi(
  baseUrl: string,
  defaultKey: string | null,
  method: string,
  path: string,
  callOptions: CallOptions = {},
): Promise<CallResult> {
  const key = callOptions.key === undefined ? defaultKey : callOptions.key;
  const headers: Record<string, string> = { ...callOptions.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (callOptions.rawBody !== undefined) body = callOptions.rawBody;
  else if (callOptions.body !== undefined) {
    body = JSON.stringify(callOptions.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, dispatcher: connections, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const result = { status: response.status, headers: new Headers([...response.headers]), body: parsed, text };
  await assertConformsToDocument(baseUrl, method, path, result);
  return result;
}
