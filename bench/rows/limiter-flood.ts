// Row 9: the per-address rate limiter under 100,000 distinct client addresses (issue 19). In
// process: take() p99 over 100,000 new addresses, each leaving a bucket that is not full (the old
// limiter swept the whole map on each take past 10,000 buckets). Over HTTP: GET /v1/menu p99 from a
// normal client, idle and then while requests without a key arrive from ever-new addresses (each a
// bucket of the engine's real unauthenticated limiter): first as fast as 16 workers go (the flood's
// own CPU shows), then, the engine holding a bucket for every address, at the guessing rate
// (≈ 470 a second: 92,033 guesses in 195 s), which is the row's target.
import { performance } from 'node:perf_hooks';
import { R1 } from '../../test/support/demo-ids.ts';
import { TokenBucketLimiter } from '../../src/engine/http/rate-limiter.ts';
import { startFlood } from '../lib/address-flood.ts';
import { spawnChild } from '../lib/child.ts';
import { authorization, underTest, type BenchContext } from '../lib/context.ts';
import { runLoad } from '../lib/load.ts';
import { figure, type Figure } from '../lib/report.ts';
import { percentile } from '../lib/stats.ts';

/** The guessing run: 92,033 guesses in 195 s. */
const GUESSES_PER_SECOND = 470;

function takeP99(addresses: number): number {
  let now = 0;
  const limiter = new TokenBucketLimiter({ capacity: 30, refillPerSecond: 0.5 }, { now: () => now }, 200_000);
  const times: number[] = [];
  for (let i = 0; i < addresses; i++) {
    now += 1;
    const key = `ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const started = performance.now();
    limiter.take(key);
    times.push(performance.now() - started);
  }
  // In µs: a figure of hundredths of a millisecond reads better so.
  return percentile(times, 99) * 1000;
}

export async function benchLimiterFlood(context: BenchContext): Promise<Figure[]> {
  const addresses = context.quick ? 5_000 : 100_000;
  const takes: number[] = [];
  for (let run = 0; run < context.runs; run++) takes.push(takeP99(addresses));
  context.log(`  take() p99 over ${addresses} addresses: ${takes.map((t) => t.toFixed(2)).join(', ')} µs`);

  const engine = await spawnChild('engine', { database: context.prepared.path, realUnauthenticatedLimit: true }, underTest(context, 'row9'));
  const idle: number[] = [];
  const flooded: number[] = [];
  const paced: number[] = [];
  let floodSent = 0;
  try {
    const baseUrl = engine.ready.baseUrl as string;
    const port = engine.ready.port as number;
    const menu = `${baseUrl}/menu?location_id=${R1.openLocation}`;
    const headers = authorization(context.prepared.keys.live_read);
    const load = () => runLoad({ url: menu, headers, connections: 4, durationSeconds: context.seconds });
    if (context.warmupSeconds > 0) await runLoad({ url: menu, headers, connections: 4, durationSeconds: context.warmupSeconds });
    for (let run = 0; run < context.runs; run++) idle.push((await load()).p99);
    // Requests without a key from new addresses: each costs the engine one bucket.
    const flood = startFlood({ port, path: `/v1/menu?location_id=${R1.openLocation}`, addresses, concurrency: 16 });
    try {
      await flood.reached(Math.min(addresses, context.quick ? 1_000 : 20_000));
      for (let run = 0; run < context.runs; run++) flooded.push((await load()).p99);
      await flood.reached(addresses);
      // The engine now holds a bucket for every address (idle ones go after 60 s): the rate.
      flood.pace(GUESSES_PER_SECOND);
      for (let run = 0; run < context.runs; run++) paced.push((await load()).p99);
    } finally {
      await flood.stop();
      floodSent = flood.sent;
    }
    context.log(
      `  GET /v1/menu p99 idle ${idle.map((v) => v.toFixed(1)).join(', ')} ms; under the flood at full speed ${flooded.map((v) => v.toFixed(1)).join(', ')} ms; at ${GUESSES_PER_SECOND}/s ${paced.map((v) => v.toFixed(1)).join(', ')} ms (${floodSent} flood requests)`,
    );
  } finally {
    await engine.stop();
  }
  return [
    figure(
      { row: 9, name: `Rate limiter: take() p99, ${addresses.toLocaleString('en-US')} distinct addresses`, unit: 'µs', better: 'lower', note: 'in process, every address leaves a bucket that is not full' },
      { ours: takes, ceiling: [] },
      (ours) => ({ text: '≤ 50 µs (0.05 ms)', met: ours <= 50 }),
    ),
    figure(
      {
        row: 9,
        name: `GET /v1/menu p99, ${addresses.toLocaleString('en-US')} address buckets held, ${GUESSES_PER_SECOND} keyless requests/s from new addresses (ceiling: idle)`,
        unit: 'ms',
        better: 'lower',
        note: `4 connections with a key; the flood: ${floodSent.toLocaleString('en-US')} keyless requests in all from up to ${addresses.toLocaleString('en-US')} loopback addresses, each a new connection`,
      },
      { ours: paced, ceiling: idle },
      (ours, ratio) => ({ text: 'within 2× of idle', met: ratio !== null && ratio >= 0.5 && ours > 0 }),
    ),
    figure(
      {
        row: 9,
        name: 'GET /v1/menu p99 while the flood goes as fast as it can (ceiling: idle)',
        unit: 'ms',
        better: 'lower',
        note: '16 workers opening a connection per request from a new address: the flood\'s own CPU (TCP, parsing, 401s) on shared cores, not the limiter (see take())',
      },
      { ours: flooded, ceiling: idle },
    ),
  ];
}
