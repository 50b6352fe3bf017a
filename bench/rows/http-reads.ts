// Rows 1 and 2: GET /orders/{id} and GET /orders?limit=20 against a bare node:http server that
// answers the same bytes from memory.
import { spawnChild, type Child } from '../lib/child.ts';
import { authorization, underTest, type BenchContext } from '../lib/context.ts';
import { runLoad, type LoadResult } from '../lib/load.ts';
import { figure, type Figure } from '../lib/report.ts';
import { median } from '../lib/stats.ts';

/** Headers that belong to one connection or moment, not to the answer. */
const PER_MESSAGE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

async function compare(context: BenchContext, row: number, label: string, paths: string[], minimumRatio: number): Promise<Figure[]> {
  const headers = authorization(context.prepared.keys.live_read);
  const engine = await spawnChild('engine', { database: context.prepared.path }, underTest(context, `row${row}`));
  let bare: Child | null = null;
  let fastify: Awaited<ReturnType<typeof spawnChild>> | null = null;
  try {
    const baseUrl = engine.ready.baseUrl as string;
    const sample = await fetch(`${baseUrl}${paths[0]}`, { headers });
    const body = await sample.text();
    if (sample.status !== 200) throw new Error(`${label}: ${sample.status} ${body}`);
    const answerHeaders: Record<string, string> = {};
    sample.headers.forEach((value, name) => {
      if (!PER_MESSAGE.has(name)) answerHeaders[name] = value;
    });
    bare = await spawnChild('bare-http', { status: 200, headers: answerHeaders, body });
    const bareUrl = `http://127.0.0.1:${bare.ready.port as number}/v1`;
    fastify = await spawnChild('fastify-bare', { headers: answerHeaders, body });
    const fastifyUrl = `http://127.0.0.1:${fastify.ready.port as number}/v1`;
    const ours: LoadResult[] = [];
    const ceiling: LoadResult[] = [];
    const fastifyAlone: number[] = [];
    const cpu = { ours: [] as number[], ceiling: [] as number[] };
    const load = (url: string, durationSeconds = context.seconds) =>
      runLoad({ url: `${url}${paths[0]}`, paths: paths.map((p) => `/v1${p}`), headers, durationSeconds });
    // Warm-up runs first (JIT, caches), not measured.
    if (context.warmupSeconds > 0) {
      for (const url of [baseUrl, bareUrl, fastifyUrl]) await load(url, context.warmupSeconds);
    }
    /** A measured run, with the server's CPU time (user + system) per answer: what contention hardly moves. */
    const measured = async (child: Child, url: string, into: LoadResult[], cpuInto: number[]) => {
      const before = await child.ask({ type: 'cpu' });
      const result = await load(url);
      const after = await child.ask({ type: 'cpu' });
      into.push(result);
      const micros = (after.user as number) - (before.user as number) + (after.system as number) - (before.system as number);
      cpuInto.push(micros / Math.max(1, result.requests));
    };
    for (let run = 0; run < context.runs; run++) {
      // Alternated, so neither side always gets the quieter moment.
      if (run % 2 === 0) {
        await measured(engine, baseUrl, ours, cpu.ours);
        await measured(bare, bareUrl, ceiling, cpu.ceiling);
      } else {
        await measured(bare, bareUrl, ceiling, cpu.ceiling);
        await measured(engine, baseUrl, ours, cpu.ours);
      }
      fastifyAlone.push((await load(fastifyUrl)).rps);
      context.log(
        `  run ${run + 1}: ours ${Math.round(ours.at(-1)!.rps)} req/s (${cpu.ours.at(-1)!.toFixed(1)} µs CPU each), bare ${Math.round(ceiling.at(-1)!.rps)} req/s (${cpu.ceiling.at(-1)!.toFixed(1)} µs), Fastify alone ${Math.round(fastifyAlone.at(-1)!)} req/s`,
      );
    }
    const of = (key: keyof LoadResult) => ({ ours: ours.map((r) => r[key]), ceiling: ceiling.map((r) => r[key]) });
    const throughput = figure({ row, name: `${label} throughput`, unit: 'req/s', better: 'higher' }, of('rps'), (_o, ratio) => ({
      text: `≥ ${minimumRatio * 100}% of ceiling`,
      met: ratio !== null && ratio >= minimumRatio,
    }));
    const framework = median(fastifyAlone);
    throughput.note =
      `${body.length} B answer, 10 connections; Fastify alone answering the same bytes: ${Math.round(framework)} req/s` +
      ` (${Math.round((100 * framework) / throughput.ceiling!)}% of the ceiling)`;
    throughput.details = { fastifyAloneRps: fastifyAlone };
    return [
      throughput,
      figure({ row, name: `${label} latency p50`, unit: 'ms', better: 'lower' }, of('p50')),
      figure({ row, name: `${label} latency p99`, unit: 'ms', better: 'lower' }, of('p99')),
      figure(
        {
          row,
          name: `${label} server CPU per answer`,
          unit: 'µs',
          better: 'lower',
          note: 'user + system CPU time of the server process over a run ÷ its answers; steadier than throughput on a shared machine',
        },
        cpu,
      ),
    ];
  } finally {
    await fastify?.stop();
    await bare?.stop();
    await engine.stop();
  }
}

/** Row 1: one order by id, taking in turn 1,000 ids spread over the whole history. */
export function benchReadOrder(context: BenchContext): Promise<Figure[]> {
  const paths = context.prepared.sampleOrderIds.map((id) => `/orders/${id}`);
  return compare(context, 1, 'GET /orders/{id}', paths, 0.75);
}

/** Row 2: the newest page of 20 over 100,000 orders. */
export function benchListOrders(context: BenchContext): Promise<Figure[]> {
  return compare(context, 2, 'GET /orders?limit=20', ['/orders?limit=20'], 0.4);
}
