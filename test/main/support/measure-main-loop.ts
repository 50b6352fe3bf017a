// Measures how responsive the app's main process stays while its HTTP API is under load: the
// engine host runs in a child process (as main would), autocannon drives it from this one.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { R1 } from '../../support/demo-ids.ts';

export interface Scenario {
  name: string;
  /** Requests per second over all connections; 0 = as fast as the server answers. */
  rate: number;
  connections: number;
  requests: (key: string) => autocannon.Request[];
}

export interface ScenarioResult {
  scenario: string;
  rate: string;
  http: { requests_per_s: number; latency_p50_ms: number; latency_p99_ms: number; errors: number; non2xx: number };
  loop_delay_ms: { p50: number; p99: number; max: number };
  ipc_ms: { calls: number; p50: number; p99: number; max: number };
  snapshot: { tickets: number; read_ms: number; total_ms: number; bytes: number };
  live_pushes: number;
  live_events: number;
}

const orderBody = JSON.stringify({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Carga' },
  items: [{ product_id: R1.products.cazuela, quantity: 1 }, { product_id: R1.products.completo, quantity: 2, modifier_option_ids: [R1.options.paltaExtra] }],
});

const SCENARIOS: Scenario[] = [
  { name: 'idle (no HTTP traffic)', rate: -1, connections: 0, requests: () => [] },
  {
    name: 'reads: GET /orders?limit=20 and GET /menu',
    rate: 0,
    connections: 10,
    requests: (key) => [
      { method: 'GET', path: '/v1/orders?limit=20', headers: { authorization: `Bearer ${key}` } },
      { method: 'GET', path: '/v1/menu', headers: { authorization: `Bearer ${key}` } },
    ],
  },
  {
    name: 'writes: POST /orders',
    rate: 0,
    connections: 10,
    requests: (key) => [{ method: 'POST', path: '/v1/orders', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: orderBody }],
  },
  {
    name: 'busy LAN: 100 req/s mixed (80 reads, 20 orders)',
    rate: 100,
    connections: 5,
    requests: (key) => [
      { method: 'GET', path: '/v1/orders?limit=20', headers: { authorization: `Bearer ${key}` } },
      { method: 'GET', path: '/v1/menu', headers: { authorization: `Bearer ${key}` } },
      { method: 'GET', path: '/v1/orders?limit=20', headers: { authorization: `Bearer ${key}` } },
      { method: 'GET', path: `/v1/stock?location_id=${R1.openLocation}`, headers: { authorization: `Bearer ${key}` } },
      { method: 'POST', path: '/v1/orders', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: orderBody },
    ],
  },
];

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  const answer = once(child, 'message') as Promise<[T]>;
  child.send(message);
  return answer.then(([value]) => value);
}

async function measureMainLoop(options: { seconds: number; scenarios?: Scenario[] }): Promise<ScenarioResult[]> {
  const child = fork(resolve(import.meta.dirname, 'loaded-main-process.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const [ready] = (await once(child, 'message')) as [{ base_url: string; key: string }];
    const origin = new URL(ready.base_url).origin;
    // Warm up first (route serializers, prepared statements, JIT): a cold start is not steady state.
    const mixed = SCENARIOS.find((s) => s.name.startsWith('busy LAN'))!;
    await autocannon({ url: origin, connections: 2, duration: 1, overallRate: 50, requests: mixed.requests(ready.key) });
    const results: ScenarioResult[] = [];
    for (const scenario of options.scenarios ?? SCENARIOS) {
      await ask(child, { cmd: 'reset' });
      let http: ScenarioResult['http'] = { requests_per_s: 0, latency_p50_ms: 0, latency_p99_ms: 0, errors: 0, non2xx: 0 };
      if (scenario.connections === 0) {
        await new Promise((r) => setTimeout(r, options.seconds * 1000));
      } else {
        const result = await autocannon({
          url: origin,
          connections: scenario.connections,
          duration: options.seconds,
          requests: scenario.requests(ready.key),
          ...(scenario.rate > 0 ? { overallRate: scenario.rate } : {}),
        });
        http = {
          requests_per_s: Math.round(result.requests.average),
          latency_p50_ms: result.latency.p50,
          latency_p99_ms: result.latency.p99,
          errors: result.errors,
          non2xx: result.non2xx,
        };
      }
      const report = await ask<Omit<ScenarioResult, 'scenario' | 'rate' | 'http'>>(child, { cmd: 'report' });
      results.push({ scenario: scenario.name, rate: scenario.rate > 0 ? `${scenario.rate}/s` : scenario.rate === 0 ? 'max' : '-', http, ...report });
    }
    return results;
  } finally {
    child.send({ cmd: 'stop' });
    await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill();
  }
}

// `npm run measure:main-loop` prints the table docs/desktop.md quotes.
if (import.meta.filename === process.argv[1]) {
  const seconds = Number(process.env.SECONDS_PER_SCENARIO ?? 10);
  const results = await measureMainLoop({ seconds });
  console.log(JSON.stringify({ seconds_per_scenario: seconds, node: process.version, cpus: (await import('node:os')).cpus().length, results }, null, 2));
}
