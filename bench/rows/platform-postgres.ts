// Row 13: the platform on PostgreSQL (issue 34) on a throwaway cluster (test/support/postgres-cluster.ts),
// each figure beside a raw `pg` ceiling measured alternately in the same run:
// - `POST /v1/orders` over HTTP to engine nodes in their own processes (bench/children/engine-postgres.ts,
//   opened as `serve --database postgres://…` opens them), with an Idempotency-Key, 16 writers over 50
//   restaurants (copies of the demo's first, platform/seed-restaurants.ts), on one node, then over two
//   nodes on the same database, then 8 writers on one restaurant over two nodes; ceiling: a raw
//   pipelined `pg` loop writing the rows the engine wrote for one of its orders
//   (platform/engine-rows-ceiling.ts);
// and, through the storage port alone (the second line: the port's share of the cost):
// - the order write (the Idempotency-Key claimed, the stock taken, the number, the order, its event,
//   the key's answer: one transaction of the restaurant), on one node and on two nodes, 16 writers
//   over 50 restaurants; ceiling: a raw pipelined `pg` loop writing the same rows with the same
//   statements, all of a transaction sent at once (no await between them);
// - one restaurant alone: the same write, 8 writers on one restaurant (its clock row serializes
//   them); ceiling: the raw loop on one restaurant;
// - a commit on node A → a waiter on node B woken (NOTIFY after commit, B's LISTEN connection), from
//   the write's start; ceiling: a raw transaction inserting the event then NOTIFY, heard by a raw
//   LISTEN client.
// Without PostgreSQL's server binaries the row is skipped with a line saying so.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migratePostgres } from '../../src/engine/postgres/migrate-postgres.ts';
import { createPostgresPool, ENGINE_TYPES } from '../../src/engine/postgres/postgres-pool.ts';
import { PostgresStorage } from '../../src/engine/postgres/postgres-storage.ts';
import type { StoragePort } from '../../src/engine/storage/storage-port.ts';
import type { OrderRow } from '../../src/engine/store/orders-store.ts';
import { postgresBinDir, usePostgresCluster } from '../../test/support/postgres-cluster.ts';
import { underTest, type BenchContext } from '../lib/context.ts';
import { figure, notMeasured, type Figure } from '../lib/report.ts';
import { percentile } from '../lib/stats.ts';
import { spawnChild, type Child } from '../lib/child.ts';
import { seedRestaurants, type SeededRestaurant } from './platform/seed-restaurants.ts';
import { rawEngineRowsWrite, readEngineRows } from './platform/engine-rows-ceiling.ts';

const ROW = 13;
const RESTAURANTS = 50;
const WRITERS = 16;
const ONE_RESTAURANT_WRITERS = 8;
const AT = Date.parse('2026-11-21T23:00:00Z');
const DAY_MS = 24 * 3_600_000;
const CLAIMED = -1;

const ids = (r: number) => ({ restaurant: `r${r}`, location: `l${r}`, product: `p${r}`, apiKey: `k${r}` });

function seedSql(): string {
  const rows = Array.from({ length: RESTAURANTS }, (_, r) => ids(r));
  return `
    INSERT INTO restaurants (id, name, register_mode, created_at) VALUES ${rows.map((x) => `('${x.restaurant}', 'R', 'manual', 0)`).join(', ')};
    INSERT INTO locations (id, restaurant_id, name, address) VALUES ${rows.map((x) => `('${x.location}', '${x.restaurant}', 'Local', 'Calle 1')`).join(', ')};
    INSERT INTO categories (id, restaurant_id, name) VALUES ${rows.map((x) => `('c-${x.restaurant}', '${x.restaurant}', 'Platos')`).join(', ')};
    INSERT INTO products (id, restaurant_id, category_id, slug, name, price, track_stock)
      VALUES ${rows.map((x) => `('${x.product}', '${x.restaurant}', 'c-${x.restaurant}', 'completo', 'Completo', 2500, 1)`).join(', ')};
    INSERT INTO stock (location_id, product_id, quantity) VALUES ${rows.map((x) => `('${x.location}', '${x.product}', 1000000000)`).join(', ')};
    INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, world, can_write, last4, created_at)
      VALUES ${rows.map((x) => `('${x.apiKey}', '${x.restaurant}', 'lookup-${x.apiKey}', '\\x00'::bytea, '\\x00'::bytea, 'live', 1, 'abcd', 0)`).join(', ')};
    INSERT INTO restaurant_clocks (restaurant_id) VALUES ${rows.map((x) => `('${x.restaurant}')`).join(', ')};`;
}

function orderRow(r: number, id: string, number: string): OrderRow {
  const x = ids(r);
  return {
    id, restaurant_id: x.restaurant, test: 0, number, status: 'recibido', type: 'retiro', location_id: x.location,
    customer_name: 'Ana', customer_phone: null, customer_email: null, address: null, notes: null,
    items: JSON.stringify([{ product_id: x.product, quantity: 1 }]), subtotal: 2500, shipping_fee: 0, discount: 0, total: 2500,
    payment_kind: 'external', payment_method: null, paid: 0, refunded: 0, delivery_provider: null, delivery_status: null,
    delivery_tracking_url: null, scheduled_for: null, stock_taken: 1, managed_by: null, created_at: AT, updated_at: AT,
  };
}

/** The order write through the port, as a service will do it. */
async function portWrite(storage: StoragePort, r: number, id: string): Promise<void> {
  const x = ids(r);
  await storage.write(x.restaurant, async (tx) => {
    const claim = await tx.claimIdempotencyKey({ apiKeyId: x.apiKey, key: id, requestHash: 'h', at: AT, notOlderThan: AT - DAY_MS });
    if (claim.kind === 'answered') throw new Error(`key ${id} answered twice`);
    if (!(await tx.tryTakeStock(x.location, x.product, 1))) throw new Error('out of stock');
    const number = await tx.takeOrderNumber(false);
    await tx.insertOrder(orderRow(r, id, number));
    await tx.appendEvent('live', 'order.created', AT, { id, number });
    await tx.recordAnswer(claim, 201, JSON.stringify({ id, number }));
  });
}

const ORDER_COLUMNS = Object.keys(orderRow(0, '', '')) as (keyof OrderRow)[];
const RAW = {
  clock: `INSERT INTO restaurant_clocks (restaurant_id) VALUES ($1)
    ON CONFLICT (restaurant_id) DO UPDATE SET restaurant_id = excluded.restaurant_id RETURNING last_event_seq`,
  claim: `INSERT INTO idempotency_keys (api_key_id, key, request_hash, status, body, created_at) VALUES ($1, $2, 'h', ${CLAIMED}, '', $3)
    ON CONFLICT (api_key_id, key) DO NOTHING RETURNING 1`,
  stock: 'UPDATE stock SET quantity = quantity - 1 WHERE location_id = $1 AND product_id = $2 AND quantity >= 1',
  number: 'UPDATE restaurant_clocks SET next_order_number = next_order_number + 1 WHERE restaurant_id = $1 RETURNING next_order_number - 1 AS n',
  order: `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}) VALUES (${ORDER_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
  event: `WITH clock AS (UPDATE restaurant_clocks SET last_event_seq = last_event_seq + 1 WHERE restaurant_id = $1 RETURNING last_event_seq)
    INSERT INTO events (seq, restaurant_id, world, type, created_at, data) SELECT last_event_seq, $1, 'live', 'order.created', $2, $3 FROM clock`,
  answer: 'UPDATE idempotency_keys SET status = 201, body = $3 WHERE api_key_id = $1 AND key = $2',
};

/** The ceiling: the same rows, every statement of the transaction sent at once on a pipelining connection. */
async function rawWrite(pool: pg.Pool, r: number, id: string): Promise<void> {
  const x = ids(r);
  const client = await pool.connect();
  try {
    const row = orderRow(r, id, id); // the number is not read back: the raw loop never waits between statements
    await Promise.all([
      client.query('BEGIN'),
      client.query(RAW.clock, [x.restaurant]),
      client.query(RAW.claim, [x.apiKey, id, AT]),
      client.query(RAW.stock, [x.location, x.product]),
      client.query(RAW.number, [x.restaurant]),
      client.query(RAW.order, ORDER_COLUMNS.map((c) => row[c])),
      client.query(RAW.event, [x.restaurant, AT, JSON.stringify({ id })]),
      client.query(RAW.answer, [x.apiKey, id, JSON.stringify({ id })]),
      client.query('COMMIT'),
    ]);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

let written = 0;

type BenchRestaurant = SeededRestaurant & { apiKeyId: string };

/** `POST /v1/orders` to an engine node, with an Idempotency-Key, as a store front sends it. */
async function engineWrite(baseUrl: string, restaurant: BenchRestaurant, id: string): Promise<void> {
  const response = await fetch(`${baseUrl}/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${restaurant.key}`, 'content-type': 'application/json', 'idempotency-key': id },
    body: JSON.stringify({
      location_id: restaurant.locationId,
      type: 'retiro',
      customer: { name: 'Carga Plataforma', phone: '+56 9 5555 1234' },
      items: [{ product_id: restaurant.productId, quantity: 1 }],
      payment: 'external',
    }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST /v1/orders answered ${response.status}: ${text.slice(0, 200)}`);
}

interface EngineMeasures {
  /** One node's CPU (user + system) and statements sent, per order, over the one-node runs. */
  cpuMicrosPerOrder: number[];
  statementsPerOrder: number[];
  one: { ours: number[]; ceiling: number[]; p99: number[]; ceilingP99: number[] };
  two: { ours: number[]; ceiling: number[]; p99: number[]; ceilingP99: number[] };
  alone: { ours: number[]; ceiling: number[]; p99: number[]; ceilingP99: number[] };
}

/**
 * The order write through the real Engine: two engine nodes in their own processes on one database
 * of 50 seeded restaurants; the raw loop writes the rows the engine wrote, read back after the warm-up.
 */
async function measureEngine(context: BenchContext, connectionString: string, onError: (error: Error) => void): Promise<EngineMeasures> {
  const restaurants = await seedRestaurants(connectionString, RESTAURANTS);
  const raw = createPostgresPool({ connectionString, max: 10, applicationName: 'bench raw engine rows', onError });
  const children: Child[] = [];
  try {
    const keyIds = new Map(
      ((await raw.query('SELECT id, restaurant_id FROM api_keys')).rows as { id: string; restaurant_id: string }[]).map((k) => [k.restaurant_id, k.id]),
    );
    const seeded: BenchRestaurant[] = restaurants.map((r) => ({ ...r, apiKeyId: keyIds.get(r.id)! }));
    for (let i = 0; i < 2; i++) children.push(await spawnChild('engine-postgres', { connectionString }, underTest(context, `row13-node${i}`)));
    const [nodeA, nodeB] = children.map((c) => c.ready.baseUrl as string) as [string, string];
    const spread = (writer: number, i: number) => (writer * 7 + i) % RESTAURANTS;
    const alone = () => 0;
    const oneNode = (_: number, r: number, id: string) => engineWrite(nodeA, seeded[r]!, id);
    const twoNodes = (w: number, r: number, id: string) => engineWrite(w % 2 === 0 ? nodeA : nodeB, seeded[r]!, id);
    await load(Math.max(context.warmupSeconds, 0.5), WRITERS, twoNodes, spread);
    const last = (await raw.query('SELECT id FROM orders ORDER BY created_at DESC LIMIT 1')).rows[0] as { id: string };
    const template = await readEngineRows(raw, last.id);
    const ceiling = (_: number, r: number, id: string) => rawEngineRowsWrite(raw, template, seeded[r]!, id);
    await load(context.warmupSeconds, WRITERS, ceiling, spread);
    const measures: EngineMeasures = {
      cpuMicrosPerOrder: [],
      statementsPerOrder: [],
      one: { ours: [], ceiling: [], p99: [], ceilingP99: [] },
      two: { ours: [], ceiling: [], p99: [], ceilingP99: [] },
      alone: { ours: [], ceiling: [], p99: [], ceilingP99: [] },
    };
    const s = context.seconds;
    for (let run = 0; run < context.runs; run++) {
      const sample = async (into: EngineMeasures['one'], ours: () => ReturnType<typeof load>, raw: () => ReturnType<typeof load>) => {
        // Alternately first, so neither always gets the quiet moment.
        let a: Awaited<ReturnType<typeof load>>;
        let b: Awaited<ReturnType<typeof load>>;
        if (run % 2 === 0) {
          a = await ours();
          b = await raw();
        } else {
          b = await raw();
          a = await ours();
        }
        into.ours.push(a.perSecond);
        into.p99.push(a.p99);
        into.ceiling.push(b.perSecond);
        into.ceilingP99.push(b.p99);
      };
      const [node] = children as [Child];
      const oneNodeCounted = async () => {
        const cpu0 = await node.ask({ type: 'cpu' });
        const statements0 = await node.ask({ type: 'statements' });
        const result = await load(s, WRITERS, oneNode, spread);
        const cpu1 = await node.ask({ type: 'cpu' });
        const statements1 = await node.ask({ type: 'statements' });
        const orders = Math.max(1, Math.round(result.perSecond * s));
        const micros = (cpu1.user as number) - (cpu0.user as number) + (cpu1.system as number) - (cpu0.system as number);
        measures.cpuMicrosPerOrder.push(micros / orders);
        measures.statementsPerOrder.push(((statements1.statements as number) - (statements0.statements as number)) / orders);
        return result;
      };
      await sample(measures.one, oneNodeCounted, () => load(s, WRITERS, ceiling, spread));
      await sample(measures.two, () => load(s, WRITERS, twoNodes, spread), () => load(s, WRITERS, ceiling, spread));
      await sample(measures.alone, () => load(s, ONE_RESTAURANT_WRITERS, twoNodes, alone), () => load(s, ONE_RESTAURANT_WRITERS, ceiling, alone));
      context.log(
        `  run ${run + 1} (engine over HTTP): one node ${measures.one.ours.at(-1)!.toFixed(0)}/${measures.one.ceiling.at(-1)!.toFixed(0)} orders/s ` +
          `(${measures.cpuMicrosPerOrder.at(-1)!.toFixed(0)} µs CPU, ${measures.statementsPerOrder.at(-1)!.toFixed(1)} statements an order), ` +
          `two nodes ${measures.two.ours.at(-1)!.toFixed(0)}/${measures.two.ceiling.at(-1)!.toFixed(0)}, ` +
          `one restaurant ${measures.alone.ours.at(-1)!.toFixed(0)}/${measures.alone.ceiling.at(-1)!.toFixed(0)}`,
      );
    }
    for (const child of children) {
      const reported = await child.ask({ type: 'errors' });
      if ((reported.connectionErrors as number) > 0) context.log(`  node: ${String(reported.connectionErrors)} connection errors (first: ${String(reported.first)})`);
    }
    return measures;
  } finally {
    for (const child of children) await child.stop();
    await raw.end();
  }
}

/** `writers` loops writing for `seconds`, restaurants spread by `restaurantOf`; orders/s and latencies. */
async function load(
  seconds: number,
  writers: number,
  write: (writer: number, r: number, id: string) => Promise<void>,
  restaurantOf: (writer: number, i: number) => number,
): Promise<{ perSecond: number; p50: number; p99: number }> {
  const times: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let i = 0; performance.now() < until; i++) {
        const t0 = performance.now();
        await write(writer, restaurantOf(writer, i), `o${(written += 1)}`);
        times.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { perSecond: times.length / elapsed, p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** Node B waits on the restaurant's feed; node A writes an event: from the write's start to B woken. */
async function crossNodeWake(nodeA: PostgresStorage, nodeB: PostgresStorage, samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const woken = nodeB.waitForChange('r0', 60_000).then(() => performance.now());
    const t0 = performance.now();
    await nodeA.write('r0', (tx) => tx.appendEvent('live', 'order.updated', AT, { i }));
    times.push((await woken) - t0);
  }
  return times;
}

/** The ceiling: a raw transaction inserting the event, then NOTIFY; a raw LISTEN client hears it. */
async function rawWake(pool: pg.Pool, connectionString: string, samples: number): Promise<number[]> {
  const listener = new pg.Client({ connectionString, types: ENGINE_TYPES });
  await listener.connect();
  await listener.query('LISTEN bench_raw');
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const heard = new Promise<number>((resolve) => listener.once('notification', () => resolve(performance.now())));
      const t0 = performance.now();
      const client = await pool.connect();
      try {
        await Promise.all([
          client.query('BEGIN'),
          client.query(RAW.event, ['r1', AT, JSON.stringify({ i })]),
          client.query('COMMIT'),
        ]);
      } finally {
        client.release();
      }
      await pool.query("SELECT pg_notify('bench_raw', 'r1')");
      times.push((await heard) - t0);
    }
  } finally {
    await listener.end();
  }
  return times;
}

export async function benchPlatformPostgres(context: BenchContext): Promise<Figure[]> {
  try {
    postgresBinDir();
  } catch (error) {
    const why = `skipped: ${(error as Error).message}`;
    context.log(`  ${why}`);
    return [
      notMeasured(ROW, 'POST /v1/orders through the engine on PostgreSQL, one node', 'orders/s', 'higher', why, '≥ 50% of the raw pg loop'),
      notMeasured(ROW, 'POST /v1/orders through the engine on PostgreSQL, two nodes', 'orders/s', 'higher', why, '≥ 50% of the raw pg loop'),
      notMeasured(ROW, 'POST /v1/orders through the engine, one restaurant alone', 'writes/s', 'higher', why, '≥ 100/s'),
      notMeasured(ROW, 'PostgreSQL order write through the port, one node', 'orders/s', 'higher', why, '≥ 50% of the raw pg loop'),
      notMeasured(ROW, 'PostgreSQL order write through the port, two nodes', 'orders/s', 'higher', why, '≥ 50% of the raw pg loop'),
      notMeasured(ROW, 'one restaurant alone, serialized writes', 'writes/s', 'higher', why, '≥ 100/s'),
      notMeasured(ROW, 'commit on node A → waiter on node B woken, p99', 'ms', 'lower', why, 'p99 ≤ 250 ms'),
    ];
  }
  const cluster = await usePostgresCluster();
  const errors: Error[] = [];
  const onError = (error: Error) => errors.push(error);
  const connectionString = await cluster.createDatabase(`bench_platform_${process.pid}`);
  const raw = createPostgresPool({ connectionString, max: 10, applicationName: 'bench raw', onError });
  const nodes: PostgresStorage[] = [];
  try {
    const engine = await measureEngine(context, await cluster.createDatabase(`bench_platform_engine_${process.pid}`), onError);
    await migratePostgres(raw);
    await raw.query(seedSql());
    const nodeA = await PostgresStorage.open({ connectionString, onError });
    const nodeB = await PostgresStorage.open({ connectionString, onError });
    nodes.push(nodeA, nodeB);
    const spread = (writer: number, i: number) => (writer * 7 + i) % RESTAURANTS;
    const alone = () => 0;
    const measures = {
      one: { ours: [] as number[], ceiling: [] as number[], p99: [] as number[], ceilingP99: [] as number[] },
      two: { ours: [] as number[], ceiling: [] as number[], p99: [] as number[], ceilingP99: [] as number[] },
      alone: { ours: [] as number[], ceiling: [] as number[], p99: [] as number[], ceilingP99: [] as number[] },
    };
    const warm = context.warmupSeconds;
    await load(warm, WRITERS, (_, r, id) => portWrite(nodeA, r, id), spread);
    await load(warm, WRITERS, (_, r, id) => rawWrite(raw, r, id), spread);
    for (let run = 0; run < context.runs; run++) {
      const sample = async (
        into: (typeof measures)['one'],
        ours: () => Promise<{ perSecond: number; p99: number }>,
        ceiling: () => Promise<{ perSecond: number; p99: number }>,
      ) => {
        // Alternately first, so neither always gets the quiet moment.
        let a: { perSecond: number; p99: number };
        let b: { perSecond: number; p99: number };
        if (run % 2 === 0) {
          a = await ours();
          b = await ceiling();
        } else {
          b = await ceiling();
          a = await ours();
        }
        into.ours.push(a.perSecond);
        into.p99.push(a.p99);
        into.ceiling.push(b.perSecond);
        into.ceilingP99.push(b.p99);
      };
      const s = context.seconds;
      await sample(measures.one, () => load(s, WRITERS, (_, r, id) => portWrite(nodeA, r, id), spread), () => load(s, WRITERS, (_, r, id) => rawWrite(raw, r, id), spread));
      await sample(
        measures.two,
        () => load(s, WRITERS, (w, r, id) => portWrite(w % 2 === 0 ? nodeA : nodeB, r, id), spread),
        () => load(s, WRITERS, (_, r, id) => rawWrite(raw, r, id), spread),
      );
      await sample(
        measures.alone,
        () => load(s, ONE_RESTAURANT_WRITERS, (w, r, id) => portWrite(w % 2 === 0 ? nodeA : nodeB, r, id), alone),
        () => load(s, ONE_RESTAURANT_WRITERS, (_, r, id) => rawWrite(raw, r, id), alone),
      );
      context.log(
        `  run ${run + 1}: one node ${measures.one.ours.at(-1)!.toFixed(0)}/${measures.one.ceiling.at(-1)!.toFixed(0)} orders/s, ` +
          `two nodes ${measures.two.ours.at(-1)!.toFixed(0)}/${measures.two.ceiling.at(-1)!.toFixed(0)}, ` +
          `one restaurant ${measures.alone.ours.at(-1)!.toFixed(0)}/${measures.alone.ceiling.at(-1)!.toFixed(0)}`,
      );
    }
    const samples = context.quick ? 50 : 200;
    const wakes: number[] = [];
    const rawWakes: number[] = [];
    for (let run = 0; run < context.runs; run++) {
      wakes.push(percentile(await crossNodeWake(nodeA, nodeB, samples), 99));
      rawWakes.push(percentile(await rawWake(raw, connectionString, samples), 99));
    }
    if (errors.length > 0) context.log(`  ${errors.length} connection errors reported (first: ${errors[0]!.message})`);
    const write = (name: string, m: (typeof measures)['one'], note: string) =>
      figure(
        { row: ROW, name, unit: 'orders/s', better: 'higher', note,
          details: { p99Ms: m.p99, ceilingP99Ms: m.ceilingP99 } },
        { ours: m.ours, ceiling: m.ceiling },
        (_, ratio) => ({ text: '≥ 50% of the raw pg loop', met: ratio !== null && ratio >= 0.5 }),
      );
    const p99 = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');
    return [
      write('POST /v1/orders through the engine on PostgreSQL, one node', engine.one,
        `HTTP, Idempotency-Key, ${WRITERS} writers, ${RESTAURANTS} restaurants; ceiling: raw loop writing the engine's rows; p99 ${p99(engine.one.p99)} ms (raw ${p99(engine.one.ceilingP99)}); ` +
          `node CPU ${p99(engine.cpuMicrosPerOrder.map((m) => m / 1000))} ms an order, ${p99(engine.statementsPerOrder)} statements an order (jobs included)`),
      write('POST /v1/orders through the engine on PostgreSQL, two nodes', engine.two,
        `${WRITERS} writers over 2 nodes; p99 ${p99(engine.two.p99)} ms (raw ${p99(engine.two.ceilingP99)})`),
      figure(
        { row: ROW, name: 'POST /v1/orders through the engine, one restaurant alone', unit: 'writes/s', better: 'higher',
          note: `${ONE_RESTAURANT_WRITERS} writers on one restaurant over 2 nodes; p99 ${p99(engine.alone.p99)} ms`,
          details: { p99Ms: engine.alone.p99, ceilingP99Ms: engine.alone.ceilingP99 } },
        { ours: engine.alone.ours, ceiling: engine.alone.ceiling },
        (ours) => ({ text: '≥ 100/s', met: ours >= 100 }),
      ),
      write('PostgreSQL order write through the port, one node', measures.one, `${WRITERS} writers, ${RESTAURANTS} restaurants; p99 ${p99(measures.one.p99)} ms (raw ${p99(measures.one.ceilingP99)})`),
      write('PostgreSQL order write through the port, two nodes', measures.two, `${WRITERS} writers over 2 nodes; p99 ${p99(measures.two.p99)} ms (raw ${p99(measures.two.ceilingP99)})`),
      figure(
        { row: ROW, name: 'one restaurant alone, serialized writes', unit: 'writes/s', better: 'higher',
          note: `${ONE_RESTAURANT_WRITERS} writers on one restaurant over 2 nodes; p99 ${p99(measures.alone.p99)} ms`,
          details: { p99Ms: measures.alone.p99, ceilingP99Ms: measures.alone.ceilingP99 } },
        { ours: measures.alone.ours, ceiling: measures.alone.ceiling },
        (ours) => ({ text: '≥ 100/s', met: ours >= 100 }),
      ),
      figure(
        { row: ROW, name: 'commit on node A → waiter on node B woken, p99', unit: 'ms', better: 'lower',
          note: `${samples} commits a run, from the write's start; ceiling: raw transaction + NOTIFY → raw LISTEN` },
        { ours: wakes, ceiling: rawWakes },
        (ours) => ({ text: 'p99 ≤ 250 ms', met: ours <= 250 }),
      ),
    ];
  } finally {
    for (const node of nodes) await node.close();
    await raw.end();
    await cluster.release();
  }
}
