import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { usePostgresCluster } from '../test/support/postgres-cluster.ts';
import { seedRestaurants } from './rows/platform/seed-restaurants.ts';
import { openPostgresEngine } from '../src/host/open-postgres-engine.ts';
import { startEngineServer } from '../src/host/start-engine-server.ts';
let log: string[] | null = null;
const orig = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (this: any, ...args: any[]) {
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  if (log) log.push(`${performance.now().toFixed(1)} ${String(text).replace(/\s+/g, ' ').slice(0, 140)}`);
  return (orig as any).apply(this, args);
};
const cluster = await usePostgresCluster();
const url = await cluster.createDatabase(`probe34_${process.pid}`);
const { migratePostgres } = await import('../src/engine/postgres/migrate-postgres.ts');
const { createPostgresPool } = await import('../src/engine/postgres/postgres-pool.ts');
const pool = createPostgresPool({ connectionString: url, max: 2, onError: () => {} });
await migratePostgres(pool);
const rs = await seedRestaurants(url, 3);
const engine = await openPostgresEngine({ connectionString: url, onError: () => {} });
const G = { capacity: 1e9, refillPerSecond: 1e9 };
const server = await startEngineServer({ database: engine, rateLimits: { perKey: G, unauthenticated: G }, logger: false });
const post = async (i: number) => {
  const r = rs[i % 3]!;
  const res = await fetch(`${server.baseUrl}/orders`, { method: 'POST', headers: { authorization: `Bearer ${r.key}`, 'content-type': 'application/json', 'idempotency-key': `k${i}` },
    body: JSON.stringify({ location_id: r.locationId, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: r.productId, quantity: 1 }], payment: 'external' }) });
  await res.text(); if (res.status !== 201) throw new Error(String(res.status));
};
for (let i = 0; i < 20; i++) await post(i);
const t0 = performance.now();
for (let i = 20; i < 60; i++) await post(i);
console.log('sequential ms/order', ((performance.now() - t0) / 40).toFixed(1));
log = [];
await post(100);
console.log('queries in one order:', log.length);
console.log(log.join('\n'));
log = null;
await server.close(); await pool.end(); await cluster.release();
