// Issue 34's feed figure over HTTP: a commit on node A → a long-poll answered on node B (target p99
// ≤ 250 ms). Bench row 13 measures the wake at the storage port (B's waiter woken by A's NOTIFY);
// this probe measures what a store front sees: two engine nodes in processes of their own
// (bench/children/engine-postgres.ts, opened as `serve --database` opens them) on one database of a
// throwaway cluster, `GET /v1/events?after=…&wait=30` held on B, then `POST /v1/orders` on A; from
// the POST's start (and from A's 201) to B's answer carrying the order. One sample at a time.
//
//   npm exec -- node --import tsx bench/probes/long-poll-across-nodes.ts [--samples 200] [--warmup 10]
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { usePostgresCluster } from '../../test/support/postgres-cluster.ts';
import { ENGINE_NODE_FLAGS } from '../../src/engine/engine-node-flags.ts';
import { spawnChild, type Child } from '../lib/child.ts';
import { percentile } from '../lib/stats.ts';
import { seedRestaurants } from '../rows/platform/seed-restaurants.ts';

const { values: args } = parseArgs({ options: { samples: { type: 'string', default: '200' }, warmup: { type: 'string', default: '10' } } });
const samples = Number(args.samples);
const warmup = Number(args.warmup);

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const cluster = await usePostgresCluster();
const children: Child[] = [];
try {
  const connectionString = await cluster.createDatabase(`probe_long_poll_${process.pid}`);
  const [restaurant] = await seedRestaurants(connectionString, 1);
  for (let i = 0; i < 2; i++) children.push(await spawnChild('engine-postgres', { connectionString }, { nodeFlags: [...ENGINE_NODE_FLAGS] }));
  const [a, b] = children.map((c) => c.ready.baseUrl as string) as [string, string];
  const headers = { authorization: `Bearer ${restaurant!.key}`, 'content-type': 'application/json' };
  const get = async (base: string, path: string) => {
    const response = await fetch(`${base}${path}`, { headers });
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { data: { type: string; data: { id?: string } }[]; next_cursor: string };
  };
  let cursor = (await get(b, '/events')).next_cursor;
  const fromStart: number[] = [];
  const fromAnswer: number[] = [];
  console.log(`load ${load()} at the start; ${warmup} unmeasured, then ${samples}`);
  for (let i = 0; i < warmup + samples; i++) {
    const polled = get(b, `/events?after=${cursor}&wait=30`).then((page) => ({ page, at: performance.now() }));
    // Sent after the poll and answered empty by B: the poll is held by then (as in the e2e test).
    const probe = await get(b, `/events?after=${cursor}`);
    if (probe.data.length > 0) throw new Error('the feed moved with no order made');
    const t0 = performance.now();
    const response = await fetch(`${a}/orders`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': `probe-${process.pid}-${i}` },
      body: JSON.stringify({ location_id: restaurant!.locationId, type: 'retiro', customer: { name: 'Sonda' }, items: [{ product_id: restaurant!.productId, quantity: 1 }] }),
    });
    const order = (await response.json()) as { id: string };
    const t1 = performance.now();
    if (response.status !== 201) throw new Error(`POST /orders: ${response.status} ${JSON.stringify(order)}`);
    const { page, at } = await polled;
    if (!page.data.some((e) => e.type === 'order.created' && e.data.id === order.id)) {
      // The poll woke on an earlier event of the same commit (stock.updated): read on to the order.
      const rest = await get(b, `/events?after=${page.next_cursor}&wait=30`);
      if (!rest.data.some((e) => e.type === 'order.created' && e.data.id === order.id)) throw new Error(`order ${order.id} not in B's feed`);
      cursor = rest.next_cursor;
    } else cursor = page.next_cursor;
    if (i >= warmup) {
      fromStart.push(at - t0);
      fromAnswer.push(at - t1);
    }
  }
  const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
  console.log(`from the POST's start to B's answer: p50 ${ms(fromStart, 50)} ms, p99 ${ms(fromStart, 99)} ms, max ${Math.max(...fromStart).toFixed(1)} ms`);
  console.log(`from A's 201 to B's answer: p50 ${ms(fromAnswer, 50)} ms, p99 ${ms(fromAnswer, 99)} ms (negative: B answered first)`);
  console.log(`load ${load()} at the end`);
} finally {
  for (const child of children) await child.stop();
  await cluster.release();
}
