// Row 6: an order created upstream → visible on the replica (p50/p99), the outbox's replay rate
// after an outage, against the same path with bare node:http ends (bench/children/bare-sync.ts);
// and the kitchen's reconnect: from the network's return to 30 queued changes drained.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { R1 } from '../../test/support/demo-ids.ts';
import { FaultProxy } from '../../test/support/fault-proxy.ts';
import { spawnChild, type Child } from '../lib/child.ts';
import { authorization, underTest, type BenchContext } from '../lib/context.ts';
import { prepareDatabase } from '../lib/prepare-database.ts';
import { figure, type Figure } from '../lib/report.ts';
import { median, percentile, sleep } from '../lib/stats.ts';

const ORDER = JSON.stringify({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Sincronía' },
  items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
});

interface Sample {
  p50: number;
  p99: number;
  /** The first order after the replica started, alone: a fresh process's first apply (cold code paths, first statements). */
  firstMs: number;
  replayPerSecond: number;
  /** CPU time (user + system) of the upstream and the replica together per replayed change, µs: what a shared machine hardly moves. */
  replayCpuMicros?: number;
  /** The same, each process alone: [upstream, replica]. */
  replayCpuSplit?: [number, number];
  /** From the network's return to the first change delivered (after the replay's outage). */
  reconnectMs?: number;
  /** After an outage of RECONNECT_OUTAGE_MS: from the network's return to the first of 30 changes delivered, and to all 30. */
  noticedMs?: number;
  drainedMs?: number;
}

/** Long enough for any backoff to have grown to its cap (the replica's defaults are measured). */
const RECONNECT_OUTAGE_MS = 8_000;
/** The smoke run's (`--quick`) outage: the same path (refused, queued, reconnected, drained), not the backoff's cap. */
const QUICK_RECONNECT_OUTAGE_MS = 2_000;
const outageMs = (context: BenchContext) => (context.quick ? QUICK_RECONNECT_OUTAGE_MS : RECONNECT_OUTAGE_MS);
const RECONNECT_CHANGES = 30;
/**
 * Orders sent one at a time, each awaited, before the timed ones: the first order a freshly started
 * replica applies runs cold code paths and first statements (0.4–0.7 s here, 4 s on a loaded
 * machine) and used to hold back every order queued behind it, so the p99 of the steady flow was
 * that one start-up cost. It is reported alone ("the first order after the replica started").
 */
const WARMUP_ORDERS = 3;

async function call(baseUrl: string, key: string, method: string, path: string, body?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...authorization(key), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Long-polls a feed, noting when each order first shows up in it. */
function watchFeed(baseUrl: string, key: string) {
  const arrivals = new Map<string, number>();
  const stopping = new AbortController();
  let failure: unknown = null;
  const loop = (async () => {
    let cursor = (await call(baseUrl, key, 'GET', '/events')).body.next_cursor as string;
    while (!stopping.signal.aborted) {
      try {
        const response = await fetch(`${baseUrl}/events?after=${cursor}&limit=500&wait=25`, {
          headers: authorization(key),
          signal: stopping.signal,
        });
        const page = (await response.json()) as { data: { type: string; data: { id: string } }[]; next_cursor: string };
        const now = performance.now();
        for (const event of page.data) {
          if (event.type.startsWith('order.') && !arrivals.has(event.data.id)) arrivals.set(event.data.id, now);
        }
        cursor = page.next_cursor;
      } catch (error) {
        if (!stopping.signal.aborted) failure = error;
        return;
      }
    }
  })();
  return {
    arrivals,
    async waitFor(ids: string[], timeoutMs = 30_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (ids.some((id) => !arrivals.has(id))) {
        if (failure) throw failure;
        if (Date.now() > deadline) throw new Error(`${ids.filter((id) => !arrivals.has(id)).length} orders never reached the replica`);
        await sleep(10);
      }
    },
    async stop() {
      stopping.abort();
      await loop.catch(() => {});
    },
  };
}

/** Creates orders upstream one at a time, `gapMs` apart; returns each one's latency to the replica's feed. */
async function propagation(upstreamUrl: string, replicaUrl: string, key: string, count: number, gapMs: number): Promise<{ latencies: number[]; ids: string[] }> {
  const feed = watchFeed(replicaUrl, key);
  await sleep(100); // the watcher's first long-poll is in place
  try {
    const sent = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const at = performance.now();
      const created = await call(upstreamUrl, key, 'POST', '/orders', ORDER);
      if (created.status !== 201) throw new Error(`POST /orders upstream: ${created.status} ${JSON.stringify(created.body)}`);
      sent.set(created.body.id as string, at);
      if (gapMs > 0) await sleep(gapMs);
    }
    await feed.waitFor([...sent.keys()]);
    return { latencies: [...sent].map(([id, at]) => feed.arrivals.get(id)! - at), ids: [...sent.keys()] };
  } finally {
    await feed.stop();
  }
}

/** User + system CPU time of these processes together, µs. */
async function cpuOf(children: Child[]): Promise<number> {
  let total = 0;
  for (const child of children) {
    const usage = await child.ask({ type: 'cpu' });
    total += (usage.user as number) + (usage.system as number);
  }
  return total;
}

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number, pollMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await sleep(pollMs);
  }
}

const KITCHEN_PATH = ['en_preparacion', 'listo', 'entregado'];

async function ours(context: BenchContext, database: string, key: string, run: number, count: number, changes: number): Promise<Sample> {
  const upstream = await spawnChild('engine', { database }, underTest(context, 'row6-upstream'));
  const proxy = new FaultProxy(upstream.ready.port as number);
  await proxy.start();
  let replica: Child | null = null;
  try {
    replica = await spawnChild(
      'replica',
      { database: join(context.workDir, `replica-${run}.db`), upstreamUrl: proxy.baseUrl, apiKey: key },
      underTest(context, 'row6-replica'),
    );
    const upstreamUrl = upstream.ready.baseUrl as string;
    const replicaUrl = replica.ready.baseUrl as string;
    const first = await propagation(upstreamUrl, replicaUrl, key, WARMUP_ORDERS, 0);
    const { latencies, ids } = await propagation(upstreamUrl, replicaUrl, key, count, context.quick ? 10 : 20);
    ids.push(...first.ids);
    // Orders enough for the kitchen's changes (three each), also mirrored before the outage.
    const needed = Math.ceil(changes / KITCHEN_PATH.length);
    if (ids.length < needed) ids.push(...(await propagation(upstreamUrl, replicaUrl, key, needed - ids.length, 0)).ids);

    const status = async () => (await call(replicaUrl, key, 'GET', '/sync/status')).body as { online: boolean; outbox_pending: number };
    proxy.set({ kind: 'refuse' });
    await until(status, (s) => !s.online, 10_000);
    for (let i = 0; i < changes; i++) {
      const order = ids[Math.floor(i / KITCHEN_PATH.length)]!;
      const moved = await call(replicaUrl, key, 'PATCH', `/orders/${order}`, JSON.stringify({ status: KITCHEN_PATH[i % KITCHEN_PATH.length] }));
      if (moved.status !== 200) throw new Error(`PATCH on the replica: ${moved.status} ${JSON.stringify(moved.body)}`);
    }
    const pending = (await status()).outbox_pending;
    if (pending !== changes) throw new Error(`outbox holds ${pending} changes, expected ${changes}`);
    const cpuBefore = [await cpuOf([upstream]), await cpuOf([replica])] as const;
    // The replica times the replay itself, from the first change delivered to an empty outbox, as
    // the bare replica times its own: nothing polls it meanwhile. It retries within its backoff
    // (250 ms at most here) once the proxy lets it through.
    const window = replica.ask({ type: 'replay-window', changes }, 120_000);
    const startedTicks = process.hrtime.bigint();
    proxy.set({ kind: 'pass' });
    const replay = await window;
    const replayMs = replay.ms as number;
    // The replay's window on the monotonic clock, in µs as a .cpuprofile's sample times count it
    // (here from the proxy's opening, the reconnect included).
    if (context.profileDir) context.log(`  replay window (monotonic µs): ${startedTicks / 1000n} ${process.hrtime.bigint() / 1000n}`);
    const replayCpuSplit: [number, number] = [((await cpuOf([upstream])) - cpuBefore[0]) / changes, ((await cpuOf([replica])) - cpuBefore[1]) / changes];
    const replayCpuMicros = replayCpuSplit[0] + replayCpuSplit[1];

    // The kitchen's reconnect: orders mirrored first, then a long outage with 30 changes queued.
    const fresh = (await propagation(upstreamUrl, replicaUrl, key, RECONNECT_CHANGES / KITCHEN_PATH.length, 0)).ids;
    proxy.set({ kind: 'refuse' });
    await until(status, (s) => !s.online, 10_000);
    const outageStarted = performance.now();
    for (let i = 0; i < RECONNECT_CHANGES; i++) {
      const order = fresh[Math.floor(i / KITCHEN_PATH.length)]!;
      const moved = await call(replicaUrl, key, 'PATCH', `/orders/${order}`, JSON.stringify({ status: KITCHEN_PATH[i % KITCHEN_PATH.length] }));
      if (moved.status !== 200) throw new Error(`PATCH on the replica: ${moved.status} ${JSON.stringify(moved.body)}`);
    }
    await sleep(Math.max(0, outageMs(context) - (performance.now() - outageStarted)));
    proxy.set({ kind: 'pass' });
    const back = performance.now();
    await until(status, (s) => s.outbox_pending < RECONNECT_CHANGES, 30_000, 5);
    const noticed = performance.now();
    await until(status, (s) => s.outbox_pending === 0, 30_000, 5);
    const drained = performance.now();
    return {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      firstMs: first.latencies[0]!,
      replayPerSecond: changes / (replayMs / 1000),
      replayCpuMicros,
      replayCpuSplit,
      reconnectMs: replay.firstAfterMs as number,
      noticedMs: noticed - back,
      drainedMs: drained - back,
    };
  } finally {
    await replica?.stop();
    await proxy.stop();
    await upstream.stop();
  }
}

async function ceiling(context: BenchContext, count: number, changes: number): Promise<Sample> {
  const upstream = await spawnChild('bare-sync', { role: 'upstream' });
  const proxy = new FaultProxy(upstream.ready.port as number);
  await proxy.start();
  let replica: Child | null = null;
  try {
    replica = await spawnChild('bare-sync', { role: 'replica', upstreamUrl: proxy.baseUrl });
    const first = await propagation(upstream.ready.baseUrl as string, replica.ready.baseUrl as string, 'none', WARMUP_ORDERS, 0);
    const { latencies, ids } = await propagation(upstream.ready.baseUrl as string, replica.ready.baseUrl as string, 'none', count, context.quick ? 10 : 20);
    ids.push(...first.ids);
    const cpuBefore = await cpuOf([upstream, replica]);
    const { ms } = (await replica.ask({ type: 'replay', count: changes, orderIds: ids })) as unknown as { ms: number };
    const replayCpuMicros = ((await cpuOf([upstream, replica])) - cpuBefore) / changes;
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), firstMs: first.latencies[0]!, replayPerSecond: changes / (ms / 1000), replayCpuMicros };
  } finally {
    await replica?.stop();
    await proxy.stop();
    await upstream.stop();
  }
}

export async function benchSync(context: BenchContext): Promise<Figure[]> {
  const count = context.quick ? 50 : 200;
  const changes = context.quick ? 300 : 1000;
  const prepared = await prepareDatabase(join(context.workDir, 'sync'), 0);
  const runs = { ours: [] as Sample[], ceiling: [] as Sample[] };
  for (let run = 0; run < context.runs; run++) {
    const database = join(context.workDir, `sync-upstream-${run}.db`);
    copyFileSync(prepared.path, database);
    runs.ours.push(await ours(context, database, prepared.keys.live_write, run, count, changes));
    runs.ceiling.push(await ceiling(context, count, changes));
    const [o, c] = [runs.ours.at(-1)!, runs.ceiling.at(-1)!];
    context.log(
      `  run ${run + 1}: p99 ${o.p99.toFixed(1)} ms (bare ${c.p99.toFixed(1)}), replay ${Math.round(o.replayPerSecond)}/s (bare ${Math.round(c.replayPerSecond)}/s; ` +
        `${Math.round(o.replayCpuMicros!)} µs CPU per change (upstream ${Math.round(o.replayCpuSplit![0])} + replica ${Math.round(o.replayCpuSplit![1])}), bare ${Math.round(c.replayCpuMicros!)}), ` +
        `reconnect: first change ${o.noticedMs!.toFixed(0)} ms, ${RECONNECT_CHANGES} drained ${o.drainedMs!.toFixed(0)} ms`,
    );
  }
  const of = (key: 'p50' | 'p99' | 'firstMs' | 'replayPerSecond' | 'replayCpuMicros') => ({
    ours: runs.ours.map((s) => s[key] ?? Number.NaN),
    ceiling: runs.ceiling.map((s) => s[key] ?? Number.NaN),
  });
  const reconnect = median(runs.ours.map((s) => s.reconnectMs ?? 0));
  const ourOnly = (key: 'noticedMs' | 'drainedMs') => ({ ours: runs.ours.map((s) => s[key] ?? Number.NaN), ceiling: [] });
  const outage = `after ${outageMs(context) / 1000} s offline (fault proxy refusing connections) with ${RECONNECT_CHANGES} kitchen changes queued; the replica's default schedule`;
  return [
    figure({ row: 6, name: 'Sync: created upstream → on replica p50', unit: 'ms', better: 'lower', note: `${count} orders, one every ${context.quick ? 10 : 20} ms; seen in the replica's change feed` }, of('p50')),
    figure({ row: 6, name: 'Sync: created upstream → on replica p99', unit: 'ms', better: 'lower' }, of('p99'), (value) => ({
      text: '< 250 ms',
      met: value < 250,
    })),
    figure(
      { row: 6, name: 'Sync: the first order after the replica started', unit: 'ms', better: 'lower', note: `alone, before the timed ${count}; a fresh replica's first apply` },
      of('firstMs'),
    ),
    figure(
      { row: 6, name: 'Sync: outbox replay after an outage', unit: 'changes/s', better: 'higher', note: `${changes} kitchen changes made offline, from the first delivered to the last (the first left ${reconnect.toFixed(0)} ms after the network came back); ceiling: as many sequential PATCHes through the proxy to a bare server` },
      of('replayPerSecond'),
      (value, ratio) => ({ text: '> 500/s, ≥ 60% of ceiling', met: value > 500 && ratio !== null && ratio >= 0.6 }),
    ),
    figure(
      {
        row: 6,
        name: 'Sync: outbox replay, CPU per change',
        unit: 'µs',
        better: 'lower',
        note: 'user + system CPU of the upstream and the replica together over the replay ÷ its changes (from the moment the network is back, nothing polling the replica meanwhile); steadier than the rate on a shared machine',
      },
      of('replayCpuMicros'),
    ),
    figure(
      { row: 6, name: 'Sync: network back → first queued change delivered', unit: 'ms', better: 'lower', note: `${outage}; no ceiling (the bare pair has no reconnect logic)` },
      ourOnly('noticedMs'),
      (value) => ({ text: '< 2 s', met: value < 2_000 }),
    ),
    figure(
      { row: 6, name: `Sync: network back → ${RECONNECT_CHANGES} queued changes drained`, unit: 'ms', better: 'lower', note: outage },
      ourOnly('drainedMs'),
      (value) => ({ text: '< 3 s', met: value < 3_000 }),
    ),
  ];
}
