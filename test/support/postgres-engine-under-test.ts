// Issue 34: the engine under test on PostgreSQL (the throwaway cluster of postgres-cluster.ts), for the
// API suite (engine-under-test.ts picks it when COMANDA_TEST_DATABASE=postgres) and the two-node tests.
// The demo restaurants are seeded the way a platform gets them: on a SQLite file, exported into
// PostgreSQL (postgres/export-sqlite.ts), once per process and time into a template database that
// each engine's database is copied from (`CREATE DATABASE … TEMPLATE`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../src/engine/demo/seed-demo.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { RateLimits } from '../../src/engine/http/build-http-api.ts';
import { exportSqliteToPostgres } from '../../src/engine/postgres/export-sqlite.ts';
import { migratePostgres } from '../../src/engine/postgres/migrate-postgres.ts';
import { createPostgresPool } from '../../src/engine/postgres/postgres-pool.ts';
import { PostgresStorage } from '../../src/engine/postgres/postgres-storage.ts';
import { startEngineServer } from '../../src/host/start-engine-server.ts';
import { callApi, DEMO_NOW, GENEROUS_LIMITS, type EngineUnderTest } from './engine-under-test.ts';
import { usePostgresCluster, type PostgresCluster } from './postgres-cluster.ts';

/** `COMANDA_TEST_DATABASE=postgres`: the engine-based suites run on PostgreSQL. */
export const TEST_DATABASE_ENV = 'COMANDA_TEST_DATABASE';

export function testsRunOnPostgres(): boolean {
  return process.env[TEST_DATABASE_ENV] === 'postgres';
}

export interface PostgresEnginesOptions {
  now?: string;
  rateLimits?: RateLimits;
  seed?: boolean;
  /** Engine nodes on the one database (default 1). */
  nodes?: number;
  /** Each node's re-poll (ms; default the engine's, 1 s). */
  rePollMs?: number;
}

let databases = 0;
/** Engine nodes running now, in this process. */
let liveNodes = 0;
/** The seeded templates, by time and seed, on the cluster this process holds for them (stopped at its exit). */
let templates: { cluster: Promise<PostgresCluster>; byKey: Map<string, Promise<{ name: string; demo: DemoRestaurant[] }>> } | null = null;

function adminUrl(cluster: PostgresCluster): string {
  return `postgres://postgres@${cluster.host}:${cluster.port}/postgres`;
}

async function admin<T>(cluster: PostgresCluster, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl(cluster) });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The demo seeded on a SQLite file at `now`, exported into a migrated database kept as a template. */
async function seededTemplate(cluster: PostgresCluster, now: string, seed: boolean): Promise<{ name: string; demo: DemoRestaurant[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-pg-seed-'));
  try {
    const file = join(dir, 'seed.db');
    const clock = new ManualClock(now);
    let demo: DemoRestaurant[] = [];
    if (seed) {
      const server = await startEngineServer({ database: file, clock, rateLimits: GENEROUS_LIMITS });
      try {
        demo = await seedDemo(server.engine, server.providers.payments);
      } finally {
        await server.close();
      }
    }
    const name = `api_template_${process.pid}_${++databases}`;
    const url = await cluster.createDatabase(name);
    const pool = createPostgresPool({ connectionString: url, max: 2, onError: () => {} });
    try {
      await migratePostgres(pool);
      if (seed) {
        const sqlite = new Database(file, { readonly: true });
        try {
          await exportSqliteToPostgres(sqlite, pool);
        } finally {
          sqlite.close();
        }
      }
    } finally {
      await pool.end();
    }
    return { name, demo };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `nodes` engines (each its own pool, LISTEN connection and HTTP port) on one new PostgreSQL database
 * holding the demo: a platform of that many nodes. Each `stop()` stops its node; the last one also
 * releases the cluster.
 */
export async function startPostgresEnginesUnderTest(options: PostgresEnginesOptions = {}): Promise<EngineUnderTest[]> {
  const cluster = await usePostgresCluster();
  const now = options.now ?? DEMO_NOW;
  const seed = options.seed !== false;
  const templateKey = `${now}\n${seed}`;
  templates ??= { cluster: usePostgresCluster(), byKey: new Map() };
  const held = await templates.cluster;
  let template = templates.byKey.get(templateKey);
  if (!template) {
    template = seededTemplate(held, now, seed);
    templates.byKey.set(templateKey, template);
  }
  const { name: templateName, demo } = await template;
  const name = `api_${process.pid}_${++databases}`;
  await admin(cluster, async (client) => await client.query(`CREATE DATABASE ${name} TEMPLATE ${templateName}`));
  const connectionString = `postgres://postgres@${cluster.host}:${cluster.port}/${name}`;
  const nodes: EngineUnderTest[] = [];
  let running = options.nodes ?? 1;
  liveNodes += running;
  const releaseOne = async () => {
    running -= 1;
    liveNodes -= 1;
    if (running === 0) await cluster.release();
    if (liveNodes === 0 && templates) {
      // Nothing runs on the cluster any more: its templates go with it, so the process can end.
      const held = templates.cluster;
      templates = null;
      await (await held).release();
    }
  };
  for (let i = 0; i < (options.nodes ?? 1); i++) {
    const storage = await PostgresStorage.open({
      connectionString,
      onError: () => {}, // a dropped idle connection: replaced by the pool; the tests see its effects
      ...(options.rePollMs !== undefined ? { rePollMs: options.rePollMs } : {}),
    });
    const clock = new ManualClock(now);
    const engine = new Engine({ database: { postgres: storage }, clock });
    const server = await startEngineServer({ database: engine, clock, rateLimits: options.rateLimits ?? GENEROUS_LIMITS });
    const defaultKey = demo[0]?.keys.live_write ?? null;
    let stopped = false;
    nodes.push({
      server,
      clock,
      baseUrl: server.baseUrl,
      demo,
      dbPath: connectionString,
      async advance(ms) {
        clock.advance(ms);
        await server.jobs.databaseJobs();
      },
      call: (method, path, callOptions) => callApi(server.baseUrl, defaultKey, method, path, callOptions),
      async stop() {
        if (stopped) return;
        stopped = true;
        await server.close();
        await releaseOne();
      },
    });
  }
  return nodes;
}
