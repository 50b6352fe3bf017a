// Row 8: memory under a steady load for a long time. The engine serves reads and takes orders
// without pause for 30 minutes (`--quick`: 6 s of short chunks, a smoke run), its RSS sampled between load chunks; after a
// warm-up (10 minutes; `--quick`: 1.8 s) the RSS must be flat: its growth over the rest (the least-
// squares slope times the window, so one GC pause does not decide it) under 5 MB. The ceiling is a
// bare process (node:http and better-sqlite3 on the same file) under the same read load, for 3
// minutes (it only shows what a flat RSS looks like here).
import { spawnChild, type Child } from '../lib/child.ts';
import { authorization, copyOfDatabase, removeDatabase, underTest, type BenchContext } from '../lib/context.ts';
import { runLoad } from '../lib/load.ts';
import { figure, type Figure } from '../lib/report.ts';
import { CREATE_ORDER_BODY } from './create-orders.ts';

const MB = 1024 * 1024;
const BARE_MINUTES = 3;
const BARE_WARMUP = 1;
/** CI's smoke run (`--quick`) only keeps the row working (a crash still fails it): 6 s of each, in chunks of 3 s or more (2 for the bare process), so at least 2 samples after the warm-up. */
const QUICK_MINUTES = 0.1;
const QUICK_WARMUP = 0.03;
/** One chunk of the load: reads on 4 connections, then (the engine only) orders on 1, in seconds. */
const CHUNK = { reads: 20, writes: 5 };
const QUICK_CHUNK = { reads: 2, writes: 1 };

export interface SoakSample {
  /** Minutes since the load started. */
  minute: number;
  rssMb: number;
  /** V8's heap in use, and memory outside it that V8 knows of (Buffers): RSS growing without them is native (SQLite, malloc). */
  heapUsedMb?: number;
  externalMb?: number;
}

/** RSS growth over the samples after `fromMinute`, as the least-squares slope times their span (MB). */
function growthAfter(samples: SoakSample[], fromMinute: number): { growthMb: number; slopeMbPerMin: number; span: number } {
  const kept = samples.filter((s) => s.minute >= fromMinute);
  if (kept.length < 2) return { growthMb: Number.NaN, slopeMbPerMin: Number.NaN, span: 0 };
  const meanX = kept.reduce((a, s) => a + s.minute, 0) / kept.length;
  const meanY = kept.reduce((a, s) => a + s.rssMb, 0) / kept.length;
  let num = 0;
  let den = 0;
  for (const s of kept) {
    num += (s.minute - meanX) * (s.rssMb - meanY);
    den += (s.minute - meanX) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  const span = kept.at(-1)!.minute - kept[0]!.minute;
  return { growthMb: slope * span, slopeMbPerMin: slope, span };
}

async function soak(
  context: BenchContext,
  child: Child,
  url: string,
  minutes: number,
  withWrites: boolean,
  label: string,
): Promise<SoakSample[]> {
  const readHeaders = authorization(context.prepared.keys.live_read);
  const writeHeaders = { ...authorization(context.prepared.keys.live_write), 'content-type': 'application/json' };
  const paths = ['/v1/orders?limit=20', ...context.prepared.sampleOrderIds.slice(0, 200).map((id) => `/v1/orders/${id}`)];
  const samples: SoakSample[] = [];
  const chunk = context.quick ? QUICK_CHUNK : CHUNK;
  const started = Date.now();
  const minute = () => (Date.now() - started) / 60_000;
  const sample = async () => {
    const memory = await child.ask({ type: 'memory' });
    samples.push({
      minute: minute(),
      rssMb: (memory.rss as number) / MB,
      heapUsedMb: (memory.heapUsed as number) / MB,
      externalMb: (memory.external as number) / MB,
    });
  };
  await sample();
  let lastLog = 0;
  // At least two chunks, so a growth is measured even when a loaded machine stretches a short (`--quick`) run's first chunk past its length.
  while (minute() < minutes || samples.length < 3) {
    // A steady mix: reads on a few connections, then orders on one (the kitchen's day, compressed).
    await runLoad({ url, paths, headers: readHeaders, connections: 4, durationSeconds: chunk.reads });
    if (withWrites) await runLoad({ url: `${url}v1/orders`, method: 'POST', headers: writeHeaders, body: CREATE_ORDER_BODY, connections: 1, durationSeconds: chunk.writes });
    await sample();
    if (minute() - lastLog >= (context.quick ? QUICK_MINUTES : 5)) {
      lastLog = minute();
      const last = samples.at(-1)!;
      context.log(`  ${label}: ${minute().toFixed(1)} min, RSS ${last.rssMb.toFixed(1)} MB (V8 heap used ${last.heapUsedMb!.toFixed(1)}, external ${last.externalMb!.toFixed(1)})`);
    }
  }
  return samples;
}

export async function benchSoak(context: BenchContext): Promise<Figure[]> {
  const minutes = context.quick ? QUICK_MINUTES : 30;
  const warmup = context.quick ? QUICK_WARMUP : 10;
  const bareMinutes = context.quick ? QUICK_MINUTES : BARE_MINUTES;
  const bareWarmup = context.quick ? QUICK_WARMUP : BARE_WARMUP;
  const chunk = context.quick ? QUICK_CHUNK : CHUNK;
  const database = copyOfDatabase(context);
  let ours: SoakSample[];
  let bare: SoakSample[];
  const engine = await spawnChild('engine', { database }, underTest(context, 'row8'));
  try {
    ours = await soak(context, engine, `http://127.0.0.1:${engine.ready.port as number}/`, minutes, true, 'engine');
  } finally {
    await engine.stop();
  }
  const body = JSON.stringify({ data: [], has_more: false, next_cursor: null });
  const ceiling = await spawnChild('bare-http', { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body, database });
  try {
    // The bare process only shows what a flat RSS looks like on this machine: 3 minutes are enough.
    bare = await soak(context, ceiling, `http://127.0.0.1:${ceiling.ready.port as number}/`, bareMinutes, false, 'bare');
  } finally {
    await ceiling.stop();
    removeDatabase(database);
  }
  const oursGrowth = growthAfter(ours, warmup);
  const bareGrowth = growthAfter(bare, bareWarmup);
  // A growth of zero or less is flat: the ratio of costs needs positive values, so it is shown as 0.1 MB.
  const shown = (mb: number) => Math.max(mb, 0.1);
  return [
    {
      ...figure(
        {
          row: 8,
          name: context.quick ? `Engine RSS growth after warm-up (${Math.round(minutes * 60)}-s soak)` : `Engine RSS growth after warm-up (${minutes}-min soak)`,
          unit: 'MB',
          better: 'lower',
          note:
            `least-squares slope of RSS × the ${oursGrowth.span.toFixed(context.quick ? 2 : 0)} min after a ${warmup}-min warm-up (${oursGrowth.slopeMbPerMin.toFixed(3)} MB/min; ` +
            `raw ${oursGrowth.growthMb.toFixed(2)} MB); RSS ${ours[0]!.rssMb.toFixed(0)} → ${ours.at(-1)!.rssMb.toFixed(0)} MB ` +
            `(V8 heap used ${ours[0]!.heapUsedMb!.toFixed(0)} → ${ours.at(-1)!.heapUsedMb!.toFixed(0)} MB); reads on 4 connections ${chunk.reads} s, then orders on 1 for ${chunk.writes} s, repeated. ` +
            `Ceiling: the bare process, reads only, ${bareMinutes} min after a ${bareWarmup}-min warm-up (${bareGrowth.growthMb.toFixed(2)} MB)`,
          details: { ours, bare },
        },
        { ours: [shown(oursGrowth.growthMb)], ceiling: [shown(bareGrowth.growthMb)] },
        // A smoke run's "growth" is the file's pages and V8's heap still warming up: only the
        // 30-minute run can judge a leak, so the smoke run shows its figure without a verdict.
        (value) => (context.quick ? { text: '< 5 MB (30-min run only)', met: null } : { text: '< 5 MB', met: value < 5 }),
      ),
    },
  ];
}
