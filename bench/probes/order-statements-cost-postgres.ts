// Issue 34, round 12: which statements hold the clock row, and why. Row 13's engine loads replayed
// as bench/rows/platform-postgres.ts runs them (measureEngine: 50 copies of the demo's first
// restaurant, two engine nodes in their own processes, a 2-s warm-up over two nodes, the raw
// ceiling's warm-up, then per run: one node / ceiling, two nodes / ceiling, one restaurant alone /
// ceiling, alternately first), on a cluster of its own with pg_stat_statements (stats-cluster.ts).
// Per load: the statistics reset before and read after, so each load's statements are its own:
// - the open kitchen lines per restaurant when it starts (the bench never bumps: they grow);
// - orders/s, the client's latency, the database's execution time per order (the sum over its
//   statements), and its costliest statements;
// then, over the engine's loads, the order's statements by total and mean time, and
// EXPLAIN (ANALYZE, BUFFERS) of the open-lines read with the run's data.
// Knobs (environment): PROBE_RUNS (5, the bench's), PROBE_SECONDS (5), PROBE_CEILING=0 (leave the
// raw ceiling's loads out: they write kitchen lines too), PROBE_BUMP=K (before every engine load the
// kitchen bumps every order but each restaurant's newest K, through the API: en_preparacion, listo).
// `npm exec -- node --import tsx bench/probes/order-statements-cost-postgres.ts`
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { spawnChild, type Child } from '../lib/child.ts';
import { rawEngineRowsWrite, readEngineRows } from '../rows/platform/engine-rows-ceiling.ts';
import { seedRestaurants, type SeededRestaurant } from '../rows/platform/seed-restaurants.ts';
import { startStatsCluster } from './stats-cluster.ts';

const RESTAURANTS = 50;
const WRITERS = 16;
const ONE_RESTAURANT_WRITERS = 8;
const RUNS = Number(process.env.PROBE_RUNS ?? 5);
const SECONDS = Number(process.env.PROBE_SECONDS ?? 5);
const CEILING = process.env.PROBE_CEILING !== '0';
const BUMP = process.env.PROBE_BUMP === undefined ? null : Number(process.env.PROBE_BUMP);
/** The probe's own statements carry this comment and are left out of the figures. */
const MINE = '/* probe */';
const TAKE = 'INSERT INTO restaurant_clocks (restaurant_id) SELECT';

type Restaurant = SeededRestaurant & { apiKeyId: string };

interface Statement {
  query: string;
  calls: number;
  total: number;
  rows: number;
  hit: number;
  read: number;
  /** Planning time (ms, all calls). */
  plan: number;
}

interface Load {
  name: string;
  engine: boolean;
  orders: number;
  seconds: number;
  latencies: number[];
  openMean: number;
  openMax: number;
  openFirst: number;
  statements: Statement[];
  load: number;
}

const pct = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
};
const short = (query: string) => query.replace(/\s+/g, ' ').slice(0, 150);

const cluster = await startStatsCluster();
const children: Child[] = [];
let admin: pg.Pool | null = null;
try {
  const connectionString = await cluster.createDatabase(`probe_cost_${process.pid}`);
  const seeded = await seedRestaurants(connectionString, RESTAURANTS);
  admin = new pg.Pool({ connectionString, max: 10 });
  admin.on('error', () => {}); // an idle client told of the server's stop at the end
  const keyIds = new Map(((await admin.query(`${MINE} SELECT id, restaurant_id FROM api_keys`)).rows as { id: string; restaurant_id: string }[]).map((k) => [k.restaurant_id, k.id]));
  const restaurants: Restaurant[] = seeded.map((r) => ({ ...r, apiKeyId: keyIds.get(r.id)! }));
  for (let i = 0; i < 2; i++) children.push(await spawnChild('engine-postgres', { connectionString }));
  const [nodeA, nodeB] = children.map((c) => c.ready.baseUrl as string) as [string, string];
  let written = 0;
  const post = async (base: string, r: number) => {
    const restaurant = restaurants[r]!;
    const response = await fetch(`${base}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${restaurant.key}`, 'content-type': 'application/json', 'idempotency-key': `o${++written}` },
      body: JSON.stringify({
        location_id: restaurant.locationId, type: 'retiro', customer: { name: 'Carga Plataforma', phone: '+56 9 5555 1234' },
        items: [{ product_id: restaurant.productId, quantity: 1 }], payment: 'external',
      }),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST /v1/orders answered ${response.status}: ${text.slice(0, 200)}`);
  };
  const run = async (seconds: number, writers: number, write: (w: number, r: number) => Promise<void>, restaurantOf: (w: number, i: number) => number) => {
    const latencies: number[] = [];
    const until = performance.now() + seconds * 1000;
    await Promise.all(Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; performance.now() < until; i++) {
        const t0 = performance.now();
        await write(w, restaurantOf(w, i));
        latencies.push(performance.now() - t0);
      }
    }));
    return latencies;
  };
  const spread = (w: number, i: number) => (w * 7 + i) % RESTAURANTS;
  const alone = () => 0;
  const oneNode = (_: number, r: number) => post(nodeA, r);
  const twoNodes = (w: number, r: number) => post(w % 2 === 0 ? nodeA : nodeB, r);

  /** The kitchen catches up: every order but each restaurant's newest `keep` bumped to listo. */
  const bump = async (keep: number) => {
    const due = (await admin!.query(`${MINE} SELECT id, restaurant_id FROM (SELECT id, restaurant_id, row_number() OVER (PARTITION BY restaurant_id ORDER BY created_at DESC, id DESC) AS n
      FROM orders WHERE status = 'recibido') o WHERE n > $1`, [keep])).rows as { id: string; restaurant_id: string }[];
    const keyOf = new Map(restaurants.map((r) => [r.id, r.key]));
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < due.length) {
        const order = due[next++]!;
        for (const status of ['en_preparacion', 'listo']) {
          const response = await fetch(`${nodeA}/orders/${order.id}`, {
            method: 'PATCH', headers: { authorization: `Bearer ${keyOf.get(order.restaurant_id)!}`, 'content-type': 'application/json' }, body: JSON.stringify({ status }),
          });
          const text = await response.text();
          if (response.status !== 200) throw new Error(`PATCH ${status} answered ${response.status}: ${text.slice(0, 200)}`);
        }
      }
    }));
    return due.length;
  };

  const loads: Load[] = [];
  const measured = async (name: string, engine: boolean, seconds: number, go: () => Promise<number[]>) => {
    if (engine && BUMP !== null) await bump(BUMP);
    const open = (await admin!.query(`${MINE} SELECT location_id, count(*)::int AS n FROM kitchen_open_items GROUP BY location_id`)).rows as { location_id: string; n: number }[];
    const counts = restaurants.map((r) => open.find((o) => o.location_id === r.locationId)?.n ?? 0);
    await admin!.query(`${MINE} SELECT pg_stat_statements_reset()`);
    const load = os.loadavg()[0]!;
    const latencies = await go();
    const statements = ((await admin!.query(`${MINE} SELECT query, calls::int, total_exec_time AS total, total_plan_time AS plan, rows::int, shared_blks_hit::int AS hit, shared_blks_read::int AS read
      FROM pg_stat_statements WHERE query NOT LIKE '%/* probe */%' ORDER BY total_exec_time DESC`)).rows as Statement[]);
    const entry: Load = {
      name, engine, orders: latencies.length, seconds, latencies, statements, load,
      openMean: counts.reduce((a, b) => a + b, 0) / counts.length, openMax: Math.max(...counts), openFirst: counts[0]!,
    };
    loads.push(entry);
    const dbMs = statements.reduce((a, s) => a + s.total, 0);
    // The clock row's take waits for the row: its time is the others' holds, not its own work.
    const takeMs = statements.filter((s) => s.query.startsWith(TAKE)).reduce((a, s) => a + s.total, 0);
    const planMs = statements.reduce((a, s) => a + s.plan, 0);
    // Promises moved by the slips job (followPromiseSlips: an audit row and an event each, under the row).
    const slips = statements.filter((s) => s.query.startsWith('INSERT INTO order_promise_updates')).reduce((a, s) => a + s.calls, 0);
    const events = statements.filter((s) => short(s.query).startsWith('WITH clock AS ( INSERT INTO restaurant_clocks (restaurant_id, last_event_seq)')).reduce((a, s) => a + s.calls, 0);
    console.log(
      `${name.padEnd(26)} ${String(entry.orders).padStart(5)} orders ${(entry.orders / seconds).toFixed(0).padStart(4)}/s  p50 ${pct(latencies, 50).toFixed(1)} ms  ` +
        `open lines a restaurant: mean ${entry.openMean.toFixed(0)} max ${entry.openMax} r0 ${entry.openFirst}  ` +
        `db ${(dbMs / Math.max(1, entry.orders)).toFixed(2)} ms an order (the take ${(takeMs / Math.max(1, entry.orders)).toFixed(2)}, planning ${(planMs / Math.max(1, entry.orders)).toFixed(2)}), ${(events / Math.max(1, entry.orders)).toFixed(1)} events and ${(slips / Math.max(1, entry.orders)).toFixed(1)} promises moved an order  load ${load.toFixed(1)}`,
    );
    if (engine) for (const s of statements.slice(0, 3)) console.log(`    ${(s.total / Math.max(1, entry.orders)).toFixed(2)} ms/order  ${(s.total / s.calls).toFixed(3)} ms × ${s.calls}  ${short(s.query)}`);
  };

  await measured('warm-up, two nodes', true, 2, () => run(2, WRITERS, twoNodes, spread));
  const last = (await admin.query(`${MINE} SELECT id FROM orders ORDER BY created_at DESC LIMIT 1`)).rows[0] as { id: string };
  const template = await readEngineRows(admin, last.id);
  let raw = 0;
  const ceiling = (_: number, r: number) => rawEngineRowsWrite(admin!, template, restaurants[r]!, `raw${++raw}`);
  if (CEILING) await measured('warm-up, ceiling', false, 2, () => run(2, WRITERS, ceiling, spread));
  for (let i = 0; i < RUNS; i++) {
    const pair = async (name: string, ours: () => Promise<number[]>, theirs: () => Promise<number[]>) => {
      const a = () => measured(`run ${i + 1} ${name}`, true, SECONDS, ours);
      const b = () => (CEILING ? measured(`run ${i + 1} ${name}, ceiling`, false, SECONDS, theirs) : Promise.resolve());
      if (i % 2 === 0) {
        await a();
        await b();
      } else {
        await b();
        await a();
      }
    };
    await pair('one node', () => run(SECONDS, WRITERS, oneNode, spread), () => run(SECONDS, WRITERS, ceiling, spread));
    await pair('two nodes', () => run(SECONDS, WRITERS, twoNodes, spread), () => run(SECONDS, WRITERS, ceiling, spread));
    await pair('one restaurant', () => run(SECONDS, ONE_RESTAURANT_WRITERS, twoNodes, alone), () => run(SECONDS, ONE_RESTAURANT_WRITERS, ceiling, alone));
  }

  // The engine's loads together: its statements by total time.
  const engineLoads = loads.filter((l) => l.engine && !l.name.startsWith('warm'));
  const orders = engineLoads.reduce((a, l) => a + l.orders, 0);
  const byQuery = new Map<string, Statement>();
  for (const l of engineLoads) {
    for (const s of l.statements) {
      const kept = byQuery.get(s.query) ?? { query: s.query, calls: 0, total: 0, rows: 0, hit: 0, read: 0, plan: 0 };
      byQuery.set(s.query, { ...kept, calls: kept.calls + s.calls, total: kept.total + s.total, rows: kept.rows + s.rows, hit: kept.hit + s.hit, read: kept.read + s.read, plan: kept.plan + s.plan });
    }
  }
  const all = [...byQuery.values()].sort((a, b) => b.total - a.total);
  const total = all.reduce((a, s) => a + s.total, 0);
  const take = all.filter((s) => s.query.startsWith(TAKE)).reduce((a, s) => a + s.total, 0);
  const planned = all.reduce((a, s) => a + s.plan, 0);
  console.log(`\nThe engine's loads: ${orders} orders, ${(total / orders).toFixed(2)} ms of statement execution an order, of it the clock row's take (its lock wait) ${(take / orders).toFixed(2)}, ` +
    `the rest ${((total - take) / orders).toFixed(2)} (nested statements, triggers' and foreign keys', counted in their callers too); planning ${(planned / orders).toFixed(2)} ms an order. By total time:`);
  console.log('share  ms/order  mean ms    calls  rows/call  blocks/call  plan ms/call  statement');
  for (const s of all.slice(0, 25)) {
    console.log(`${((100 * s.total) / total).toFixed(1).padStart(4)} % ${(s.total / orders).toFixed(3).padStart(8)} ${(s.total / s.calls).toFixed(3).padStart(8)} ${String(s.calls).padStart(8)} ${(s.rows / s.calls).toFixed(1).padStart(9)} ${((s.hit + s.read) / s.calls).toFixed(1).padStart(11)} ${(s.plan / s.calls).toFixed(3).padStart(12)}  ${short(s.query)}`);
  }
  console.log('\nBy mean time (statements called at least once an order):');
  for (const s of [...all].filter((s) => s.calls >= orders * 0.5).sort((a, b) => b.total / b.calls - a.total / a.calls).slice(0, 12)) {
    console.log(`${(s.total / s.calls).toFixed(3).padStart(8)} ms × ${(s.calls / orders).toFixed(2)} an order  ${short(s.query)}`);
  }
  // First against last: the same load, the run's first and last time.
  for (const name of ['one node', 'two nodes', 'one restaurant']) {
    const of = engineLoads.filter((l) => l.name.endsWith(name));
    const [first, final] = [of[0]!, of.at(-1)!];
    const dbOf = (l: Load) => l.statements.filter((s) => !s.query.startsWith(TAKE)).reduce((a, s) => a + s.total, 0) / Math.max(1, l.orders);
    console.log(`${name}: first ${(first.orders / first.seconds).toFixed(0)}/s, db ${dbOf(first).toFixed(2)} ms an order without the take, p50 ${pct(first.latencies, 50).toFixed(1)} ms, open mean ${first.openMean.toFixed(0)} r0 ${first.openFirst} (load ${first.load.toFixed(1)}); ` +
      `last ${(final.orders / final.seconds).toFixed(0)}/s, db ${dbOf(final).toFixed(2)} ms an order, p50 ${pct(final.latencies, 50).toFixed(1)} ms, open mean ${final.openMean.toFixed(0)} r0 ${final.openFirst} (load ${final.load.toFixed(1)})`);
  }
  const plan = async (label: string, sql: string, params: unknown[]) => {
    const rows = (await admin!.query(`${MINE} EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).rows as { 'QUERY PLAN': string }[];
    console.log(`\n${label}:\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
  };
  // Whose promises the slips job moved: the engine's orders, or the ceiling's copies (ids `raw…`).
  const moved = (await admin.query(`${MINE} SELECT order_id LIKE 'raw%' AS ceiling, count(*)::int AS updates, count(DISTINCT order_id)::int AS orders
    FROM order_promise_updates GROUP BY 1 ORDER BY 1`)).rows as { ceiling: boolean; updates: number; orders: number }[];
  for (const m of moved) console.log(`promises moved, ${m.ceiling ? "the ceiling's copies" : "the engine's orders"}: ${m.updates} moves of ${m.orders} orders`);
  const r0 = restaurants[0]!;
  await plan('the open lines, restaurant 0', `SELECT order_id, item_index, station_id, product_id, quantity, fired_at, started_at, started_explicit FROM kitchen_open_items
    WHERE location_id = $1 AND fired_at >= $2 AND test <= $3 AND station_id IS NOT NULL ORDER BY fired_at, fire_seq, order_id, item_index LIMIT $4`, [r0.locationId, Date.now() - 6 * 3_600_000, 0, 1000]);
} finally {
  for (const child of children) await child.stop();
  await admin?.end();
  await cluster.stop();
}
