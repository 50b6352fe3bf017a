// The load generator, in its own process: autocannon driven through its API so that every
// response's time is kept at full precision (its own histograms round to whole milliseconds).
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { childConfig, tell } from '../lib/child.ts';
import type { LoadOptions } from '../lib/load.ts';

const options = childConfig<LoadOptions>();
const paths = options.paths && options.paths.length > 0 ? options.paths : null;
let next = 0;

function run(durationSeconds: number, record: boolean): Promise<{ ok: number; other: number; errors: number; elapsedMs: number; latencies: number[] }> {
  const latencies: number[] = [];
  let ok = 0;
  let other = 0;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.body !== undefined ? { body: options.body } : {}),
        connections: options.connections ?? 10,
        duration: durationSeconds,
        ...(paths ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length] }) }] } : {}),
      },
      (error, result) => {
        if (error) reject(error);
        else resolve({ ok, other, errors: result.errors + result.timeouts, elapsedMs: performance.now() - started, latencies });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) {
        ok++;
        if (record) latencies.push(responseTime);
      } else other++;
    });
  });
}

if ((options.warmupSeconds ?? 0) > 0) await run(options.warmupSeconds!, false);
const result = await run(options.durationSeconds, true);
const sorted = Float64Array.from(result.latencies).sort();
const at = (p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
tell({
  type: 'ready',
  rps: result.ok / (result.elapsedMs / 1000),
  p50: at(50),
  p99: at(99),
  requests: result.ok,
  non2xx: result.other,
  errors: result.errors,
});
process.disconnect?.();
