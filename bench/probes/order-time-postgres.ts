// Issue 34, round 12: where one `POST /v1/orders`'s time goes on an engine node on PostgreSQL, under
// row 13's loads: engine nodes in processes of their own (this file run as a node, opened as
// `serve --database` opens them), the writers' `fetch` loop in this process, 50 copies of the demo's
// first restaurant (bench/rows/platform/seed-restaurants.ts). Per order's write transaction, on the
// node (AsyncLocalStorage ties its statements to it):
// - waiting for the node's connection gate (engine.ts), then for pg's pool;
// - BEGIN sent → the clock row's take sent (work before the row);
// - the take's answer (the row's lock wait plus one round trip);
// - the row held: its answer → COMMIT's answer, split into the time some statement of the
//   transaction was in flight (the database's share) and the time none was (the node's share:
//   its JavaScript and its event loop's turns), and the round trips in it;
// - the node's event-loop delay (monitorEventLoopDelay), its CPU and statements an order.
// `[PROBE_POOL_SIZE=n] npm exec -- node --import tsx bench/probes/order-time-postgres.ts [seconds]`
import { AsyncLocalStorage } from 'node:async_hooks';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import os from 'node:os';
import pg from 'pg';

const TAKE = 'INSERT INTO restaurant_clocks (restaurant_id) SELECT';

interface Trace {
  gateIn: number;
  gateOut: number;
  connected: number;
  begin: number;
  takeSent: number;
  takeAnswered: number;
  committed: number;
  /** Under the row: round trips, ms with a statement in flight, statements. */
  trips: number;
  dbMs: number;
  statements: number;
  inFlight: number;
  busySince: number;
  attempts: number;
}

async function runNode(connectionString: string): Promise<void> {
  const { ConnectionGate } = await import('../../src/engine/storage/connection-gate.ts');
  const traceOf = new AsyncLocalStorage<Trace>();
  const traces: Trace[] = [];
  let statements = 0;
  const through = ConnectionGate.prototype.through;
  ConnectionGate.prototype.through = function <T>(this: InstanceType<typeof ConnectionGate>, work: () => Promise<T>): Promise<T> {
    const trace: Trace = { gateIn: performance.now(), gateOut: 0, connected: 0, begin: 0, takeSent: 0, takeAnswered: 0, committed: 0, trips: 0, dbMs: 0, statements: 0, inFlight: 0, busySince: 0, attempts: 0 };
    return traceOf.run(trace, () =>
      through.call(this, async () => {
        trace.gateOut = performance.now();
        try {
          return (await work()) as T;
        } finally {
          if (trace.takeAnswered > 0 && trace.committed > 0) traces.push(trace);
        }
      }) as Promise<T>);
  };
  const connect = pg.Pool.prototype.connect;
  pg.Pool.prototype.connect = function (this: pg.Pool, ...args: unknown[]) {
    const result = (connect as (...a: unknown[]) => unknown).apply(this, args);
    const trace = traceOf.getStore();
    if (trace && result instanceof Promise) void result.then(() => (trace.connected = performance.now()), () => {});
    return result;
  } as typeof connect;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++;
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '?');
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    const trace = traceOf.getStore();
    if (!trace || !(result instanceof Promise)) return result;
    const now = performance.now();
    if (text === 'BEGIN') {
      // An attempt (a rerun after a lock timeout or a conflict starts again): only the last one is timed.
      Object.assign(trace, { begin: now, takeSent: 0, takeAnswered: 0, committed: 0, trips: 0, dbMs: 0, statements: 0, inFlight: 0 });
      trace.attempts += 1;
    }
    const isTake = text.startsWith(TAKE) && trace.takeSent === 0;
    if (isTake) trace.takeSent = now;
    const underRow = trace.takeAnswered > 0 && trace.committed === 0;
    if (underRow) {
      trace.statements += 1;
      if (trace.inFlight === 0) {
        trace.trips += 1;
        trace.busySince = now;
      }
      trace.inFlight += 1;
    }
    const settled = () => {
      const at = performance.now();
      if (isTake) trace.takeAnswered = at;
      if (underRow) {
        trace.inFlight -= 1;
        if (trace.inFlight === 0) trace.dbMs += at - trace.busySince;
      }
      if (text === 'COMMIT' || (typeof first === 'object' && first?.text === 'COMMIT')) trace.committed = at;
    };
    result.then(settled, settled);
    return result;
  } as typeof query;

  const { startEngineServer } = await import('../../src/host/start-engine-server.ts');
  const { openPostgresEngine } = await import('../../src/host/open-postgres-engine.ts');
  const GENEROUS = { capacity: 1_000_000_000, refillPerSecond: 1_000_000_000 };
  // PROBE_POOL_SIZE: the node's pool (default the engine's, 10; its use cases hold at most one fewer).
  const poolSize = process.env.PROBE_POOL_SIZE ? Number(process.env.PROBE_POOL_SIZE) : undefined;
  const engine = await openPostgresEngine({ connectionString, onError: () => {}, ...(poolSize ? { poolSize } : {}) });
  const server = await startEngineServer({ database: engine, rateLimits: { perKey: GENEROUS, unauthenticated: GENEROUS }, logger: false });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let cpu = process.cpuUsage();
  let statementsAtStart = 0;
  process.on('message', (message: { type: string }) => {
    if (message.type === 'start') {
      traces.length = 0;
      loop.reset();
      loop.enable();
      cpu = process.cpuUsage();
      statementsAtStart = statements;
      process.send!({ type: 'started' });
    } else if (message.type === 'report') {
      loop.disable();
      const used = process.cpuUsage(cpu);
      process.send!({
        type: 'report',
        traces,
        cpuMs: (used.user + used.system) / 1000,
        statements: statements - statementsAtStart,
        loop: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
      });
    } else if (message.type === 'stop') {
      void server.close().then(() => process.exit(0));
    }
  });
  process.send!({ type: 'ready', baseUrl: server.baseUrl });
}

interface NodeReport {
  traces: Trace[];
  cpuMs: number;
  statements: number;
  loop: { p50: number; p99: number; max: number };
}

function ask<T>(child: ChildProcess, type: string, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (message: { type: string }) => {
      if (message.type !== reply) return;
      child.off('message', on);
      resolve(message as T);
    };
    child.on('message', on);
    child.send({ type });
  });
}

const pct = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
};

async function runProbe(seconds: number): Promise<void> {
  const { usePostgresCluster } = await import('../../test/support/postgres-cluster.ts');
  const { seedRestaurants } = await import('../rows/platform/seed-restaurants.ts');
  const cluster = await usePostgresCluster();
  const children: ChildProcess[] = [];
  try {
    const connectionString = await cluster.createDatabase(`probe_order_time_${process.pid}`);
    const restaurants = await seedRestaurants(connectionString, 50);
    const bases: string[] = [];
    for (let i = 0; i < 2; i++) {
      const child = fork(fileURLToPath(import.meta.url), ['--node', connectionString], {
        execPath: process.execPath,
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      bases.push(await new Promise<string>((resolve) => child.on('message', (m: { type: string; baseUrl?: string }) => m.type === 'ready' && resolve(m.baseUrl!))));
    }
    let n = 0;
    const write = async (base: string, r: number) => {
      const restaurant = restaurants[r]!;
      const response = await fetch(`${base}/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${restaurant.key}`, 'content-type': 'application/json', 'idempotency-key': `probe-${process.pid}-${++n}` },
        body: JSON.stringify({
          location_id: restaurant.locationId,
          type: 'retiro',
          customer: { name: 'Sonda', phone: '+56 9 5555 1234' },
          items: [{ product_id: restaurant.productId, quantity: 1 }],
          payment: 'external',
        }),
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`answered ${response.status}: ${text.slice(0, 200)}`);
    };
    const load = async (ms: number, writers: number, target: (w: number, i: number) => [string, number]) => {
      const until = performance.now() + ms;
      const latencies: number[] = [];
      await Promise.all(Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; performance.now() < until; i++) {
          const [base, r] = target(w, i);
          const start = performance.now();
          await write(base, r);
          latencies.push(performance.now() - start);
        }
      }));
      return latencies;
    };
    const scenarios: { name: string; writers: number; nodes: number; target: (w: number, i: number) => [string, number] }[] = [
      { name: 'one node, 16 writers over 50 restaurants', writers: 16, nodes: 1, target: (w, i) => [bases[0]!, (w * 7 + i) % 50] },
      { name: 'one restaurant alone, 8 writers over 2 nodes', writers: 8, nodes: 2, target: (w) => [bases[w % 2]!, 0] },
    ];
    await load(2_000, 16, (w, i) => [bases[w % 2]!, (w * 7 + i) % 50]);
    for (const scenario of scenarios) {
      const used = children.slice(0, scenario.nodes);
      await Promise.all(used.map((c) => ask(c, 'start', 'started')));
      const load1 = os.loadavg()[0]!;
      const latencies = await load(seconds * 1000, scenario.writers, scenario.target);
      const reports = await Promise.all(used.map((c) => ask<NodeReport>(c, 'report', 'report')));
      const traces = reports.flatMap((r) => r.traces);
      const orders = latencies.length;
      const field = (f: (t: Trace) => number) => {
        const values = traces.map(f);
        return `p50 ${pct(values, 50).toFixed(2)}  p90 ${pct(values, 90).toFixed(2)}  mean ${(values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)}`;
      };
      console.log(`\n== ${scenario.name}: ${orders} orders in ${seconds} s (${(orders / seconds).toFixed(1)}/s), load ${load1.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`);
      console.log(`request latency (client)        p50 ${pct(latencies, 50).toFixed(1)}  p99 ${pct(latencies, 99).toFixed(1)} ms`);
      console.log(`gate wait                       ${field((t) => t.gateOut - t.gateIn)} ms`);
      console.log(`pool connect wait               ${field((t) => t.connected - t.gateOut)} ms`);
      console.log(`BEGIN → row's take sent         ${field((t) => t.takeSent - t.begin)} ms`);
      console.log(`take sent → answered (lock+RT)  ${field((t) => t.takeAnswered - t.takeSent)} ms`);
      console.log(`row held: answered → COMMIT     ${field((t) => t.committed - t.takeAnswered)} ms`);
      console.log(`  of which a statement in flight ${field((t) => t.dbMs)} ms`);
      console.log(`  of which none (node's share)  ${field((t) => t.committed - t.takeAnswered - t.dbMs)} ms`);
      console.log(`  round trips under the row     ${field((t) => t.trips)}`);
      console.log(`  statements under the row      ${field((t) => t.statements)}`);
      console.log(`transaction whole (gate → COMMIT) ${field((t) => t.committed - t.gateIn)} ms; reruns ${traces.filter((t) => t.attempts > 1).length}`);
      for (const [i, r] of reports.entries()) {
        console.log(`node ${i}: CPU ${(r.cpuMs / Math.max(1, r.traces.length)).toFixed(2)} ms an order, ${(r.statements / Math.max(1, r.traces.length)).toFixed(1)} statements an order, loop delay p50 ${r.loop.p50.toFixed(1)} p99 ${r.loop.p99.toFixed(1)} max ${r.loop.max.toFixed(1)} ms (${r.traces.length} orders)`);
      }
    }
  } finally {
    for (const child of children) child.send({ type: 'stop' });
    await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : c.once('exit', resolve)))));
    await cluster.release();
  }
}

if (process.argv[2] === '--node') await runNode(process.argv[3]!);
else await runProbe(Number(process.argv[2] ?? 8));
